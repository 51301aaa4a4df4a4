#include <upc.h>
shared int x[THREADS];
int main(void) {
  shared void *v = &x[0];
  v += 1;
  return 0;
}
