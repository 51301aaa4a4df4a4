// The computational families of the extended collectives (reduce, allreduce,
// prefix reduce in their in-place, vector-variant, team and get/put/priv forms).
#include "families.hpp"
#include "upc/error.hpp"

namespace upc::ext {

void run_reduction(call& c, const members_view&) {
  detail::fail(c.function, "the computational extended collectives are not built yet (issue 10)");
}

}  // namespace upc::ext
