#include <upc.h>
int main(void) {
  upc_forall (int i = 0; i < 10; i++) { }
  return 0;
}
