// The block size of a upc::dynamic_block array is given as upc::block(b), so that
// (N, b) cannot be mistaken for two extents.
#include "upc.h"
upc::shared_array<int, upc::dynamic_block> a(100, 5);
