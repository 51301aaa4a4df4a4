// What the computational families of the extended collectives share (seed
// 003, A.1.7, A.2.8, A.3.7, A.4: reduce, allreduce and prefix reduce in their
// in-place, vector-variant, team-based and get/put/priv forms, for the eleven
// types).
//
// Every form is the same three steps over an ordered list of pieces (runs of
// elements that one thread owns, in the order the result combines them):
//   1. each member folds its own pieces (its elements are its own: shared in
//      its partition or private to it) into one total per piece;
//   2. the totals travel through the engine's general data movement
//      (request::chunks): to the root (reduce) or to every member;
//   3. the root (reduce), every member (allreduce) or each piece's owner
//      (prefix) combines them in piece order and the results travel to their
//      destinations, again as chunks, with the caller's OUT synchronisation.
// reductions.cpp makes the pieces (and runs steps 1 and 2 through
// reduction::totals); each family's file does step 3 (reduce.cpp,
// allreduce.cpp, prefix_reduce.cpp).
//
// The pieces fix the expression, so results are the same bits on every
// backend, THREADS count and algorithm, and the standard-shaped forms give the
// bits of upc_all_reduce / upc_all_prefix_reduce (docs/collectives.md,
// determinism): commutative reductions fold each thread's elements in index
// order and the per-thread partials in rank order; UPC_NONCOMM_FUNC and prefix
// reductions work block by block; the vector variants chunk by chunk, a chunk
// split where it crosses a block.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "../../coll/engine.hpp"
#include "families.hpp"

namespace upc::ext {

using coll::chunk;
using coll::place;

// An array of the call's elements: shared `shared [blk] TYPE[n]` from a
// pointer (its thread and phase respected, as the standard reductions do), or
// private (the same layout from thread 0, phase 0; each thread's buffer holds
// its own elements in local order).
struct elements {
  coll::blocked_array a{};
  bool is_private = false;
  char* mine = nullptr;  // this thread's private buffer

  int owner(std::uint64_t v) const noexcept {
    return a.blk ? a.owner_of_block(v / a.blk) : static_cast<int>(a.base.thread);
  }
  place at(std::uint64_t v) const noexcept {
    const int t = owner(v);
    const std::uint64_t li = a.local_index(v);
    if (is_private) return place{(li - a.first_local(t)) * a.elem, t, true};
    return place{(a.blk ? a.row_start() : a.base.offset) + li * a.elem, t, false};
  }
  // A machine address of one of my places.
  char* address(const place& p) const noexcept;
};

elements shared_elements(const shared_address& base, std::size_t elem, std::size_t blk, std::size_t n);
elements private_elements(char* mine, std::size_t elem, std::size_t blk, std::size_t n);

struct piece {
  int owner;         // thread
  place src;         // its first element
  std::uint64_t n;   // elements
  std::uint64_t to;  // prefix: the destination index of its first element (from dst's start)
};

// Where a reduce's result goes (allreduce checks the same arguments).
struct reduce_target {
  int root_thread;  // the thread whose element it is
  place at;
  bool is_private;
};

// One call in progress: its operation, members, source and pieces.
struct reduction {
  reduction(call& call, const members_view& members);

  call& c;
  const members_view& m;
  coll::element_op op;
  std::size_t E;              // bytes an element
  std::vector<char> member;   // by thread
  int me = 0, my_rank = -1;
  elements src;               // the source elements (reductions.cpp)
  std::vector<piece> pieces;  // in the order the result combines them
  std::size_t nelems = 0;     // the source array's length

  upc_flag_t out_flags() const { return c.flags & (UPC_OUT_ALLSYNC | UPC_OUT_MYSYNC | UPC_OUT_NOSYNC); }
  // The second movement keeps the caller's IN choice only where it still means
  // something: ALLSYNC was met by the first.
  upc_flag_t second_in() const;

  // One chunk collective on the call's members: `list` between this thread's
  // private `from` and `to` (either may be unused).
  void move(const std::vector<chunk>& list, char* from, char* to, upc_flag_t flags) const;
  // Steps 1 and 2: my pieces' totals, then everyone's totals where they are
  // needed (`to_all`, or the member of thread `root`). Returns the totals in
  // piece order (empty where not gathered).
  std::vector<char> totals(bool to_all, int root) const;
  // The fold of the totals in piece order into out (false when there are no pieces).
  bool fold_all(const std::vector<char>& ordered, char* out) const;

  // Suffix reductions, from the end: acc = x0 op (x1 op (… op x[n-1])), and
  // the scan to[i] = x[i] op to[i+1] (to[n-1] = x[n-1] op after, when given).
  // One element at a time through combine (dst = dst op src), so a
  // non-commutative function sees its operands in index order.
  void right_fold(char* acc, const char* x, std::size_t n) const;
  void suffix_scan(char* to, const char* x, std::size_t n, const char* after) const;

  // Where a reduce's result goes: element 0 of buffer or the root's first
  // element (rooted, in place), the root's private buffer, or dst; checks the
  // root and the pointers.
  reduce_target target() const;
  // This thread's private destination of a result (or nullptr).
  char* private_destination() const;
  // dst is a private buffer that this thread passed as a null pointer.
  bool private_dst_missing() const;
  [[noreturn]] void fail_private_dst() const;
};

}  // namespace upc::ext
