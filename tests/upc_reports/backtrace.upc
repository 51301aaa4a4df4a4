#include <string.h>
#include <upc.h>
/* A UPC program that fails inside a function of its own, for the backtrace
   tests (tests/failure/check_backtrace.py): built with upcc -g, its report's
   first frames must be the lines marked "frame:" below, named as in this file.
   argv[1]: past_end (thread 1 writes past the end of a shared array: a --check
   error), segv (thread 1 writes through a null pointer: a crash) or unlock
   (thread 0 unlocks a lock it does not hold: the C interface's frames, in an
   anonymous namespace, are not the program's). */
shared [4] int data[4 * THREADS];

void store_past_end(int i) {
  data[i] = 1; /* frame: store_past_end */
}

void write_through(volatile int *p) {
  *p = 1; /* frame: write_through */
}

void unlock_unheld(upc_lock_t *lock) {
  upc_unlock(lock); /* frame: unlock_unheld */
}

int main(int argc, char **argv) {
  upc_lock_t *lock;
  upc_barrier;
  if (argc > 1 && strcmp(argv[1], "past_end") == 0 && MYTHREAD == 1)
    store_past_end(4 * THREADS + 3); /* frame: main past_end */
  if (argc > 1 && strcmp(argv[1], "segv") == 0 && MYTHREAD == 1)
    write_through(0); /* frame: main segv */
  lock = upc_all_lock_alloc();
  if (argc > 1 && strcmp(argv[1], "unlock") == 0 && MYTHREAD == 0)
    unlock_unheld(lock); /* frame: main unlock */
  upc_barrier;
  return 0;
}
