// Pointers-to-shared and references to shared elements.
//
//   UPC                              upcemu
//   shared [4] int *p;               upc::sptr<int, 4> p;
//   shared [] double *q;             upc::sptr<double, upc::indefinite> q;
//   shared void *v;                  upc::sptr<void> v;
//   strict shared int *s;            upc::sptr<int, 1, upc::strict> s;
//   *p = 3; x = p[5]; p += 2;        the same
//   (int *)p  (local affinity)       static_cast<int*>(p)  or  p.local()
//
// Arithmetic follows UPC 1.3 §6.4.2 exactly (see upc/layout.hpp).
#pragma once
#include <atomic>
#include <cstddef>
#include <cstring>
#include <string>
#include <type_traits>

#include "upc/layout.hpp"
#include "upc/runtime.hpp"

namespace upc {

constexpr std::size_t indefinite = 0;  // shared [] T

enum class consistency { relaxed, strict };
constexpr consistency relaxed = consistency::relaxed;
constexpr consistency strict = consistency::strict;

namespace detail {
inline char* raw_address(const shared_address& a) noexcept {
  return g_partitions + a.thread * g_partition_bytes + a.offset;
}
[[noreturn]] void fail_not_local(const char* function, const shared_address& a);
[[noreturn]] void fail_null(const char* function);
[[noreturn]] void fail_outside_partition(const char* function, const shared_address& a, std::size_t bytes);
// Under --check (lib/runtime/access_check.cpp): whether the access lies inside the
// part on a.thread of the live shared object it points into, and the report that
// names the object, the index and the thread when it does not. The test is pure
// as far as the caller can see (it only reads the heap, caching privately), which
// keeps a checked access from forcing every loop around it to reload its globals.
[[gnu::pure]] bool object_access_ok(const shared_address& a, std::size_t bytes) noexcept;
[[noreturn]] void fail_object_access(const char* function, const shared_address& a, std::size_t bytes);
// Under --check: the access of `bytes` at `a` stays inside one partition and inside
// one live shared object. Off --check it costs one predictable branch.
inline void check_access(const char* function, const shared_address& a, std::size_t bytes) {
  if (g_check) [[unlikely]] {
    if (a.thread >= static_cast<std::uint32_t>(g_threads) || a.offset > g_partition_bytes ||
        bytes > g_partition_bytes - a.offset)  // never offset + bytes: it wraps for offsets near 2^64
      fail_outside_partition(function, a, bytes);
    if (!object_access_ok(a, bytes)) fail_object_access(function, a, bytes);
  }
}

template <class T, consistency C>
inline T load(const T* p) noexcept {
  if constexpr (std::is_trivially_copyable_v<T> && (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8) &&
                std::atomic_ref<T>::is_always_lock_free) {
    return std::atomic_ref<T>(*const_cast<T*>(p)).load(C == consistency::strict ? std::memory_order_seq_cst
                                                                                 : std::memory_order_relaxed);
  } else {
    if constexpr (C == consistency::strict) std::atomic_thread_fence(std::memory_order_seq_cst);
    T v;
    std::memcpy(static_cast<void*>(&v), p, sizeof(T));
    if constexpr (C == consistency::strict) std::atomic_thread_fence(std::memory_order_seq_cst);
    return v;
  }
}
template <class T, consistency C>
inline void store(T* p, const T& v) noexcept {
  if constexpr (std::is_trivially_copyable_v<T> && (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8) &&
                std::atomic_ref<T>::is_always_lock_free) {
    std::atomic_ref<T>(*p).store(v, C == consistency::strict ? std::memory_order_seq_cst : std::memory_order_relaxed);
  } else {
    if constexpr (C == consistency::strict) std::atomic_thread_fence(std::memory_order_seq_cst);
    std::memcpy(static_cast<void*>(p), &v, sizeof(T));
    if constexpr (C == consistency::strict) std::atomic_thread_fence(std::memory_order_seq_cst);
  }
}
}  // namespace detail

template <class T, std::size_t B = 1, consistency C = relaxed>
class sptr;

// A reference to one shared element: reads and writes go to the owning partition.
template <class T, std::size_t B = 1, consistency C = relaxed>
class shared_ref {
  using value_type = std::remove_const_t<T>;

 public:
  explicit shared_ref(shared_address a) noexcept : a_(a) {}

