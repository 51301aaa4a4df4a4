// shared const void * to shared int * drops const: only an explicit cast may.
#include "upc.h"
void f(upc::sptr<const void> v) { upc::sptr<int> p = v; (void)p; }
