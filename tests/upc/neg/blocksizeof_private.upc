#include <upc.h>
int main(void) {
  int x = 0;
  return (int)upc_blocksizeof(x);
}
