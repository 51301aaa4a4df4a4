/* Race: every thread adds into one shared scalar without a lock. */
#include <upc.h>
shared long sum;
int main(void) {
  int i;
  for (i = 0; i < 10; i++) sum += MYTHREAD + 1;
  upc_barrier;
  return 0;
}
