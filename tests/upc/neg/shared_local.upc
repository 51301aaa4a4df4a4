#include <upc.h>
int main(void) {
  shared int x;
  return 0;
}
