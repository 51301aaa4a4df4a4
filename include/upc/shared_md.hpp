// Multi-dimensional shared arrays, and shared arrays whose block size is fixed
// when they are allocated: UPC's [*] and block sizes computed at run time.
//
//   UPC                                  upcemu
//   shared [B] T m[R][C];                upc::shared_array2d<T, B> m(R, C);
//   shared [B] T t[X][Y][Z];             upc::shared_md<T, 3, B> t(X, Y, Z);
//   shared [N] int a[THREADS][N];        upc::shared_array2d<int, N> a(upc::per_thread(1), N);
//   m[i][j]   m[i][j] = v   &m[i][j]     the same, or m(i, j)
//   m[i]  (decays to shared [B] T *)     m[i] (converts to upc::sptr<T, B>), m[i].data()
//   shared [*] int z[N];                 upc::shared_array<int, upc::star> z(N);
//   shared [*] int w[R][C];              upc::shared_array2d<int, upc::star> w(R, C);
//   (block b chosen at run time)         upc::shared_array<int, upc::dynamic_block> d(N, upc::block(b));
//                                        upc::shared_array<int, upc::dynamic_block> e(N, upc::block([] { return 4 * THREADS; }));
//
// Layout (UPC 1.3 §6.5.1.1): the elements are numbered in row-major order (the
// last index varies fastest) and that flat index is blocked exactly as for a
// one-dimensional array; m[i] is the flat element i*C, with its phase. [*] gives
// the block size ceil(N / THREADS), where N counts the elements of all
// dimensions ((sizeof(a) / upc_elemsizeof(a) + THREADS - 1) / THREADS).
//
// Extents (one to four) are numbers, upc::per_thread(n) (n*THREADS), or
// functions evaluated when the run starts; a run-time block size is
// upc::block(number or function).
// Under --check every index is checked against its own dimension.
#pragma once
#include <array>
#include <cstddef>
#include <functional>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "upc/alloc.hpp"
#include "upc/block_size.hpp"
#include "upc/shared_array.hpp"
#include "upc/sptr.hpp"
#include "upc/sync.hpp"

namespace upc {

// The block size of a upc::dynamic_block array: a number, or a function evaluated
// when the array is allocated (THREADS is known then).
class block {
 public:
  // Called as a function: the block size of a upc::dynamic_block array.
  explicit block(std::size_t elements) : f_([elements] { return elements; }) {}
  template <class F>
    requires std::is_invocable_r_v<std::size_t, F&>
  explicit block(F f) : f_(std::move(f)) {}
  std::size_t operator()() const { return f_(); }
  operator std::function<std::size_t()>() const { return f_; }

 private:
  std::function<std::size_t()> f_;
};

namespace detail {

// One dimension of a shared array: a number, upc::per_thread(n), or a function.
class extent_spec {
 public:
  extent_spec(std::size_t n) : f_([n] { return n; }) {}
  extent_spec(per_thread n)
      : f_([n] {
          std::size_t r;
          if (__builtin_mul_overflow(n.n, static_cast<std::size_t>(threads()), &r))
            fail("shared_array", "the extent upc::per_thread(" + std::to_string(n.n) + ") * THREADS (" +
                                     std::to_string(threads()) + ") overflows");
          return r;
        }) {}
  template <class F>
    requires std::is_invocable_r_v<std::size_t, F&>
  extent_spec(F f) : f_(std::move(f)) {}
  std::size_t operator()() const { return f_(); }

