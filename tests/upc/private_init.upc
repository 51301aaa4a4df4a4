/* File-scope and static private pointers-to-shared initialised with an address:
 * every thread's copy holds it when main starts, and each thread's copy is its own. */
#include <upc.h>
#include <stdio.h>
#include <stdlib.h>

shared int x[4 * THREADS];
shared [3] int y[6 * THREADS];
shared [] int whole[10];
struct pair { int a; double b; };
shared struct pair sp[THREADS];

shared int *p = &x[0];
shared int *ps[] = {&x[1], &x[2], 0, &x[THREADS]};
shared [3] int *py = &y[4];
static shared int *sx = &x[3];
shared [] int *pw = &whole[7];
shared int *pa = &sp[0].a, *pnull = 0, *pb = &x[2 * THREADS - 1];
struct holder { shared int *ptr; int n; } h = {&x[1], 5};
shared int *shared *pp;  /* a private pointer to a shared pointer-to-shared: no initialiser */

static int fails;
#define CHECK(c) do { if (!(c)) { printf("thread %d: line %d: %s\n", MYTHREAD, __LINE__, #c); fails++; } } while (0)

static int counter(void) {
  static shared [3] int *q = &y[2];
  static int calls = 0;
  calls++;
  q++;  /* each thread walks its own copy */
  return (int)upc_phaseof(q) * 100 + calls;
}

int main(void) {
  int i;
  for (i = MYTHREAD; i < 4 * THREADS; i += THREADS) x[i] = 10 * i;
  for (i = 0; i < 6 * THREADS; i++) if (upc_threadof(&y[i]) == MYTHREAD) y[i] = 1000 + i;
  if (MYTHREAD == 0) for (i = 0; i < 10; i++) whole[i] = 500 + i;
  sp[MYTHREAD].a = 7 + MYTHREAD;
  upc_barrier;
  CHECK(p == &x[0] && *p == 0);
  CHECK(ps[0] == &x[1] && *ps[0] == 10);
  CHECK(ps[1] == &x[2] && *ps[1] == 20);
  CHECK(ps[2] == NULL);
  CHECK(ps[3] == &x[THREADS] && upc_threadof(ps[3]) == 0 && *ps[3] == 10 * THREADS);
  CHECK(sizeof ps / sizeof ps[0] == 4);
  CHECK(py == &y[4] && upc_phaseof(py) == 1 && *py == 1004);
  CHECK(upc_threadof(py) == 1 % THREADS);
  CHECK(sx == &x[3] && *sx == 30);
  CHECK(pw == &whole[7] && *pw == 507 && upc_threadof(pw) == 0);
  CHECK(pa == &sp[0].a && *pa == 7);
  CHECK(pnull == NULL);
  CHECK(pb == &x[2 * THREADS - 1] && *pb == 10 * (2 * THREADS - 1));
  CHECK(h.ptr == &x[1] && h.n == 5 && *h.ptr == 10);
  CHECK(pp == NULL);
  /* each thread's copy is its own: move it by MYTHREAD */
  p += MYTHREAD;
  upc_barrier;
  CHECK(p == &x[MYTHREAD] && upc_threadof(p) == MYTHREAD);
  CHECK(counter() == (int)upc_phaseof(&y[3]) * 100 + 1);
  CHECK(counter() == (int)upc_phaseof(&y[4]) * 100 + 2);
  upc_barrier;
  if (fails) return 1;
  if (MYTHREAD == 0) printf("private_init: ok\n");
  return 0;
}
