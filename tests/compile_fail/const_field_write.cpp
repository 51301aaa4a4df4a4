// A field reached through a pointer to const shared data is const.
#include "upc.h"
struct S { int x; };
void f(upc::sptr<const S> p) { p->*&S::x = 1; }
