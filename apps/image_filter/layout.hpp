// How the N x N image is split: thread t filters a block of consecutive rows.
// The blocks are apps::row_blocks: ceil(N / THREADS) rows each, so that the
// fixed-size collectives can move them; thread 0's image and result carry the
// padding of the last blocks as extra rows at the end, moved but never filtered.
#pragma once
#include "row_blocks.hpp"

namespace image {

using layout = apps::row_blocks;

}  // namespace image
