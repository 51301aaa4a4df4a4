// Flat pull and push for the data-movement collectives (the reference
// implementation's two strategies, seed 001's UPC_PULL / UPC_PUSH): every block
// moves in one direct memcpy between partitions, all ranks working at once.
//
//   pull: rank r copies the blocks it receives     push: rank r copies what it sends
//      root ──▶ r  (r reads the root's block)          root ──▶ every r (root writes)
//
// Bytes moved: THREADS × nbytes (broadcast, scatter, gather), THREADS² × nbytes
// (gather_all, exchange); one step; no restrictions.
#include <numeric>

#include "../blocks.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

namespace {
void all_but(std::vector<int>& v, int me, int n) {
  for (int r = 0; r < n; ++r)
    if (r != me) v.push_back(r);
}
void one(std::vector<int>& v, int r, int me) {
  if (r != me) v.push_back(r);
}
}  // namespace

// ---- broadcast: src block on the root → the block of every thread -------------

void broadcast_pull(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size(), root = t.rank_of(rq.src.thread);
  p.copy(block_on_thread(rq.dst, rq.nbytes, t.thread_of(me), T), raw(rq.src), rq.nbytes);
  one(p.touches, root, me);
  if (me == root) all_but(p.touchers, me, T);
}

void broadcast_push(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size(), root = t.rank_of(rq.src.thread);
  if (me == root) {
    for (int r = 0; r < T; ++r) p.copy(block_on_thread(rq.dst, rq.nbytes, t.thread_of(r), T), raw(rq.src), rq.nbytes);
    all_but(p.touches, me, T);
  } else {
    p.touchers.push_back(root);
  }
}

// ---- scatter: block i of the root's src → thread i --------------------------------

void scatter_pull(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size(), root = t.rank_of(rq.src.thread);
  p.copy(block_on_thread(rq.dst, rq.nbytes, t.thread_of(me), T), raw(rq.src) + std::size_t(me) * rq.nbytes, rq.nbytes);
  one(p.touches, root, me);
  if (me == root) all_but(p.touchers, me, T);
}

void scatter_push(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size(), root = t.rank_of(rq.src.thread);
  if (me == root) {
    for (int r = 0; r < T; ++r)
      p.copy(block_on_thread(rq.dst, rq.nbytes, t.thread_of(r), T), raw(rq.src) + std::size_t(r) * rq.nbytes, rq.nbytes);
    all_but(p.touches, me, T);
  } else {
    p.touchers.push_back(root);
  }
}

// ---- gather: thread i's block → block i of the root's dst -------------------------

void gather_pull(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size(), root = t.rank_of(rq.dst.thread);
  if (me == root) {
    for (int r = 0; r < T; ++r)
      p.copy(raw(rq.dst) + std::size_t(r) * rq.nbytes, block_on_thread(rq.src, rq.nbytes, t.thread_of(r), T), rq.nbytes);
    all_but(p.touches, me, T);
  } else {
    p.touchers.push_back(root);
  }
}

void gather_push(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size(), root = t.rank_of(rq.dst.thread);
  p.copy(raw(rq.dst) + std::size_t(me) * rq.nbytes, block_on_thread(rq.src, rq.nbytes, t.thread_of(me), T), rq.nbytes);
  one(p.touches, root, me);
  if (me == root) all_but(p.touchers, me, T);
}

// ---- gather_all: thread i's block → block i of every thread's row ------------------

void gather_all_pull(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size();
  char* row = block_on_thread(rq.dst, rq.nbytes * T, t.thread_of(me), T);
  for (int k = 0; k < T; ++k) {
    const int r = (me + k) % T;  // start with my own block, then the next ranks
    p.copy(row + std::size_t(r) * rq.nbytes, block_on_thread(rq.src, rq.nbytes, t.thread_of(r), T), rq.nbytes);
  }
  all_but(p.touches, me, T);
  all_but(p.touchers, me, T);
}

void gather_all_push(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size();
  const char* mine = block_on_thread(rq.src, rq.nbytes, t.thread_of(me), T);
  for (int k = 0; k < T; ++k) {
    const int r = (me + k) % T;
    p.copy(block_on_thread(rq.dst, rq.nbytes * T, t.thread_of(r), T) + std::size_t(me) * rq.nbytes, mine, rq.nbytes);
  }
  all_but(p.touches, me, T);
  all_but(p.touchers, me, T);
}

// ---- exchange: block j of thread i's row → block i of thread j's row ---------------

void exchange_pull(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size();
  char* row = block_on_thread(rq.dst, rq.nbytes * T, t.thread_of(me), T);
  for (int j = 0; j < T; ++j)
    p.copy(row + std::size_t(j) * rq.nbytes,
           block_on_thread(rq.src, rq.nbytes * T, t.thread_of(j), T) + std::size_t(me) * rq.nbytes, rq.nbytes);
  all_but(p.touches, me, T);
  all_but(p.touchers, me, T);
}

void exchange_push(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size();
  const char* row = block_on_thread(rq.src, rq.nbytes * T, t.thread_of(me), T);
  for (int j = 0; j < T; ++j)
    p.copy(block_on_thread(rq.dst, rq.nbytes * T, t.thread_of(j), T) + std::size_t(me) * rq.nbytes,
           row + std::size_t(j) * rq.nbytes, rq.nbytes);
  all_but(p.touches, me, T);
  all_but(p.touchers, me, T);
}

// Pairwise: pull, but in step k rank r reads from rank (r+k) mod T, so at every
// step each partition is read by exactly one rank (no hot spot on rank 0).
void exchange_pairwise(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size();
  char* row = block_on_thread(rq.dst, rq.nbytes * T, t.thread_of(me), T);
  for (int k = 0; k < T; ++k) {
    const int j = (me + k) % T;
    p.copy(row + std::size_t(j) * rq.nbytes,
           block_on_thread(rq.src, rq.nbytes * T, t.thread_of(j), T) + std::size_t(me) * rq.nbytes, rq.nbytes);
  }
  all_but(p.touches, me, T);
  all_but(p.touchers, me, T);
}

// ---- permute: thread i's block → the block of thread perm[i] ----------------------

void permute_pull(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size();
  int from = 0;
  while (rq.perm[from] != t.thread_of(me)) ++from;  // the API checked perm is a permutation
  p.copy(block_on_thread(rq.dst, rq.nbytes, t.thread_of(me), T), block_on_thread(rq.src, rq.nbytes, from, T), rq.nbytes);
  one(p.touches, t.rank_of(from), me);
  one(p.touchers, t.rank_of(rq.perm[t.thread_of(me)]), me);
}

void permute_push(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size();
  const int to = rq.perm[t.thread_of(me)];
  p.copy(block_on_thread(rq.dst, rq.nbytes, to, T), block_on_thread(rq.src, rq.nbytes, t.thread_of(me), T), rq.nbytes);
  one(p.touches, t.rank_of(to), me);
  int from = 0;
  while (rq.perm[from] != t.thread_of(me)) ++from;
  one(p.touchers, t.rank_of(from), me);
}

}  // namespace upc::coll::algo
