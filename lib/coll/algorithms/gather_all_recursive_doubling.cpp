// Recursive-doubling gather_all, in its distance-doubling form (Bruck et al.'s
// dissemination allgather), so that it works for every THREADS, not only powers
// of two: after round k - 1 rank r's row holds the min(2^k, T) blocks r, r+1, …
// (mod T). In round k it pulls, from rank q = r + 2^k, the min(2^k, T - 2^k)
// blocks q, q+1, … that q has gathered so far, into the same places of its own
// row. Rows hold blocks at their final positions, so Bruck's final rotation is
// not needed; rows are dst, so no scratch.
//
//   T = 5 (blocks a row holds after each round)
//   round 0 (from r+1)  round 1 (from r+2)     round 2 (from r+4, 1 block)
//   0: 0 1              0: 0 1 2 3             0: 0 1 2 3 4
//   1: 1 2              1: 1 2 3 4             1: 1 2 3 4 0
//   4: 4 0              4: 4 0 1 2             4: 4 0 1 2 3
//
// Steps: ceil(log2 T) rounds (the XOR form's count for powers of two), each
// pulling from one rank and read by one rank. Bytes moved: (T - 1) × nbytes per
// rank, T (T - 1) × nbytes in all, as for flat pull and ring. Synchronisation:
// staged ready flags (plan.stages = rounds): stage k of a rank = "my row holds
// what I gathered before round k"; with OUT_NOSYNC each reader acks at the end.
// Restrictions: none.
#include <algorithm>

#include "../blocks.hpp"
#include "../common/binomial_tree.hpp"
#include "../common/forwarded_rows.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void gather_all_recursive_doubling(const request& rq, team& t, plan& p) {
  const forwarded_rows rows{rq, t, p};
  const auto& [me, T, n, row] = rows;
  int rounds = 0;
  while ((1 << rounds) < T) ++rounds;
  p.stages = std::max(rounds, 1);
  if (rounds == 0) return;

  p.publish_ready(0);
  for (int k = 0; k < rounds; ++k) {
    const int d = 1 << k, from = (me + d) % T, count = std::min(d, T - d);
    const char* const from_row = row_of(rq, t, from);
    p.wait_ready(from, k);
    // Blocks from, from+1, …, from+count-1 (mod T): one or two runs of the row.
    const int head = std::min(count, T - from);
    p.copy(row + std::size_t(from) * n, from_row + std::size_t(from) * n, std::size_t(head) * n);
    p.copy(row, from_row, std::size_t(count - head) * n);
    if (k + 1 < rounds) p.publish_ready(k + 1);
    p.touches.push_back(from);
    p.touchers.push_back((me - d + T) % T);
  }
  if (readers_must_ack(rq.flags, true)) {
    for (int from : p.touches) p.ack(from);
    p.ack_from = p.touchers;
    p.wait_acks();
  }
}

}  // namespace upc::coll::algo
