#include <upc.h>
#include <upc_atomic.h>
/* upc_atomic_relaxed on a domain freed by upc_all_atomicdomain_free */
shared long x;
int main(void) {
  upc_atomicdomain_t *d = upc_all_atomicdomain_alloc(UPC_INT64, UPC_ADD, 0);
  upc_all_atomicdomain_free(d);
  long one = 1;
  upc_atomic_relaxed(d, NULL, UPC_ADD, &x, &one, NULL);
  return 0;
}
