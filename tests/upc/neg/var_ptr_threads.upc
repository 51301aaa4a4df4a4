#include <upc.h>
shared int g[4][10 * THREADS];
int main(void) {
  shared int (*p)[10 * THREADS] = g;
  return p[1][2];
}
