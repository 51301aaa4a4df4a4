// A program that fails inside a function of its own, for the backtrace tests
// (check_backtrace.py): built with -g, so that the report's first frames can be
// checked against the lines marked "frame:" below. argv[1] picks the failure:
//   past_end  thread 1 writes past the end of a shared array (a --check error)
//   barrier   every thread passes its own id to upc_barrier (an id mismatch)
//   segv      thread 1 writes through a null pointer (the crash handler's path)
//   unlock    thread 0 unlocks a lock it does not hold (upc_unlock, a function
//             of upcemu's in the global namespace, is not the program's frame)
#include <cstring>

#include "upc.h"

upc::shared_array<int, 4> data{upc::per_thread(4)};

// noinline: each function keeps a frame of its own, as the test expects.
__attribute__((noinline)) void store_past_end(int i) {
  data[i] = 1;  // frame: store_past_end
}

__attribute__((noinline)) void barrier_with_own_id() {
  upc_barrier(MYTHREAD);  // frame: barrier_with_own_id
}

__attribute__((noinline)) void write_through(volatile int* p) {
  *p = 1;  // frame: write_through
}

__attribute__((noinline)) void unlock_unheld(upc_lock_t* lock) {
  upc_unlock(lock);  // frame: unlock_unheld
}

int upc_main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  upc_barrier;
  if (std::strcmp(mode, "past_end") == 0 && MYTHREAD == 1)
    store_past_end(4 * THREADS + 3);  // frame: upc_main past_end
  if (std::strcmp(mode, "barrier") == 0)
    barrier_with_own_id();  // frame: upc_main barrier
  if (std::strcmp(mode, "segv") == 0 && MYTHREAD == 1)
    write_through(nullptr);  // frame: upc_main segv
  upc_lock_t* lock = upc_all_lock_alloc();
  if (std::strcmp(mode, "unlock") == 0 && MYTHREAD == 0)
    unlock_unheld(lock);  // frame: upc_main unlock
  upc_barrier;
  return 0;
}
