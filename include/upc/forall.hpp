// Work sharing (UPC 1.3 §6.6.2).
//
//   UPC:     upc_forall (i = 0; i < N; i++; &x[i]) body
//   upcemu:  upc_forall (int i = 0; i < N; i++, &x[i]) body      (last ';' becomes ',')
//   C++:     for (std::size_t i : upc::my_indices(x)) body      (indices with local affinity)
//            for (long i : upc::forall_range(0, N)) body        (integer affinity i % THREADS)
//
// Affinity may be an integer (iteration runs on thread aff mod THREADS), a
// pointer-to-shared or shared element (runs on its owner), or UPC_CONTINUE (every
// thread runs it). Nested upc_foralls (lexically or through calls): the outermost
// one whose affinity is not UPC_CONTINUE controls, and every upc_forall inside its
// body runs all its iterations, as if its affinity were UPC_CONTINUE (UPC 1.3 §6.6.2).
#pragma once
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
    const std::size_t Tn = static_cast<std::size_t>(threads()), me = static_cast<std::size_t>(mythread());
    if (B == 0) {
      bsize_ = n_ ? n_ : 1; skip_ = 0; first_ = me == 0 ? 0 : n_;
    } else {
      bsize_ = B; skip_ = B * (Tn - 1); first_ = std::min(n_, me * B);
    }
  }
  iterator begin() const { return {first_, 0, bsize_, skip_, n_}; }
  iterator end() const { return {n_, 0, bsize_, skip_, n_}; }
 private:
  std::size_t n_, bsize_ = 1, skip_ = 0, first_ = 0;
};

template <class T, std::size_t B, consistency C>
my_indices_range<T, B, C> my_indices(const shared_array<T, B, C>& a) { return my_indices_range<T, B, C>(a); }

}  // namespace upc

#define UPC_CONTINUE ::upc::all_iterations
#define upc_forall(loop, affinity)                                                               \
  for (::upc::detail::forall_scope upc_forall_scope_; !upc_forall_scope_.once; upc_forall_scope_.once = true) \
    for (loop)                                                                                   \
      if (!upc_forall_scope_.runs(affinity)) {                                                    \
      } else
