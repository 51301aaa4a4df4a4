#include <upc.h>
/* UPC 1.3 6.6.1: the expression of upc_barrier has integer type */
int main(void) {
  upc_barrier "string";
  return 0;
}
