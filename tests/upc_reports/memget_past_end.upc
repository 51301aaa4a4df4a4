#include <upc.h>
/* under --check: upc_memget past the end of the part of an object a thread holds */
shared [4] int a[4 * THREADS];
int main(void) {
  int buf[8];
  upc_barrier;
  upc_memget(buf, &a[0], 8 * sizeof(int));
  upc_barrier;
  return 0;
}
