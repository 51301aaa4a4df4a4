#include "upc/forall.hpp"
namespace upc::detail {
thread_local int tl_forall_depth = 0;
}
