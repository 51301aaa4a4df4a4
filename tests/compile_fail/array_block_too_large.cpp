// A shared array with a block size above UPC_MAX_BLOCK_SIZE is rejected at compile time.
#include "upc.h"
upc::shared_array<char, UPC_MAX_BLOCK_SIZE * 2> a(10);