 private:
  std::function<std::size_t()> f_;
};

template <std::size_t Rank>
std::string shape_text(const std::array<std::size_t, Rank>& extents) {
  std::string s;
  for (std::size_t e : extents) {
    s += '[';
    s += std::to_string(e);
    s += ']';
  }
  return s;
}

template <std::size_t Rank>
[[noreturn, gnu::cold, gnu::noinline]] void fail_dimension_index(const char* function, std::size_t index, std::size_t dim,
                                                                 const std::array<std::size_t, Rank>& extents) {
  if (Rank == 1) fail_index(function, index, extents[0]);
  fail(function, "index " + std::to_string(index) + " is out of bounds for dimension " + std::to_string(dim) +
                     " of the shared array " + shape_text(extents) + " (that dimension has " +
                     std::to_string(extents[dim]) + " elements; dimensions count from 0)");
}

// Under --check, a run-time layout declared inside the program must be the same
// on every thread (the allocation itself compares only byte counts). Collective;
// synchronises on the runtime's own barrier, never on upc_barrier.
void check_single_valued_layout(std::size_t elements, std::size_t block_elems);

}  // namespace detail

template <class T, std::size_t Rank, std::size_t B = 1, consistency C = UPCEMU_DEFAULT_CONSISTENCY>
class shared_md;
template <class A, std::size_t D>
class shared_md_view;

template <class T, std::size_t B = 1, consistency C = UPCEMU_DEFAULT_CONSISTENCY>
using shared_array2d = shared_md<T, 2, B, C>;
template <class T, std::size_t B = 1, consistency C = UPCEMU_DEFAULT_CONSISTENCY>
using shared_array3d = shared_md<T, 3, B, C>;

// shared [B] T a[E0][E1]...[E(Rank-1)].
template <class T, std::size_t Rank, std::size_t B, consistency C>
class shared_md {
  static_assert(Rank >= 1, "a shared array has at least one dimension");
  static_assert(is_runtime_block(B) || B <= UPC_MAX_BLOCK_SIZE, "block size exceeds UPC_MAX_BLOCK_SIZE (2^32)");
  static constexpr bool runtime_block = is_runtime_block(B);
  static constexpr std::size_t pointer_block = runtime_block ? dynamic_block : B;
  template <class, std::size_t>
  friend class shared_md_view;

 public:
  using element_type = T;
  using pointer = sptr<T, pointer_block, C>;
  using reference = shared_ref<T, pointer_block, C>;
  static constexpr std::size_t rank = Rank;
  static constexpr std::size_t block_size = B;  // upc::star / upc::dynamic_block: see block_size_elems()

  // Rank extents (up to four), then (upc::dynamic_block only) the block size.
  // The extents are converted where the array is declared, so `where` (left to
  // its default) is the declaration, which reports name.
  using extent_arg = detail::extent_spec;
  using src = std::source_location;
  explicit shared_md(extent_arg e0, const src& where = src::current())
    requires(Rank == 1 && B != dynamic_block)
      : shared_md(built{}, std::array<extent_arg, Rank>{std::move(e0)}, {}, where) {}
  shared_md(extent_arg e0, extent_arg e1, const src& where = src::current())
    requires(Rank == 2 && B != dynamic_block)
      : shared_md(built{}, std::array<extent_arg, Rank>{std::move(e0), std::move(e1)}, {}, where) {}
  shared_md(extent_arg e0, extent_arg e1, extent_arg e2, const src& where = src::current())
    requires(Rank == 3 && B != dynamic_block)
      : shared_md(built{}, std::array<extent_arg, Rank>{std::move(e0), std::move(e1), std::move(e2)}, {}, where) {}
  shared_md(extent_arg e0, extent_arg e1, extent_arg e2, extent_arg e3, const src& where = src::current())
    requires(Rank == 4 && B != dynamic_block)
      : shared_md(built{}, std::array<extent_arg, Rank>{std::move(e0), std::move(e1), std::move(e2), std::move(e3)}, {}, where) {}
  // A plain number where the block size goes would read as an extent: refused.
  template <class X>
    requires(B == dynamic_block && (Rank == 1 || Rank == 2) && !std::is_same_v<std::remove_cvref_t<X>, upc::block>)
  shared_md(extent_arg, const X&, const src& = src::current()) {
    static_assert(sizeof(X) == 0, "the last argument of a upc::dynamic_block array is its block size: upc::block(b)");
  }
  shared_md(extent_arg e0, upc::block b, const src& where = src::current())
    requires(Rank == 1 && B == dynamic_block)
      : shared_md(built{}, std::array<extent_arg, Rank>{std::move(e0)}, std::move(b), where) {}
  shared_md(extent_arg e0, extent_arg e1, upc::block b, const src& where = src::current())
    requires(Rank == 2 && B == dynamic_block)
      : shared_md(built{}, std::array<extent_arg, Rank>{std::move(e0), std::move(e1)}, std::move(b), where) {}
  shared_md(extent_arg e0, extent_arg e1, extent_arg e2, upc::block b, const src& where = src::current())
    requires(Rank == 3 && B == dynamic_block)
      : shared_md(built{}, std::array<extent_arg, Rank>{std::move(e0), std::move(e1), std::move(e2)}, std::move(b), where) {}
  shared_md(extent_arg e0, extent_arg e1, extent_arg e2, extent_arg e3, upc::block b, const src& where = src::current())
    requires(Rank == 4 && B == dynamic_block)
      : shared_md(built{}, std::array<extent_arg, Rank>{std::move(e0), std::move(e1), std::move(e2), std::move(e3)}, std::move(b), where) {}

