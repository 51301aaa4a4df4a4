/* UPC's <upc_relaxed.h>: relaxed is already upcemu's default consistency. */
#pragma once
#include "upc.h"
