// <upc_strict.h> after <upc.h> would change nothing (the default is fixed by
// then): refused instead of silently ignored.
#include "upc.h"
#include "upc_strict.h"
