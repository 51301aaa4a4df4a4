// Work sharing (UPC 1.3 §6.6.2).
//
//   UPC:     upc_forall (i = 0; i < N; i++; &x[i]) body
//   upcemu:  upc_forall (int i = 0; i < N; i++, &x[i]) body      (last ';' becomes ',')
//   C++:     for (std::size_t i : upc::my_indices(x)) body      (indices with local affinity)
//            for (auto [i, j] : upc::my_indices(m)) body        (the same for multi-dimensional m)
//            for (long i : upc::forall_range(0, N)) body        (integer affinity i % THREADS)
//
// Affinity may be an integer (iteration runs on thread aff mod THREADS), a
// pointer-to-shared or shared element (runs on its owner), or UPC_CONTINUE (every
// thread runs it). Nested upc_foralls (lexically or through calls): the outermost
// one whose affinity is not UPC_CONTINUE controls, and every upc_forall inside its
// body runs all its iterations, as if its affinity were UPC_CONTINUE (UPC 1.3 §6.6.2).
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <type_traits>

#include "upc/shared_array.hpp"
#include "upc/sptr.hpp"

namespace upc {

struct all_iterations_t {};
constexpr all_iterations_t all_iterations{};

namespace detail {
// Number of controlling upc_foralls (affinity other than UPC_CONTINUE) whose body
// the calling thread is in.
extern thread_local int tl_forall_depth;

// Integer affinity: the iteration runs on thread (affinity mod THREADS), the
// mathematical (non-negative) residue, computed in the affinity's own type's
// signedness so that huge unsigned values are not misread as negative.
template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
inline bool owns(I affinity) noexcept {
  if constexpr (std::is_unsigned_v<I>) {
    return static_cast<unsigned long long>(affinity) % static_cast<unsigned long long>(threads()) ==
           static_cast<unsigned long long>(mythread());
  } else {
    const long long T = threads();
    long long r = static_cast<long long>(affinity) % T;
    if (r < 0) r += T;
    return r == mythread();
  }
}
// Pointer-to-shared affinity (shared void * included): runs on upc_threadof(p).
template <class T, std::size_t B, consistency C>
inline bool owns(const sptr<T, B, C>& p) noexcept { return static_cast<int>(p.address().thread) == mythread(); }
template <class T, std::size_t B, consistency C>
inline bool owns(const shared_ref<T, B, C>& r) noexcept { return static_cast<int>(r.address().thread) == mythread(); }
// A row (sub-array) of a multi-dimensional array: it decays to a pointer to its
// first element, whose owner runs the iteration.
template <class A, std::size_t D>
inline bool owns(const shared_md_view<A, D>& v) noexcept { return static_cast<int>(v.address().thread) == mythread(); }

// Under --report=locality (lib/runtime/locality.hpp): a upc_forall whose
// affinity is UPC_CONTINUE began, outside any controlling one, at the caller.
void note_forall_every_thread_here();

class forall_scope {
 public:
  forall_scope() noexcept : controlled_(tl_forall_depth > 0) {}
  ~forall_scope() {
    if (controlling_) --tl_forall_depth;
  }
  forall_scope(const forall_scope&) = delete;
  forall_scope& operator=(const forall_scope&) = delete;
  template <class A>
  bool runs(const A& affinity) noexcept {
    if constexpr (std::is_same_v<A, all_iterations_t>) {
      if (g_locality && !controlled_ && !noted_) [[unlikely]] {
        noted_ = true;
        note_forall_every_thread_here();
      }
      return true;
    } else {
      if (controlled_) return true;  // inside a controlling upc_forall: every iteration
      if (!controlling_) {           // this one controls the upc_foralls in its body
        controlling_ = true;
        ++tl_forall_depth;
      }
      return owns(affinity);
    }
  }
  bool once = false;

