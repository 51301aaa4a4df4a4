// How C = A x B (N x N doubles) is split: thread t computes a block of
// consecutive rows of C from the same rows of A and the whole of B. The blocks
// are apps::row_blocks: ceil(N / THREADS) rows each, so that the fixed-size
// collectives can move them; thread 0's copies of A and C carry the padding of
// the last blocks as extra rows at the end, which nobody computes.
#pragma once
#include "row_blocks.hpp"

namespace dense {

using layout = apps::row_blocks;

}  // namespace dense
