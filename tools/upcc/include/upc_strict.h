#pragma upc strict
#include <upc.h>
