// shared void * carries no block size, so it cannot become a dynamic-block pointer alone.
#include "upc.h"
void f(upc::sptr<void> v) { upc::sptr<int, upc::dynamic_block> p = v; (void)p; }
