// K&R-style function definitions (identifier lists, parameter declarations
// before the body) are C the translator leaves alone: gcc -std=gnu11 takes them.
// A pointer-to-shared parameter declared first in the list (SPLASH-2's
// barnes and lu do this) keeps its qualifier on the parameter's type: right
// after the ')' it would otherwise qualify the function.
#include <upc.h>
#include <stdio.h>
typedef double real;
shared int a[THREADS];
shared [] real arena[4];
shared double cyclic[4 * THREADS];
int add(x, y)
  int x;
  int y;
{
  return x + y;
}
void put_indefinite(vec, value)
  shared [] real *vec;   /* the first declaration of the list */
  real value;
{
  vec[1] = value;
}
void put_cyclic(n, v)

shared double *v;
int n;
{
  v[n] = n + 0.5;
}
void put_blocked(k, p, q)
  int k;
  shared [] real *p;  /* not the first: it never followed the ')' */
  shared double *q;
{
  p[k] = k;
  q[k] = -k;
}
int main() {
  a[MYTHREAD] = add(MYTHREAD, 1);
  upc_barrier;
  if (MYTHREAD == 0) {
    int s = 0, i;
    for (i = 0; i < THREADS; i++) s += a[i];
    printf("sum %d\n", s);
    put_indefinite(arena, 2.5);
    put_cyclic(3 * THREADS, cyclic);  /* 3*THREADS never meets put_blocked's 2 */
    put_blocked(2, arena, cyclic);
    if (arena[1] != 2.5 || cyclic[3 * THREADS] != 3 * THREADS + 0.5 || arena[2] != 2 || cyclic[2] != -2) {
      printf("K&R shared parameters: wrong values\n");
      return 1;
    }
    return s == THREADS * (THREADS + 1) / 2 ? 0 : 1;
  }
  return 0;
}
