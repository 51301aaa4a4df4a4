// The name of every upc_op_t bit of upc_types.h, for error messages of the
// atomics and the collectives alike.
#pragma once
#include "upc_types.h"

namespace upc::detail {

// "UPC_ADD" for UPC_ADD; nullptr for a value that is not exactly one known bit.
inline const char* op_name(upc_op_t bit) {
  switch (bit) {
    case UPC_ADD: return "UPC_ADD";
    case UPC_MULT: return "UPC_MULT";
    case UPC_AND: return "UPC_AND";
    case UPC_OR: return "UPC_OR";
    case UPC_XOR: return "UPC_XOR";
    case UPC_LOGAND: return "UPC_LOGAND";
    case UPC_LOGOR: return "UPC_LOGOR";
    case UPC_MIN: return "UPC_MIN";
    case UPC_MAX: return "UPC_MAX";
    case UPC_FUNC: return "UPC_FUNC";
    case UPC_NONCOMM_FUNC: return "UPC_NONCOMM_FUNC";
    case UPC_MINLOC: return "UPC_MINLOC";
    case UPC_MAXLOC: return "UPC_MAXLOC";
    case UPC_GET: return "UPC_GET";
    case UPC_SET: return "UPC_SET";
    case UPC_CSWAP: return "UPC_CSWAP";
    case UPC_SUB: return "UPC_SUB";
    case UPC_INC: return "UPC_INC";
    case UPC_DEC: return "UPC_DEC";
    default: return nullptr;
  }
}

}  // namespace upc::detail
