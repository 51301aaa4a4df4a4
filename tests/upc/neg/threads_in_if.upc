#include <upc.h>
int main(void) {
#if THREADS > 2
  return 1;
#endif
  return 0;
}
