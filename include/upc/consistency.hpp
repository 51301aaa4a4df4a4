// Strict and relaxed shared accesses (UPC 1.3 §6.5.1, #pragma upc in §6.7.1,
// <upc_strict.h> and <upc_relaxed.h>), and the default of one translation unit.
//
// In upcemu the consistency is part of the type: `upc::sptr<int, 1, upc::strict>`,
// `upc::strict_shared<int>`. A type written without it gets the default of its
// translation unit: relaxed, or strict when the file includes <upc_strict.h>
// first (UPC: `#include <upc_strict.h>`, the same as `#pragma upc strict` at the
// top of the file). The default is read once, when the first upcemu header of
// the file is read; <upc_strict.h> or <upc_relaxed.h> after that is an error
// instead of being ignored.
//
// Why this is safe across translation units: strict and relaxed pointers are
// distinct C++ types, so a function taking `upc::sptr<int>` declared in a header
// shared by a strict file and a relaxed file names two different functions
// (a link error, never a silent mix); spell the consistency in such declarations
// (`upc::sptr<int, 1, upc::relaxed>`), as upcemu's own headers do. The generic
// pointer `upc::sptr<void>` has no accesses and is relaxed in every file, so the
// library's `shared void *` functions are the same everywhere.
#pragma once

#if defined(UPCEMU_DEFAULT_STRICT) && defined(UPCEMU_DEFAULT_RELAXED)
#error "upcemu: both <upc_strict.h> and <upc_relaxed.h> are included in this file; choose one"
#endif

// Marks the default as fixed for this file (checked by <upc_strict.h>, <upc_relaxed.h>).
#define UPCEMU_CONSISTENCY_FIXED 1

namespace upc {

enum class consistency { relaxed, strict };
constexpr consistency relaxed = consistency::relaxed;
constexpr consistency strict = consistency::strict;

}  // namespace upc

// The consistency of shared types written without one, in this file. Only the
// default template arguments of upcemu's declarations use it; no definition does,
// so every class and function has the same definition in every file.
#if defined(UPCEMU_DEFAULT_STRICT)
#define UPCEMU_DEFAULT_CONSISTENCY ::upc::consistency::strict
#else
#define UPCEMU_DEFAULT_CONSISTENCY ::upc::consistency::relaxed
#endif
