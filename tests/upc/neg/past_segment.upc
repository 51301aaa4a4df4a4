/* A loop that runs past the memory upc_alloc gave (here the last object of the
   last partition, so past the end of the shared segment): without --check the
   run ends with SIGSEGV, and the report says where the address is and that
   upcrun --check names the access. */
#include <upc.h>
int main(void) {
  shared [] double *p = (shared [] double *) upc_alloc(4096 * sizeof(double));
  for (int i = 0; i < 4096 + 4096; i++) p[i] = i;
  return 0;
}
