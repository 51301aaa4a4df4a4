/* Built by the installed upcc from outside the source tree (tests/install/test_install.py). */
#include <stdio.h>
#include <upc.h>

shared int seen[THREADS];

int main(int argc, char **argv) {
  seen[MYTHREAD] = MYTHREAD + 1;
  upc_barrier;
  if (MYTHREAD == 0) {
    int sum = 0, t;
    for (t = 0; t < THREADS; t++) sum += seen[t];
    if (sum != THREADS * (THREADS + 1) / 2) {
      printf("upc hello: WRONG sum %d\n", sum);
      return 1;
    }
    printf("upc hello: %d threads\n", THREADS);
  }
  return 0;
}