  value_type get() const {
    detail::check_access("shared read", a_, sizeof(T));
    return detail::load<value_type, C>(reinterpret_cast<const value_type*>(detail::raw_address(a_)));
  }
  operator value_type() const { return get(); }
  void put(const value_type& v) const {
    static_assert(!std::is_const_v<T>, "assignment through a pointer to const shared data");
    detail::check_access("shared write", a_, sizeof(T));
    detail::store<value_type, C>(reinterpret_cast<value_type*>(detail::raw_address(a_)), v);
  }
  const shared_ref& operator=(const value_type& v) const { put(v); return *this; }
  const shared_ref& operator=(const shared_ref& other) const { put(other.get()); return *this; }
  template <std::size_t B2, consistency C2>
  const shared_ref& operator=(const shared_ref<T, B2, C2>& other) const { put(other.get()); return *this; }

  // Read-modify-write, not atomic (as in UPC); use upc_atomic.h or a lock for that.
#define UPCEMU_COMPOUND(op)                                                          \
  template <class U>                                                                 \
  const shared_ref& operator op##=(const U& v) const {                               \
    value_type x = get();                                                            \
    x op## = v;                                                                      \
    put(x);                                                                          \
    return *this;                                                                    \
  }
  UPCEMU_COMPOUND(+) UPCEMU_COMPOUND(-) UPCEMU_COMPOUND(*) UPCEMU_COMPOUND(/) UPCEMU_COMPOUND(%)
  UPCEMU_COMPOUND(&) UPCEMU_COMPOUND(|) UPCEMU_COMPOUND(^) UPCEMU_COMPOUND(<<) UPCEMU_COMPOUND(>>)
#undef UPCEMU_COMPOUND
  const shared_ref& operator++() const { put(get() + 1); return *this; }
  const shared_ref& operator--() const { put(get() - 1); return *this; }
  value_type operator++(int) const { value_type x = get(); put(x + 1); return x; }
  value_type operator--(int) const { value_type x = get(); put(x - 1); return x; }

  // &x[i] is a pointer-to-shared, as in UPC.
  sptr<T, B, C> operator&() const noexcept { return sptr<T, B, C>(a_); }
  const shared_address& address() const noexcept { return a_; }

 private:
  shared_address a_;
};

// Generic pointer-to-shared (shared void *): no arithmetic, converts to and from
// every typed pointer-to-shared.
template <std::size_t B, consistency C>
class sptr<void, B, C> {
 public:
  sptr() noexcept = default;
  sptr(std::nullptr_t) noexcept {}
  explicit sptr(shared_address a) noexcept : a_(a) {}
  template <class U, std::size_t B2, consistency C2>
  sptr(const sptr<U, B2, C2>& p) noexcept : a_(p.address()) {}
  // A pointer-to-shared read from shared memory (e.g. upc_free(ptrs[t])).
  template <class U, std::size_t B2, consistency C2, std::size_t B3, consistency C3>
  sptr(const shared_ref<sptr<U, B2, C2>, B3, C3>& r) : a_(r.get().address()) {}

  const shared_address& address() const noexcept { return a_; }
  bool is_null() const noexcept { return a_ == shared_address{}; }
  explicit operator bool() const noexcept { return !is_null(); }
  friend bool operator==(const sptr& a, const sptr& b) noexcept { return a.a_.thread == b.a_.thread && a.a_.offset == b.a_.offset; }
  // The local address, when the calling thread has affinity (UPC's cast to void*).
  void* local() const {
    if (is_null()) return nullptr;
    if (a_.thread != static_cast<std::uint32_t>(mythread())) detail::fail_not_local("cast to a local pointer", a_);
    return detail::raw_address(a_);
  }
  explicit operator void*() const { return local(); }

 private:
  shared_address a_{};
};

// shared const void *: the same, and every shared void * converts to it.
template <std::size_t B, consistency C>
class sptr<const void, B, C> : public sptr<void, B, C> {
 public:
  using sptr<void, B, C>::sptr;
  // Declared here because C++ never inherits a constructor from the base type itself.
  sptr(const sptr<void, B, C>& p) noexcept : sptr<void, B, C>(p) {}
};

// Typed pointer-to-shared: T with block size B (0 = indefinite).
template <class T, std::size_t B, consistency C>
class sptr {
 public:
  using element_type = T;
  static constexpr std::size_t block_size = B;
  static constexpr std::size_t elem_size = sizeof(T);
  static_assert(B <= (std::size_t{1} << 32), "block size exceeds UPC_MAX_BLOCK_SIZE (2^32)");

