// The in-place exchange of seed 003's Figure 3.3: pieces swapped pair by pair.
// The buffer is `shared [nbytes*T] char[nbytes*T*T]` (rq.dst, block nbytes x T
// per thread): piece j of thread i goes to piece i of thread j. In round s
// (1 <= s <= T/2) thread i takes the pair {i, i+s}: it copies its piece i+s
// aside, copies piece i of thread i+s over it, and writes the copy there. Every
// unordered pair of threads has one distance s <= T/2, so every pair of pieces
// is swapped exactly once, by one thread (at s = T/2 with T even, by the lower
// half only); no two threads touch the same piece, so the rounds need no
// synchronisation of their own (the thesis's barrier between stages is not
// needed once a pair has one owner). Steps: 3 x floor(T/2) copies of nbytes per
// thread, against staged's 2 x (T - 1); no thread waits for another's staging.
#include "../common/touch.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

void exchange_in_place_pairwise(const request& rq, team& t, plan& p) {
  const int T = t.size(), me = t.rank();
  const std::size_t n = rq.nbytes;
  p.local.resize(n);
  for (int s = 1; 2 * s <= T; ++s) {
    if (2 * s == T && me >= T / 2) break;  // the pair {i, i + T/2} is the lower thread's
    const int j = (me + s) % T;
    char* mine = rq.dst.block_of(t.thread_of(me)) + static_cast<std::size_t>(j) * n;
    char* theirs = rq.dst.block_of(t.thread_of(j)) + static_cast<std::size_t>(me) * n;
    p.copy(p.local.data(), mine, n);
    p.copy(mine, theirs, n);
    p.copy(theirs, p.local.data(), n);
    touch_one(p.touches, j, me);
  }
  // The threads that swap a piece of mine: those at distances T - s for s < T/2
  // (and T/2 for the upper half of an even T).
  for (int s = 1; 2 * s <= T; ++s) {
    if (2 * s == T && me < T / 2) break;
    touch_one(p.touchers, (me - s + T) % T, me);
  }
}

}  // namespace upc::coll::algo
