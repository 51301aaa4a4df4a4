// A block size above UPC_MAX_BLOCK_SIZE is rejected at compile time.
#include "upc.h"
upc::sptr<char, UPC_MAX_BLOCK_SIZE + 1> p;
