// One file, two defaults: refused.
#include "upc_strict.h"
#include "upc_relaxed.h"