  sptr() noexcept = default;
  sptr(std::nullptr_t) noexcept {}
  explicit sptr(shared_address a) noexcept : a_(a) {}
  // shared T * from shared void *: the phase is kept when it fits this block size.
  template <std::size_t B2, consistency C2>
  explicit sptr(const sptr<void, B2, C2>& v) noexcept : a_(v.address()) {
    if (B <= 1 || a_.phase >= B) a_.phase = 0;
  }
  // Same element type and block size, other consistency, or adding const.
  template <class U, consistency C2,
            class = std::enable_if_t<std::is_same_v<std::remove_const_t<U>, std::remove_const_t<T>> &&
                                     (std::is_const_v<T> || !std::is_const_v<U>)>>
  sptr(const sptr<U, B, C2>& p) noexcept : a_(p.address()) {}

  // Reinterpretation as another element type or block size: the phase is reset
  // to zero when the block size or the element size differs, and kept otherwise
  // or for shared void (UPC 1.3 §6.4.3).
  template <class U, std::size_t B2 = B, consistency C2 = C>
  sptr<U, B2, C2> cast() const noexcept {
    shared_address a = a_;
    if constexpr (!std::is_void_v<U>) {
      if (B2 != B || sizeof(U) != sizeof(T)) a.phase = 0;
    }
    return sptr<U, B2, C2>(a);
  }

  const shared_address& address() const noexcept { return a_; }
  int thread() const noexcept { return static_cast<int>(a_.thread); }
  std::size_t phase() const noexcept { return a_.phase; }
  std::uint64_t addrfield() const noexcept { return a_.offset; }
  bool is_null() const noexcept { return a_ == shared_address{}; }
  explicit operator bool() const noexcept { return !is_null(); }

  shared_ref<T, B, C> operator*() const {
    if (is_null()) [[unlikely]] detail::fail_null("dereference of a pointer-to-shared");
    return shared_ref<T, B, C>(a_);
  }
  shared_ref<T, B, C> operator[](std::ptrdiff_t i) const { return *(*this + i); }

  sptr operator+(std::ptrdiff_t i) const noexcept {
    return sptr(layout::advance(a_, i, sizeof(T), B, threads()));
  }
  sptr operator-(std::ptrdiff_t i) const noexcept { return *this + (-i); }
  friend sptr operator+(std::ptrdiff_t i, const sptr& p) noexcept { return p + i; }
  std::ptrdiff_t operator-(const sptr& q) const noexcept {
    return layout::distance(a_, q.a_, sizeof(T), B, threads());
  }
  sptr& operator+=(std::ptrdiff_t i) noexcept { return *this = *this + i; }
  sptr& operator-=(std::ptrdiff_t i) noexcept { return *this = *this - i; }
  sptr& operator++() noexcept { return *this += 1; }
  sptr& operator--() noexcept { return *this -= 1; }
  sptr operator++(int) noexcept { sptr p = *this; *this += 1; return p; }
  sptr operator--(int) noexcept { sptr p = *this; *this -= 1; return p; }

  // Pointers to the same object are equal whatever their phase bookkeeping.
  friend bool operator==(const sptr& a, const sptr& b) noexcept {
    return a.a_.thread == b.a_.thread && a.a_.offset == b.a_.offset;
  }
  friend bool operator==(const sptr& a, std::nullptr_t) noexcept { return a.is_null(); }
  friend bool operator<(const sptr& a, const sptr& b) noexcept { return (a - b) < 0; }
  friend bool operator>(const sptr& a, const sptr& b) noexcept { return (a - b) > 0; }
  friend bool operator<=(const sptr& a, const sptr& b) noexcept { return (a - b) <= 0; }
  friend bool operator>=(const sptr& a, const sptr& b) noexcept { return (a - b) >= 0; }

  // Privatisation: the local address of an element the calling thread owns. From
  // it, a plain T* walks the rest of this thread's block(s) of the array.
  T* local() const {
    if (is_null()) return nullptr;
    if (a_.thread != static_cast<std::uint32_t>(mythread())) [[unlikely]]
      detail::fail_not_local("cast of a pointer-to-shared to a local pointer", a_);
    return reinterpret_cast<T*>(detail::raw_address(a_));
  }
  explicit operator T*() const { return local(); }

 private:
  shared_address a_{};
};

using shared_void_ptr = sptr<void>;

}  // namespace upc
