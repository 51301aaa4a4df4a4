// [*] is a layout of arrays only (UPC forbids it on pointers).
#include "upc.h"
upc::sptr<int, upc::star> p;
