/* Race: the neighbour's element read between upc_notify and upc_wait. */
#include <upc.h>
shared int a[THREADS];
int main(void) {
  int seen;
  a[MYTHREAD] = MYTHREAD;
  upc_notify;
  seen = a[(MYTHREAD + 1) % THREADS];
  upc_wait;
  return seen < 0;
}
