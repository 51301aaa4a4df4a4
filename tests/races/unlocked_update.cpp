// Race kind: an unlocked update of a shared scalar (the classroom's mistake
// 5.2). Every thread adds into one shared counter; right holds a lock around
// each update.
#include "mode.hpp"
#include "upc.h"

upc::shared<long> total;

int upc_main(int argc, char** argv) {
  const bool right = race_kind::done_right(argc, argv);
  upc_lock_t* lock = upc_all_lock_alloc();
  for (int i = 0; i < 100; ++i) {
    if (right) upc_lock(lock);
    total += 1;  // race: both sides
    if (right) upc_unlock(lock);
  }
  upc_barrier;
  const bool counted = total.get() == 100L * THREADS;
  upc_barrier;
  upc_all_lock_free(lock);
  return !counted;
}