  std::size_t size() const noexcept { return size_; }  // elements in all dimensions
  std::size_t extent(std::size_t dim) const noexcept { return extents_[dim]; }
  const std::array<std::size_t, Rank>& extents() const noexcept { return extents_; }

  // a[i]: the sub-array (a row for two dimensions), or the element for one.
  decltype(auto) operator[](std::size_t i) const {
    check_index("shared_array[]", 0, i);
    if constexpr (Rank == 1) return flat_ref(i);
    else return shared_md_view<shared_md, 1>(this, i * strides_[0]);
  }
  // a(i, j, ...): the element.
  template <class... I>
    requires(sizeof...(I) == Rank && (std::is_integral_v<I> && ...))
  reference operator()(I... index) const {
    std::size_t flat = 0, dim = 0;
    ((check_index("shared_array()", dim, static_cast<std::size_t>(index)),
      flat += static_cast<std::size_t>(index) * strides_[dim], ++dim),
     ...);
    return flat_ref(flat);
  }

  // &a[0][0]...; the array also converts to shared (const) void * and to its
  // element pointer, as a UPC array expression decays.
  pointer data() const noexcept { return flat_ptr(0); }
  template <class U, std::size_t B2, consistency C2>
    requires(std::is_void_v<std::remove_const_t<U>> ||
             (std::is_same_v<std::remove_const_t<U>, T> && B2 == pointer_block))
  operator sptr<U, B2, C2>() const noexcept {
    return sptr<U, B2, C2>(data());
  }

  // Sizeof-family queries (upc_localsizeof, upc_blocksizeof, upc_elemsizeof).
  std::size_t local_size_bytes() const noexcept { return layout::local_bytes(size_, sizeof(T), block_value(), threads()); }
  std::size_t block_size_elems() const noexcept { return block_value(); }
  static constexpr std::size_t elem_size_bytes() noexcept { return sizeof(T); }
  std::size_t size_bytes() const noexcept { return size_ * sizeof(T); }

 private:
  struct built {};  // the constructor the public ones delegate to
  shared_md(built, std::array<extent_arg, Rank> extents, std::function<std::size_t()> block_fn, const src& where)
      : extent_fns_(std::move(extents)),
        block_fn_(std::move(block_fn)),
        storage_([this] { return plan(); }, detail::declared_array_type<T, runtime_block ? 1 : B>, where) {}

  constexpr std::size_t block_value() const noexcept {
    if constexpr (runtime_block) return block_;
    else return B;
  }

  void check_index(const char* function, std::size_t dim, std::size_t index) const {
    if (check_enabled()) [[unlikely]] {
      if (index >= extents_[dim]) detail::fail_dimension_index<Rank>(function, index, dim, extents_);
    }
  }
  reference flat_ref(std::size_t k) const noexcept {
    const shared_address a = layout::element(storage_.base(), k, sizeof(T), block_value(), threads());
    if constexpr (runtime_block) return reference(a, block_);
    else return reference(a);
  }
  pointer flat_ptr(std::size_t k) const noexcept {
    const shared_address a = layout::element(storage_.base(), k, sizeof(T), block_value(), threads());
    if constexpr (runtime_block) return pointer(a, block_);
    else return pointer(a);
  }
  std::size_t stride(std::size_t dim) const noexcept { return strides_[dim]; }

