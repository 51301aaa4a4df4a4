// Shared arrays and shared scalars.
//
//   UPC                                   upcemu
//   shared int x[100*THREADS];            upc::shared_array<int> x(upc::per_thread(100));
//   shared [4] double y[N];               upc::shared_array<double, 4> y(N);
//   shared [] char buf[64];               upc::shared_array<char, upc::indefinite> buf(64);
//   shared int counter;                   upc::shared<int> counter;
//   strict shared int flag;               upc::strict_shared<int> flag;
//   shared [*] int z[N];                  upc::shared_array<int, upc::star> z(N);
//   shared [B] double m[R][C];            upc::shared_array2d<double, B> m(R, C);   (upc/shared_md.hpp)
//
// Declared at namespace scope, they are allocated (zero-filled) before the program
// body runs, at the same offset in every partition. A block-scope `static` one is
// allocated once per run by the first thread that reaches it, without a barrier.
// Declared inside the body otherwise, every thread must declare them in the same
// order (a collective allocation, like upc_all_alloc), and they are freed
// collectively when they go out of scope. Every constructor records where it was
// called from (the declaration) for error reports; leave `where` to its default.
#pragma once
#include <cstddef>
#include <functional>
#include <source_location>
#include <type_traits>
#include <string>

#include "upc/detail/static_object.hpp"
#include "upc/sptr.hpp"

namespace upc {

// A size that is a multiple of THREADS: per_thread(100) is 100*THREADS elements.
struct per_thread {
  std::size_t n;
  explicit per_thread(std::size_t count) : n(count) {}
};

namespace detail {
[[noreturn]] void fail_index(const char* function, std::size_t index, std::size_t size);
// n * THREADS for upc::per_thread(n); a product that overflows is an error.
std::size_t per_thread_count(std::size_t n);

// The allocation shared by shared_array and shared<T>. Where the object lives
// decides how it is allocated: at namespace scope (constructed before the run) by
// the launcher, in every run; a block-scope static (in static storage, constructed
// by whichever thread gets there first) once per run, without a barrier; anything
// else constructed by a UPC thread collectively, freed at the end of its scope.
class shared_storage : public static_object {
 public:
  shared_storage(std::function<std::size_t()> count, const declared_type& type, const std::source_location& where,
                 const void* initial_element = nullptr);
  ~shared_storage();
  shared_storage(const shared_storage&) = delete;
  shared_storage& operator=(const shared_storage&) = delete;

  void allocate() override;
  void release() noexcept override;
  std::size_t count() const noexcept { return count_; }
  const shared_address& base() const noexcept { return base_; }

 private:
  void allocate_collectively();
  void allocate_block_static();
  std::size_t bytes_per_thread(int threads) const;  // validates the element count
  allocation_label label() const;
  std::string name() const;  // "shared_array<int> (declared at prog.cpp:12)"
  std::function<std::size_t()> count_fn_;
  const declared_type* type_;
  const char* file_;
  std::uint32_t line_;
  std::size_t count_ = 0;
  shared_address base_{};
  bool in_run_scope_ = false;  // allocated collectively: freed collectively at the end of its scope
  bool registered_ = false;    // in the registry: allocated by the launcher in every (later) run
  std::string initial_;        // bytes of element 0 written at allocation (shared scalars)
};
}  // namespace detail

// Written without a consistency, they get their file's default (upc/consistency.hpp).
template <class T, std::size_t B = 1, consistency C = UPCEMU_DEFAULT_CONSISTENCY>
class shared_array;
template <class T, consistency C = UPCEMU_DEFAULT_CONSISTENCY>
class shared;

// Run-time block sizes (upc::star, upc::dynamic_block) are the partial
// specialisation in upc/shared_md.hpp.
template <class T, std::size_t B, consistency C>
class shared_array {
  static_assert(B <= UPC_MAX_BLOCK_SIZE, "block size exceeds UPC_MAX_BLOCK_SIZE (2^32)");

 public:
  using pointer = sptr<T, B, C>;
  using reference = shared_ref<T, B, C>;
  static constexpr std::size_t block_size = B;

