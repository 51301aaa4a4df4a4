/* A cast of another thread's element to a local pointer (undefined, UPC 1.3 6.4.3): upcrun --check must report it. */
#include <upc.h>
shared int a[THREADS];
int main(void) {
  int *p = (int *)&a[(MYTHREAD + 1) % THREADS];
  *p = 1;
  return 0;
}
