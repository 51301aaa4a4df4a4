// UPC 1.3 castability (<upc_castable.h>): one mapping of the whole shared heap,
// at the same address in every thread and process, makes every shared address
// castable by every thread of a node. Across emulated nodes (upcrun --nodes)
// nothing is castable, as on a cluster: upc_cast returns NULL and
// upc_thread_info says so (consistent with bupc_thread_distance: castable
// exactly when the distance is at most BUPC_THREADS_VERYNEAR), so a program
// tested here under --nodes does not rely on loads and stores a cluster would
// not have. The rest of the work is rejecting pointers that name no thread or
// no place in the heap.
#include <string>

#include "call_site.hpp"
#include "hosts.hpp"
#include "control.hpp"
#include "upc_castable.h"

void* upc_cast(upc::sptr<void> ptr) {
  using namespace upc::detail;
  require_upc_thread("upc_cast");
  if (ptr.is_null()) return nullptr;
  const upc::shared_address& a = ptr.address();
  if (a.thread >= static_cast<std::uint32_t>(g_threads))
    fail("upc_cast", "ptr has thread " + std::to_string(a.thread) + ", but THREADS is " + std::to_string(g_threads));
  // One past the end of a partition is still a valid address to form.
  if (a.offset > g_partition_bytes)
    fail("upc_cast", "ptr (thread " + std::to_string(a.thread) + ", offset " + std::to_string(a.offset) +
                         ") lies past the end of that thread's shared heap (" + std::to_string(g_partition_bytes) +
                         " bytes)");
  if (upc::node_of(static_cast<int>(a.thread)) != upc::node_of(tl_mythread)) return nullptr;
  // Another host's partition is only a cache here (dsm.hpp): not for local pointers.
  if (!on_my_host(static_cast<int>(a.thread))) return nullptr;
  return raw_address(a);
}

upc_thread_info_t upc_thread_info(std::size_t threadId) {
  const int threads = upc::threads();
  (void)upc::mythread();  // only a UPC thread may ask
  if (threadId >= static_cast<std::size_t>(threads))
    upc::detail::fail("upc_thread_info", "threadId " + std::to_string(threadId) + " is not a thread: THREADS is " +
                                             std::to_string(threads) + ", so it must be 0 to " +
                                             std::to_string(threads - 1));
  if (upc::node_of(static_cast<int>(threadId)) != upc::node_of(upc::mythread()) || !upc::detail::on_my_host(static_cast<int>(threadId)))
    return upc_thread_info_t{0, 0};
  return upc_thread_info_t{UPC_CASTABLE_ALL, UPC_CASTABLE_ALL};
}
