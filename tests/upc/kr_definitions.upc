// K&R-style function definitions (identifier lists, parameter declarations
// before the body) are C the translator leaves alone: gcc -std=gnu11 takes them.
#include <upc.h>
#include <stdio.h>
shared int a[THREADS];
int add(x, y)
  int x;
  int y;
{
  return x + y;
}
int main() {
  a[MYTHREAD] = add(MYTHREAD, 1);
  upc_barrier;
  if (MYTHREAD == 0) {
    int s = 0, i;
    for (i = 0; i < THREADS; i++) s += a[i];
    printf("sum %d\n", s);
    return s == THREADS * (THREADS + 1) / 2 ? 0 : 1;
  }
  return 0;
}
