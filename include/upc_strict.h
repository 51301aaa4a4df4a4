/* UPC's <upc_strict.h>: <upc.h>, and shared types written without strict or
 * relaxed are strict in this file (UPC: the same as `#pragma upc strict` at the
 * top of the file). `upc::sptr<int>`, `upc::shared_array<int>` and
 * `upc::shared<int>` are then `..., upc::strict>`; `upc::relaxed_shared<T>` and
 * an explicit `upc::relaxed` give relaxed ones. Include it before any other
 * upcemu header: the default is fixed when the first one is read, and a late
 * <upc_strict.h> is an error rather than silently ignored. See
 * upc/consistency.hpp for why this is safe across files. */
#pragma once
#if defined(UPCEMU_CONSISTENCY_FIXED) && !defined(UPCEMU_DEFAULT_STRICT)
#error "<upc_strict.h> must be included before <upc.h> and every other upcemu header of this file (the default consistency is fixed when the first one is read)"
#endif
#ifndef UPCEMU_DEFAULT_STRICT
#define UPCEMU_DEFAULT_STRICT 1
#endif
#include "upc.h"