 private:
  bool controlled_;
  bool controlling_ = false;
  bool noted_ = false;  // for the locality report, once per execution of the loop
};
}  // namespace detail

// Integer range [begin, end) filtered to the iterations this thread owns (i mod THREADS).
class forall_range {
 public:
  class iterator {
   public:
    iterator(long i, long step) : i_(i), step_(step) {}
    long operator*() const noexcept { return i_; }
    iterator& operator++() noexcept { i_ += step_; return *this; }
    bool operator!=(const iterator& o) const noexcept { return i_ < o.i_; }
   private:
    long i_, step_;
  };
  forall_range(long begin, long end) : begin_(begin), end_(end) {
    const long T = threads(), me = mythread();
    long r = begin % T;
    if (r < 0) r += T;
    first_ = begin + ((me - r) % T + T) % T;
    step_ = T;
  }
  iterator begin() const { return {first_ < end_ ? first_ : end_, step_}; }
  iterator end() const { return {end_, step_}; }
 private:
  long begin_, end_, first_, step_;
};

namespace detail {
// The flat indices 0..n-1 of a blocked layout that the calling thread owns: runs
// of `block` indices, `block * (THREADS - 1)` apart.
struct owned_runs {
  std::size_t n, bsize, skip, first;
  owned_runs(std::size_t count, std::size_t block) : n(count) {
    const std::size_t Tn = static_cast<std::size_t>(threads()), me = static_cast<std::size_t>(mythread());
    if (block == 0) {
      bsize = n ? n : 1; skip = 0; first = me == 0 ? 0 : n;
    } else {
      bsize = block; skip = block * (Tn - 1); first = std::min(n, me * block);
    }
  }
};
}  // namespace detail

// Indices of a shared array whose elements have affinity to the calling thread,
// in increasing order, without touching the others.
template <class T, std::size_t B, consistency C>
class my_indices_range {
 public:
  class iterator {
   public:
    iterator(std::size_t i, std::size_t in_block, std::size_t bsize, std::size_t skip, std::size_t n)
        : i_(i), in_block_(in_block), bsize_(bsize), skip_(skip), n_(n) {}
    std::size_t operator*() const noexcept { return i_; }
    iterator& operator++() noexcept {
      ++i_;
      if (++in_block_ == bsize_) { in_block_ = 0; i_ += skip_; }
      if (i_ > n_) i_ = n_;
      return *this;
    }
    bool operator!=(const iterator& o) const noexcept { return i_ < o.i_; }
   private:
    std::size_t i_, in_block_, bsize_, skip_, n_;
  };
  explicit my_indices_range(const shared_array<T, B, C>& a) : n_(a.size()) {
    const detail::owned_runs r(n_, a.block_size_elems());
    bsize_ = r.bsize; skip_ = r.skip; first_ = r.first;
  }
  iterator begin() const { return {first_, 0, bsize_, skip_, n_}; }
  iterator end() const { return {n_, 0, bsize_, skip_, n_}; }
 private:
  std::size_t n_, bsize_ = 1, skip_ = 0, first_ = 0;
};

template <class T, std::size_t B, consistency C>
my_indices_range<T, B, C> my_indices(const shared_array<T, B, C>& a) { return my_indices_range<T, B, C>(a); }

// The same for a multi-dimensional array: the index tuples {i, j, ...} of the
// elements the calling thread owns, in row-major order
// (`for (auto [i, j] : upc::my_indices(m)) m(i, j) = ...`). Within a block the
// tuple is stepped like an odometer; only a jump to the next block divides.
template <std::size_t Rank>
class md_indices_range {
 public:
  using index = std::array<std::size_t, Rank>;
  class iterator {
   public:
    iterator(std::size_t flat, const detail::owned_runs& r, const index& extents)
        : flat_(flat), r_(r), extents_(extents) { locate(); }
    const index& operator*() const noexcept { return idx_; }
    iterator& operator++() noexcept {
      ++flat_;
      if (++in_block_ == r_.bsize) {
        in_block_ = 0;
        flat_ += r_.skip;
        if (flat_ > r_.n) flat_ = r_.n;
        locate();
      } else {
        for (std::size_t d = Rank; d-- > 0;) {
          if (++idx_[d] < extents_[d] || d == 0) break;
          idx_[d] = 0;
        }
      }
      return *this;
    }
    bool operator!=(const iterator& o) const noexcept { return flat_ < o.flat_; }

   private:
    void locate() noexcept {
      std::size_t rest = flat_;
      for (std::size_t d = Rank; d-- > 0;) {
        const std::size_t e = extents_[d] ? extents_[d] : 1;
        idx_[d] = d == 0 ? rest : rest % e;
        rest /= e;
      }
    }
    std::size_t flat_, in_block_ = 0;
    detail::owned_runs r_;
    index extents_;
    index idx_{};
  };
  md_indices_range(std::size_t n, std::size_t block, const index& extents) : r_(n, block), extents_(extents) {}
  iterator begin() const { return {r_.first, r_, extents_}; }
  iterator end() const { return {r_.n, r_, extents_}; }

 private:
  detail::owned_runs r_;
  index extents_;
};

template <class T, std::size_t Rank, std::size_t B, consistency C>
md_indices_range<Rank> my_indices(const shared_md<T, Rank, B, C>& a) {
  return md_indices_range<Rank>(a.size(), a.block_size_elems(), a.extents());
}

}  // namespace upc

#define UPC_CONTINUE ::upc::all_iterations
#define upc_forall(loop, affinity)                                                               \
  for (::upc::detail::forall_scope upc_forall_scope_; !upc_forall_scope_.once; upc_forall_scope_.once = true) \
    for (loop)                                                                                   \
      if (!upc_forall_scope_.runs(affinity)) {                                                    \
      } else
