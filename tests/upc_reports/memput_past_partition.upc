#include <upc.h>
/* upc_memput of more bytes than thread 1's shared heap holds */
shared int x[THREADS];
int main(void) {
  int v = 1;
  upc_barrier;
  if (MYTHREAD == 0)
    upc_memput(&x[1], &v, (size_t)1 << 40);
  upc_barrier;
  return 0;
}