  // `where` (left to its default) records the declaration for error reports.
  explicit shared_array(std::size_t n, const std::source_location& where = std::source_location::current())
      : storage_([n] { return n; }, detail::declared_array_type<T, B>, where) {}
  // n.n * THREADS elements.
  explicit shared_array(per_thread n, const std::source_location& where = std::source_location::current())
      : storage_([n] { return detail::per_thread_count(n.n); }, detail::declared_array_type<T, B>, where) {}
  // Any size expression, evaluated when the run starts (THREADS is known then).
  explicit shared_array(std::function<std::size_t()> n, const std::source_location& where = std::source_location::current())
      : storage_(std::move(n), detail::declared_array_type<T, B>, where) {}

  std::size_t size() const noexcept { return storage_.count(); }
  pointer data() const noexcept { return pointer(storage_.base()); }
  // Arrays decay to pointers, as in UPC: to shared T *, shared const T * and
  // shared (const) void *, so upc_memget(buf, x, n) and collectives take x itself.
  template <class U, std::size_t B2, consistency C2,
            class = std::enable_if_t<std::is_void_v<std::remove_const_t<U>> ||
                                     (std::is_same_v<std::remove_const_t<U>, T> && B2 == B)>>
  operator sptr<U, B2, C2>() const noexcept {
    return sptr<U, B2, C2>(storage_.base());
  }

  reference operator[](std::size_t i) const {
    if (check_enabled()) [[unlikely]] {
      if (i >= size()) detail::fail_index("shared_array[]", i, size());
    }
    return reference(layout::element(storage_.base(), i, sizeof(T), B, threads()));
  }

  // Sizeof-family queries (upc_localsizeof, upc_blocksizeof, upc_elemsizeof).
  std::size_t local_size_bytes() const noexcept { return layout::local_bytes(size(), sizeof(T), B, threads()); }
  static constexpr std::size_t block_size_elems() noexcept { return B; }
  static constexpr std::size_t elem_size_bytes() noexcept { return sizeof(T); }
  std::size_t size_bytes() const noexcept { return size() * sizeof(T); }

 private:
  detail::shared_storage storage_;
};

template <class T, std::size_t B = 1>
using strict_shared_array = shared_array<T, B, strict>;
template <class T, std::size_t B = 1>
using relaxed_shared_array = shared_array<T, B, relaxed>;

// A shared scalar: one element with affinity to thread 0.
template <class T, consistency C>
class shared {
 public:
  // `where` (left to its default) records the declaration for error reports.
  shared(const std::source_location& where = std::source_location::current())
      : storage_([] { return std::size_t{1}; }, detail::declared_scalar_type<T>, where) {}
  // shared int x = 5; — the value is written when the storage is allocated.
  explicit shared(const T& initial, const std::source_location& where = std::source_location::current())
      : storage_([] { return std::size_t{1}; }, detail::declared_scalar_type<T>, where, &initial) {}

  shared_ref<T, 1, C> ref() const { return shared_ref<T, 1, C>(storage_.base()); }
  operator T() const { return ref().get(); }
  const shared& operator=(const T& v) const { ref().put(v); return *this; }
  shared& operator=(const shared& other) { ref().put(other.ref().get()); return *this; }
  sptr<T, 1, C> operator&() const noexcept { return sptr<T, 1, C>(storage_.base()); }
  T get() const { return ref().get(); }
  void put(const T& v) const { ref().put(v); }
  template <class U> const shared& operator+=(const U& v) const { ref() += v; return *this; }
  template <class U> const shared& operator-=(const U& v) const { ref() -= v; return *this; }
  template <class U> const shared& operator*=(const U& v) const { ref() *= v; return *this; }
  const shared& operator++() const { ++ref(); return *this; }
  T operator++(int) const { return ref()++; }
  // A field of a shared struct in place: s.field(&S::x) = 1 is UPC's s.x = 1.
  template <class M, class S>
  auto field(M S::*m) const noexcept { return ref().field(m); }

 private:
  detail::shared_storage storage_;
};

template <class T>
using strict_shared = shared<T, strict>;
template <class T>
using relaxed_shared = shared<T, relaxed>;

}  // namespace upc

// Multi-dimensional shared arrays and run-time block sizes.
#include "upc/shared_md.hpp"
