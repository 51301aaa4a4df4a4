#include <upc.h>
#include <math.h>
shared int rint;
int main(void) {
  shared int *p = &rint;
  rint = 3;
  return *p;
}
