/* Two races, each made many times: --check=all-races reports each once (by
   its pair of lines) and the run goes on, then ends with status 1. */
#include <upc.h>
shared int a[THREADS];
shared int sum;
int main(void) {
  for (int round = 0; round < 20; round++) {
    a[MYTHREAD] = round;                            /* line 8 */
    int s = a[(MYTHREAD + 1) % THREADS];           /* line 9: read, no barrier since line 8 */
    sum += s;                                       /* line 10: no lock */
  }
  upc_barrier;
  return 0;
}
