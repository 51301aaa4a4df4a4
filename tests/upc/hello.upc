#include <upc.h>
#include <stdio.h>

int main(void) {
  printf("hello from thread %d of %d\n", MYTHREAD, THREADS);
  upc_barrier;
  if (MYTHREAD >= THREADS || THREADS < 1) return 1;
  upc_barrier 7;
  return 0;
}
