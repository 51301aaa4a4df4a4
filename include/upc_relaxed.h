/* UPC's <upc_relaxed.h>: <upc.h>, and shared types written without strict or
 * relaxed are relaxed in this file (UPC: `#pragma upc relaxed` at the top of the
 * file). Relaxed is already the default; this header states it, and refuses to
 * follow <upc_strict.h> in the same file. */
#pragma once
#if defined(UPCEMU_DEFAULT_STRICT)
#error "<upc_relaxed.h> and <upc_strict.h> are both included in this file; choose one"
#endif
#ifndef UPCEMU_DEFAULT_RELAXED
#define UPCEMU_DEFAULT_RELAXED 1
#endif
#include "upc.h"
