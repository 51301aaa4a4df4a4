/* Berkeley's bupc_memcpy_vlist with unequal totals: the run must stop with a report. */
#include <upc.h>
shared int a[8 * THREADS];
int main(void) {
  bupc_smemvec_t d[1] = {{&a[0], 8}}, s[1] = {{&a[4], 12}};
  bupc_memcpy_vlist(1, d, 1, s);
  return 0;
}
