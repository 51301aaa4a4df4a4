#include <upc.h>
/* upc_unlock of a lock this thread does not hold */
int main(void) {
  upc_lock_t *l = upc_all_lock_alloc();
  upc_barrier;
  if (MYTHREAD == 0)
    upc_unlock(l);
  upc_barrier;
  return 0;
}