  // Evaluates the extents (and the block size) when the storage is allocated, and
  // returns the element count the storage is asked for.
  std::size_t plan() {
    std::size_t n = 1;
    bool overflow = false;
    for (std::size_t d = 0; d < Rank; ++d) {
      extents_[d] = extent_fns_[d]();
      overflow |= __builtin_mul_overflow(n, extents_[d], &n);
    }
    if (overflow || n > static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max()) / sizeof(T))
      detail::fail("shared_array", "the shared array " + detail::shape_text(extents_) + " of " +
                                       std::to_string(sizeof(T)) + "-byte elements is too large (" +
                                       (overflow ? std::string("the element count overflows") : "more than PTRDIFF_MAX bytes") +
                                       "; a negative size converted to size_t?)");
    for (std::size_t d = Rank, s = 1; d-- > 0;) {
      strides_[d] = s;
      s *= extents_[d];
    }
    size_ = n;
    if constexpr (!runtime_block) {
      return n;
    } else {
      const std::size_t T_ = static_cast<std::size_t>(threads());
      if constexpr (B == star) block_ = n / T_ + (n % T_ != 0);
      else block_ = block_fn_();
      detail::check_block_size("shared_array", block_);
      if (check_enabled() && detail::tl_mythread >= 0) detail::check_single_valued_layout(n, block_);
      // The storage is blocked by 1: ask for THREADS times the elements of the
      // largest local part, which is the same number of bytes per thread.
      const std::size_t per_thread_elems = layout::local_bytes(n, 1, block_, threads());
      std::size_t count, bytes;
      if (__builtin_mul_overflow(per_thread_elems, T_, &count) ||
          __builtin_mul_overflow(per_thread_elems, sizeof(T), &bytes))
        detail::fail("shared_array", "the shared array " + detail::shape_text(extents_) + " with block size " +
                                         std::to_string(block_) + " is too large for THREADS " + std::to_string(T_));
      return count;
    }
  }

  std::array<detail::extent_spec, Rank> extent_fns_;
  std::function<std::size_t()> block_fn_;
  std::array<std::size_t, Rank> extents_{};
  std::array<std::size_t, Rank> strides_{};
  std::size_t size_ = 0;
  std::size_t block_ = runtime_block ? 1 : B;
  detail::shared_storage storage_;  // last: its constructor may allocate at once (plan() runs then)
};

// a[i][j]... with dimensions D.. left: indexes on, and decays to a pointer to its
// first element, as an array expression does in UPC.
template <class A, std::size_t D>
class shared_md_view {
 public:
  shared_md_view(const A* array, std::size_t first) noexcept : a_(array), first_(first) {}

  decltype(auto) operator[](std::size_t i) const {
    a_->check_index("shared_array[]", D, i);
    if constexpr (D + 1 == A::rank) return a_->flat_ref(first_ + i);
    else return shared_md_view<A, D + 1>(a_, first_ + i * a_->stride(D));
  }
  typename A::pointer data() const noexcept { return a_->flat_ptr(first_); }
  operator typename A::pointer() const noexcept { return data(); }
  template <class U, std::size_t B2, consistency C2>
    requires std::is_void_v<std::remove_const_t<U>>
  operator sptr<U, B2, C2>() const noexcept {
    return sptr<U, B2, C2>(data());
  }
  // Privatisation of a row (sub-array) whose first element the caller owns:
  // static_cast<T*>(m[MYTHREAD]) for shared [N] T m[THREADS][N].
  typename A::element_type* local() const { return data().local(); }
  explicit operator typename A::element_type*() const { return local(); }
  std::size_t size() const noexcept { return a_->extent(D); }  // elements of this dimension
  shared_address address() const noexcept { return data().address(); }

 private:
  const A* a_;
  std::size_t first_;
};

// shared [*] T a[N] and shared_array<T, upc::dynamic_block>: a one-dimensional
// shared_md, with the shared_array spelling.
template <class T, std::size_t B, consistency C>
  requires(is_runtime_block(B))
class shared_array<T, B, C> : public shared_md<T, 1, B, C> {
 public:
  using shared_md<T, 1, B, C>::shared_md;
};

}  // namespace upc
