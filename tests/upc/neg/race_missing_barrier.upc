/* Race: thread 0 sums the others' results with no barrier in between. */
#include <upc.h>
shared long hits[THREADS];
int main(void) {
  long total = 0;
  int t;
  hits[MYTHREAD] = MYTHREAD + 1;
  if (MYTHREAD == 0)
    for (t = 0; t < THREADS; t++) total += hits[t];
  upc_barrier;
  return total == 0;
}
