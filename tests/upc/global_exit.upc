/* upc_global_exit (UPC 1.3 §7.2.1): one thread ends the whole program while the
 * others wait at a barrier that it never reaches; nobody gets past it. */
#include <upc.h>
#include <stdio.h>

shared int reached;

int main(void) {
  upc_barrier;
  if (MYTHREAD == THREADS - 1) {
    printf("thread %d: upc_global_exit(0)\n", MYTHREAD);
    fflush(stdout);
    upc_global_exit(0);
  }
  upc_barrier;   /* never completes: thread THREADS-1 has ended the program */
  reached = 1;
  printf("thread %d: got past the barrier after upc_global_exit\n", MYTHREAD);
  return 1;
}
