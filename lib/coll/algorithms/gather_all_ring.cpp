// Ring gather_all: every rank copies its own block into its row, then in step
// k = 0 … T-2 pulls from its left neighbour's row the block that neighbour got
// in step k-1, block (me - k - 1) mod T. After T-1 steps every row is full.
// Rows are dst, so no scratch: the ring forwards through the user's rows.
//
//   T = 4, step 0          step 1           step 2        (block indices)
//   0 ◀── 3: [3]           0 ◀── 3: [2]     0 ◀── 3: [1]
//   1 ◀── 0: [0]           1 ◀── 0: [3]     1 ◀── 0: [2]
//   2 ◀── 1: [1]           2 ◀── 1: [0]     2 ◀── 1: [3]
//   3 ◀── 2: [2]           3 ◀── 2: [1]     3 ◀── 2: [0]
//
// Steps: T - 1, each one block per rank, all ranks at once; every partition is
// read by exactly one rank per step (no hot spot). Bytes moved: T (T - 1) × nbytes
// (plus the T own blocks), as for flat pull. Synchronisation: staged ready flags
// (plan.stages = T - 1): stage k of a rank = "my row holds the blocks of steps
// < k"; with OUT_NOSYNC the right neighbour acks at the end so a rank does not
// leave (and let its row be reused) while it is still read. Restrictions: none.
#include "../blocks.hpp"
#include "../common/binomial_tree.hpp"
#include "../common/forwarded_rows.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void gather_all_ring(const request& rq, team& t, plan& p) {
  const forwarded_rows rows{rq, t, p};
  const auto& [me, T, n, row] = rows;
  p.stages = T > 1 ? T - 1 : 1;
  if (T == 1) return;

  const int left = (me + T - 1) % T, right = (me + 1) % T;
  const char* const left_row = row_of(rq, t, left);
  p.publish_ready(0);
  for (int k = 0; k < T - 1; ++k) {
    const std::size_t at = std::size_t((me - k - 1 + 2 * T) % T) * n;
    p.wait_ready(left, k);
    p.copy(row + at, left_row + at, n);
    if (k + 1 < T - 1) p.publish_ready(k + 1);
  }
  p.touches.push_back(left);
  p.touchers.push_back(right);
  if (readers_must_ack(rq.flags, true)) {
    p.ack(left);
    p.ack_from.push_back(right);
    p.wait_acks();
  }
}

}  // namespace upc::coll::algo
