/* Shared scalars and arrays at file scope: default, [B], [*], [] layouts, THREADS
 * in a dimension, reads, writes, compound assignment, ++, private globals. */
#include <upc.h>
#include <stdio.h>

#define N 5
shared int a[N * THREADS];
shared [3] long b[4][THREADS];
shared [*] double c[8 * THREADS];
shared [] int d[10];
shared int counter = 42;
int private_g = 0;
static int private_s;

static int fail(const char *what, long got, long want) {
  printf("thread %d: %s: got %ld, want %ld\n", MYTHREAD, what, got, want);
  return 1;
}

int main(void) {
  int bad = 0;
  private_g = MYTHREAD;
  private_s = 100 + MYTHREAD;
  for (int i = 0; i < N * THREADS; i++)
    if (i % THREADS == MYTHREAD) a[i] = i * 2;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < THREADS; j++)
      if (((i * THREADS + j) / 3) % THREADS == MYTHREAD) b[i][j] = i * 1000 + j;
  for (int i = MYTHREAD; i < 8 * THREADS; i += THREADS) c[i] = 0.5 * i;
  if (MYTHREAD == 0) for (int i = 0; i < 10; i++) d[i] = i + 7;
  upc_barrier;
  if (counter != 42) bad |= fail("counter initialiser", counter, 42);
  upc_barrier;
  if (MYTHREAD == 0) { counter += 1; counter++; ++counter; }
  upc_barrier;
  if (counter != 45) bad |= fail("counter", counter, 45);
  for (int i = 0; i < N * THREADS; i++) {
    int x = a[i] + 1;
    if (x != i * 2 + 1) bad |= fail("a[i]", x, i * 2 + 1);
  }
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < THREADS; j++)
      if (b[i][j] != i * 1000 + j) bad |= fail("b[i][j]", b[i][j], i * 1000 + j);
  for (int i = 0; i < 8 * THREADS; i++)
    if (c[i] != 0.5 * i) bad |= fail("c[i]", (long)(c[i] * 2), i);
  for (int i = 0; i < 10; i++)
    if (d[i] != i + 7) bad |= fail("d[i]", d[i], i + 7);
  /* affinity as the layouts say */
  for (int i = 0; i < N * THREADS; i++)
    if (upc_threadof(&a[i]) != (size_t)(i % THREADS)) bad |= fail("threadof a", upc_threadof(&a[i]), i % THREADS);
  for (int i = 0; i < 8 * THREADS; i++)
    if (upc_threadof(&c[i]) != (size_t)(i / 8)) bad |= fail("threadof c ([*])", upc_threadof(&c[i]), i / 8);
  if (upc_threadof(&d[9]) != 0) bad |= fail("threadof d", upc_threadof(&d[9]), 0);
  upc_barrier;
  if (MYTHREAD == THREADS - 1) { for (int i = 0; i < N * THREADS; i++) a[i] += 1; a[0]++; --a[1]; }
  upc_barrier;
  if (a[0] != 2) bad |= fail("a[0]", a[0], 2);
  if (a[1] != 2) bad |= fail("a[1]", a[1], 2);
  if (private_g != MYTHREAD) bad |= fail("private global", private_g, MYTHREAD);
  if (private_s != 100 + MYTHREAD) bad |= fail("private static", private_s, 100 + MYTHREAD);
  return bad;
}
