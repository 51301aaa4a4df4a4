// Pointers-to-shared and references to shared elements.
//
//   UPC                              upcemu
//   shared [4] int *p;               upc::sptr<int, 4> p;
//   shared [] double *q;             upc::sptr<double, upc::indefinite> q;
//   shared void *v;                  upc::sptr<void> v;
//   strict shared int *s;            upc::sptr<int, 1, upc::strict> s;
//   shared int *p = upc_all_alloc(...);   the same (shared void * converts implicitly)
//   *p = 3; x = p[5]; p += 2;        the same
//   p->x = 1;  &p->x                 p->*&S::x = 1;  p.field(&S::x)
//   a[i].x = 1;                      a[i].field(&S::x) = 1;
//   (int *)p  (local affinity)       static_cast<int*>(p)  or  p.local()
//   (run-time block size b)          upc::sptr<int, upc::dynamic_block> d(upc_all_alloc(n, b * sizeof(int)), b);
//
// Arithmetic follows UPC 1.3 §6.4.2 exactly (see upc/layout.hpp).
#pragma once
#include <atomic>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>

#include "upc/block_size.hpp"
#include "upc/consistency.hpp"
#include "upc/layout.hpp"
#include "upc/runtime.hpp"

namespace upc {

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
// Under --check=races (lib/runtime/race_check.hpp): the access, with the caller's
// return address as its place; `kind` holds access_kind bits (0: not recorded).
void note_element_access(const shared_address& a, std::size_t bytes, unsigned kind);
// Under --report=locality (lib/runtime/locality.hpp): the access counted as local
// or remote, at the caller's return address.
void note_element_locality(const shared_address& a, std::size_t bytes);
// Under --check: the access of `bytes` at `a` stays inside one partition and inside
// one live shared object. With neither --check nor --report=locality it costs one
// predictable branch. `kind` 0: not an element access of the program's.
inline void check_access(const char* function, const shared_address& a, std::size_t bytes, unsigned kind = 0) {
  if (g_access_hooks) [[unlikely]] {
    if (g_check) {
      if (a.thread >= static_cast<std::uint32_t>(g_threads) || a.offset > g_partition_bytes ||
          bytes > g_partition_bytes - a.offset)  // never offset + bytes: it wraps for offsets near 2^64
        fail_outside_partition(function, a, bytes);
      if (!object_access_ok(a, bytes)) fail_object_access(function, a, bytes);
      if (kind && g_races) note_element_access(a, bytes, kind);
    }
    if (kind && g_locality) note_element_locality(a, bytes);
  }
}

template <class T, consistency C>
inline T load(const T* p) noexcept {
  if constexpr (C == consistency::strict)
    if (g_several_hosts) [[unlikely]] strict_sync();  // fresh pages from other hosts
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
  if constexpr (C == consistency::strict)
    if (g_several_hosts) [[unlikely]] {  // earlier writes home first, this one right after
      strict_sync();
      store<T, consistency::relaxed>(p, v);
      strict_sync();
      return;
    }
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

namespace detail {
template <class>
inline constexpr bool always_false = false;

// The type of field M of a struct reached through a shared T (const stays const).
template <class T, class M>
using field_t = std::conditional_t<std::is_const_v<T>, const M, M>;

// Byte offset of a data member (offsetof for a member pointer). The member of a
// base class counts from the start of S. Computed on a never-constructed probe:
// only its address is used, and the compiler folds it to the member pointer's
// offset.
template <class S, class M, class Base>
inline std::size_t member_offset(M Base::*m) noexcept {
  static_assert(!std::is_polymorphic_v<S>, "fields of shared data must belong to a type without virtual functions");
  M S::*member = m;
  alignas(S) static constinit unsigned char probe[sizeof(S)] = {};
  const S* object = reinterpret_cast<const S*>(probe);
  return static_cast<std::size_t>(reinterpret_cast<const unsigned char*>(std::addressof(object->*member)) - probe);
}

// The field `offset` bytes into the element at `a`: on the element's thread, with
// indefinite block size (shared [] M *), so arithmetic on it stays in the element.
inline shared_address field_address(const shared_address& a, std::size_t offset) noexcept {
  return shared_address{a.offset + offset, a.thread, 0};
}

[[noreturn]] void fail_index(const char* function, std::size_t index, std::size_t size);
}  // namespace detail

// Written without a consistency, a pointer-to-shared or shared element gets its
// file's default (upc/consistency.hpp); shared void is relaxed everywhere.
template <class T, std::size_t B = 1,
          consistency C = (std::is_void_v<T> ? consistency::relaxed : UPCEMU_DEFAULT_CONSISTENCY)>
class sptr;
template <class T, std::size_t B = 1, consistency C = UPCEMU_DEFAULT_CONSISTENCY>
class shared_ref;

// A reference to one shared element: reads and writes go to the owning partition.
template <class T, std::size_t B, consistency C>
class shared_ref {
  using value_type = std::remove_const_t<T>;
  static_assert(B != star, "upc::star ([*]) is a layout of arrays; their elements have upc::dynamic_block");

 public:
  explicit shared_ref(shared_address a) noexcept requires(B != dynamic_block) : a_(a) {}
  shared_ref(shared_address a, std::size_t block) noexcept requires(B == dynamic_block) : a_(a), blk_{block} {}

  value_type get() const {
    detail::check_access("shared read", a_, sizeof(T), C == consistency::strict ? detail::access_read | detail::access_strict : detail::access_read);
    return detail::load<value_type, C>(reinterpret_cast<const value_type*>(detail::raw_address(a_)));
  }
  operator value_type() const { return get(); }
  void put(const value_type& v) const {
    static_assert(!std::is_const_v<T>, "assignment through a pointer to const shared data");
    detail::check_access("shared write", a_, sizeof(T), C == consistency::strict ? detail::access_write | detail::access_strict : detail::access_write);
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

  // A field of a shared struct, in place: a[i].field(&S::x) = 1 is UPC's
  // a[i].x = 1. The field stays on the element's thread (indefinite block size).
  template <class M, class S>
    requires std::is_base_of_v<S, value_type>
  shared_ref<detail::field_t<T, M>, indefinite, C> field(M S::*m) const noexcept {
    return shared_ref<detail::field_t<T, M>, indefinite, C>(
        detail::field_address(a_, detail::member_offset<value_type>(m)));
  }

  // &x[i] is a pointer-to-shared, as in UPC.
  sptr<T, B, C> operator&() const noexcept {
    if constexpr (B == dynamic_block) return sptr<T, B, C>(a_, blk_.get());
    else return sptr<T, B, C>(a_);
  }
  const shared_address& address() const noexcept { return a_; }
  constexpr std::size_t block() const noexcept { return blk_.get(); }

 private:
  shared_address a_;
  [[no_unique_address]] detail::block_field<B> blk_;
};

// A shared array field of a shared struct (a[i].field(&S::v) for `int v[4]`): its
// elements are contiguous on the element's thread, so [k] and the decay to a
// pointer have indefinite block size, as for any field.
template <class U, std::size_t N, std::size_t B, consistency C>
class shared_ref<U[N], B, C> {
 public:
  explicit shared_ref(shared_address a) noexcept requires(B != dynamic_block) : a_(a) {}
  shared_ref(shared_address a, std::size_t) noexcept requires(B == dynamic_block) : a_(a) {}

  shared_ref<U, indefinite, C> operator[](std::size_t k) const {
    if (check_enabled()) [[unlikely]] {
      if (k >= N) detail::fail_index("shared struct array field []", k, N);
    }
    return shared_ref<U, indefinite, C>(detail::field_address(a_, k * sizeof(U)));
  }
  sptr<U, indefinite, C> data() const noexcept { return sptr<U, indefinite, C>(a_); }
  operator sptr<U, indefinite, C>() const noexcept { return data(); }
  sptr<U[N], indefinite, C> operator&() const noexcept { return sptr<U[N], indefinite, C>(a_); }  // &s.v
  static constexpr std::size_t size() noexcept { return N; }
  const shared_address& address() const noexcept { return a_; }
  static constexpr std::size_t block() noexcept { return indefinite; }

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

// Typed pointer-to-shared: T with block size B (0 = indefinite, upc::dynamic_block
// = stored in the pointer).
template <class T, std::size_t B, consistency C>
class sptr {
  static_assert(B != star,
                "upc::star ([*]) is a layout of arrays only (UPC forbids it on pointers); a pointer into a [*] array "
                "is upc::sptr<T, upc::dynamic_block>");
  static_assert(B == dynamic_block || B <= UPC_MAX_BLOCK_SIZE, "block size exceeds UPC_MAX_BLOCK_SIZE (2^32)");
  template <class, std::size_t, consistency>
  friend class sptr;

  // U is T, or T without const (adding const is allowed, dropping it is not).
  template <class U>
  static constexpr bool same_or_less_const =
      std::is_same_v<std::remove_const_t<U>, std::remove_const_t<T>> && (std::is_const_v<T> || !std::is_const_v<U>);

 public:
  using element_type = T;
  static constexpr std::size_t block_size = B;  // upc::dynamic_block: see block()
  static constexpr std::size_t elem_size = sizeof(T);

  sptr() noexcept = default;
  sptr(std::nullptr_t) noexcept {}
  explicit sptr(shared_address a) noexcept requires(B != dynamic_block) : a_(a) {}
  sptr(shared_address a, std::size_t block) requires(B == dynamic_block) : a_(a) {
    detail::check_block_size("upc::sptr<T, upc::dynamic_block>", block);
    blk_.value = block;
  }

  // shared T * from shared void *, implicit as in C (`shared int *p =
  // upc_all_alloc(...)`); only dropping const needs a cast. The phase is kept
  // when it fits this block size.
  template <class V, std::size_t B2, consistency C2>
    requires(std::is_void_v<V> && B != dynamic_block)
  explicit(std::is_const_v<V> && !std::is_const_v<T>) sptr(const sptr<V, B2, C2>& v) noexcept : a_(v.address()) {
    if (B <= 1 || a_.phase >= B) a_.phase = 0;
  }
  // shared void * carries no block size: give it (UPC has no such pointer type).
  template <class V, std::size_t B2, consistency C2>
    requires(std::is_void_v<V> && B == dynamic_block)
  sptr(const sptr<V, B2, C2>&) {
    static_assert(detail::always_false<V>,
                  "a shared void * carries no block size: write upc::sptr<T, upc::dynamic_block>(v, block)");
  }
  template <class V, std::size_t B2, consistency C2>
    requires(std::is_void_v<V> && B == dynamic_block)
  sptr(const sptr<V, B2, C2>& v, std::size_t block) : sptr(v.address(), block) {
    if (block <= 1 || a_.phase >= block) a_.phase = 0;
  }

  // Same element type (adding const), other consistency; a static block size to
  // upc::dynamic_block (lossless: the pointer keeps B).
  template <class U, std::size_t B2, consistency C2>
    requires(same_or_less_const<U> && (B2 == B || (B == dynamic_block && B2 != dynamic_block)))
  sptr(const sptr<U, B2, C2>& p) noexcept : a_(p.address()) {
    if constexpr (B == dynamic_block) blk_.value = p.block();
  }
  // upc::dynamic_block to a static block size is a cast (as between block sizes in
  // UPC): the phase is kept when the stored block size is B, else it becomes 0.
  template <class U, consistency C2>
    requires(same_or_less_const<U> && B != dynamic_block)
  explicit sptr(const sptr<U, dynamic_block, C2>& p) noexcept : a_(p.address()) {
    if (p.block() != B || B <= 1) a_.phase = 0;
  }

  // Reinterpretation as another element type or block size: the phase is reset
  // to zero when the block size or the element size differs, and kept otherwise
  // or for shared void (UPC 1.3 §6.4.3). cast<U, upc::dynamic_block>() keeps this
  // pointer's block size; cast<U>(block) chooses one.
  template <class U, std::size_t B2 = B, consistency C2 = C>
  sptr<U, B2, C2> cast() const noexcept {
    shared_address a = a_;
    if constexpr (std::is_void_v<U>) {
      return sptr<U, B2, C2>(a);
    } else {
      const std::size_t to = B2 == dynamic_block ? block() : B2;
      if (to != block() || sizeof(U) != sizeof(T)) a.phase = 0;
      if constexpr (B2 == dynamic_block) {
        sptr<U, B2, C2> r;
        r.a_ = a;
        r.blk_.value = to;
        return r;
      } else {
        return sptr<U, B2, C2>(a);
      }
    }
  }
  template <class U, consistency C2 = C>
    requires(!std::is_void_v<U>)
  sptr<U, dynamic_block, C2> cast(std::size_t block) const {
    shared_address a = a_;
    if (block != this->block() || sizeof(U) != sizeof(T)) a.phase = 0;
    return sptr<U, dynamic_block, C2>(a, block);
  }

  const shared_address& address() const noexcept { return a_; }
  int thread() const noexcept { return static_cast<int>(a_.thread); }
  std::size_t phase() const noexcept { return a_.phase; }
  std::uint64_t addrfield() const noexcept { return a_.offset; }
  // The block size in elements (B, or the stored one for upc::dynamic_block).
  constexpr std::size_t block() const noexcept { return blk_.get(); }
  bool is_null() const noexcept { return a_ == shared_address{}; }
  explicit operator bool() const noexcept { return !is_null(); }

  shared_ref<T, B, C> operator*() const {
    if (is_null()) [[unlikely]] detail::fail_null("dereference of a pointer-to-shared");
    if constexpr (B == dynamic_block) return shared_ref<T, B, C>(a_, blk_.get());
    else return shared_ref<T, B, C>(a_);
  }
  shared_ref<T, B, C> operator[](std::ptrdiff_t i) const { return *(*this + i); }

  // A field of the struct pointed to: p.field(&S::x) is UPC's &p->x, a pointer
  // with indefinite block size on the element's thread (shared [] M *); p->*&S::x
  // is p->x.
  template <class M, class S>
    requires std::is_base_of_v<S, std::remove_const_t<T>>
  sptr<detail::field_t<T, M>, indefinite, C> field(M S::*m) const {
    if (is_null()) [[unlikely]] detail::fail_null("member access through a pointer-to-shared");
    return sptr<detail::field_t<T, M>, indefinite, C>(
        detail::field_address(a_, detail::member_offset<std::remove_const_t<T>>(m)));
  }
  template <class M, class S>
    requires std::is_base_of_v<S, std::remove_const_t<T>>
  shared_ref<detail::field_t<T, M>, indefinite, C> operator->*(M S::*m) const {
    return shared_ref<detail::field_t<T, M>, indefinite, C>(field(m).address());
  }

  sptr operator+(std::ptrdiff_t i) const noexcept {
    sptr p = *this;
    p.a_ = layout::advance(a_, i, sizeof(T), block(), threads());
    return p;
  }
  sptr operator-(std::ptrdiff_t i) const noexcept { return *this + (-i); }
  friend sptr operator+(std::ptrdiff_t i, const sptr& p) noexcept { return p + i; }
  std::ptrdiff_t operator-(const sptr& q) const noexcept {
    return layout::distance(a_, q.a_, sizeof(T), block(), threads());
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
  // Against shared void * (both convert to the other; this one is exact).
  template <class V, std::size_t B2, consistency C2>
    requires std::is_void_v<V>
  friend bool operator==(const sptr& a, const sptr<V, B2, C2>& b) noexcept {
    return a.a_.thread == b.address().thread && a.a_.offset == b.address().offset;
  }
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
  [[no_unique_address]] detail::block_field<B> blk_{};
};

using shared_void_ptr = sptr<void>;

}  // namespace upc
