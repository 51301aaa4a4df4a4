/* An out-of-bounds shared index: upcrun --check must report it. */
#include <upc.h>
shared int a[2 * THREADS];
int main(void) {
  int i = 2 * THREADS + MYTHREAD;
  a[i] = 1;
  return 0;
}
