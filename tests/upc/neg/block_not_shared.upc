#include <upc.h>
int main(void) {
  relaxed [4] int x;
  return 0;
}
