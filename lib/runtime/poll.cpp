// upc_poll: nothing to progress here; stop the calling thread if the run stops.
#include "upc/poll.hpp"

#include "control.hpp"
#include "upc/runtime.hpp"

namespace upc {

void poll() {
  (void)mythread();  // a clear error outside a UPC thread
  detail::check_abort();
}

}  // namespace upc
