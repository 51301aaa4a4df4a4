// What the gather_all algorithms that forward blocks through dst's rows share
// before their rounds (ring, recursive doubling): my rank, the piece size, my
// row (my block of dst: T pieces, piece r from rank r), and my own piece
// copied into it first.
#pragma once
#include <cstddef>

#include "../plan.hpp"
#include "../request.hpp"
#include "../team.hpp"

namespace upc::coll {

// Rank `rank`'s row: its block of dst.
inline char* row_of(const request& rq, const team& t, int rank) { return rq.dst.block_of(t.thread_of(rank)); }

struct forwarded_rows {
  int me, T;
  std::size_t n;
  char* row;

  forwarded_rows(const request& rq, const team& t, plan& p)
      : me(t.rank()), T(t.size()), n(rq.nbytes), row(row_of(rq, t, me)) {
    p.copy(row + std::size_t(me) * n, rq.src.block_of(t.thread_of(me)), n);
  }
};

}  // namespace upc::coll
