#include <upc.h>
int main(void) {
  double x = 1.0;
  upc_forall (int i = 0; i < 10; i++; x) { }
  return 0;
}
