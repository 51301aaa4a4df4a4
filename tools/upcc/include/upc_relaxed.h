#pragma upc relaxed
#include <upc.h>
