#include <upc.h>
/* a lock freed twice */
int main(void) {
  if (MYTHREAD == 0) {
    upc_lock_t *l = upc_global_lock_alloc();
    upc_lock_free(l);
    upc_lock_free(l);
  }
  upc_barrier;
  return 0;
}
