/* UPC's <upc_strict.h> makes unqualified shared accesses strict. In upcemu the
 * consistency is part of the type (upc::strict_shared<T>, sptr<T, B, upc::strict>),
 * so this header only includes <upc.h>; see docs/user-guide.md. */
#pragma once
#include "upc.h"
