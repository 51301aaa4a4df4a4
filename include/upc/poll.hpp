// upc_poll (UPC 1.3): a call that lets the runtime make progress. upcemu has no
// background work to advance (every transfer completes before its call returns),
// so poll() only checks, cheaply, whether the run is being stopped (a failure in
// another thread, upc_global_exit, an interrupt) and if so stops the calling
// thread as every other runtime call does. A loop that computes for a long time
// without calling the runtime can call it to stay stoppable on the threads
// backend (the processes backend kills such a worker anyway).
#pragma once

namespace upc {
void poll();
}  // namespace upc
