/* Constructs met reading the GUPC runtime tests (our own program): a
 * pointer-to-shared used as a truth value (if, while, for, do, ?:, &&, ||, !),
 * the null pointer-to-shared cast to a local pointer (NULL), upc_blocksizeof /
 * upc_elemsizeof / upc_localsizeof without parentheses (`upc_blocksizeof *p`,
 * `upc_elemsizeof a[0]`), upc_poll, block-scope `extern shared` declarations of
 * arrays defined later, `__attribute__((unused))` on shared declarations, and
 * `T shared [B]` with the qualifier after the type. */
#include <upc_strict.h>
#include <stdio.h>
#include <stdlib.h>

#define PER 6

static int bad;
static void expect(const char *what, long got, long want) {
  if (got != want) {
    printf("thread %d: %s: got %ld, want %ld\n", MYTHREAD, what, got, want);
    bad = 1;
  }
}

static void fill(void) {
  extern shared int later[PER * THREADS];        /* defined below */
  extern shared long later2[PER][THREADS];
  int k;
  for (k = MYTHREAD; k < PER * THREADS; k += THREADS) later[k] = 5 * k + 1;
  for (k = 0; k < PER; k++) later2[k][MYTHREAD] = k * 100 + MYTHREAD;
}

shared int later[PER * THREADS];
shared long later2[PER][THREADS];
shared double unused_d __attribute__ ((unused));
long shared [4] blocked[8 * THREADS];
struct pair { int a, b; };
shared [10] struct pair *p10;
shared int *shared chain_head;
shared int cells[THREADS];

int main(void) {
  int shared *none = 0;
  shared int *some = &cells[MYTHREAD];
  long shared [4] *q0, *q1;
  int n = 0, k;

  fill();
  upc_barrier;
  /* truth values */
  if (none) expect("if (null)", 1, 0);
  if (some) n++;
  expect("if (p)", n, 1);
  expect("?: null", none ? 1 : 2, 2);
  expect("?: p", some ? 1 : 2, 1);
  expect("&&", some && !none, 1);
  expect("||", none || some, 1);
  expect("|| both null", none || none, 0);
  expect("!!p", !!some, 1);
  n = 0;
  for (shared int *p = some; p; p = 0) n++;
  expect("for (;p;)", n, 1);
  n = 0;
  while (some && n < 3) n++;
  expect("while (p && ...)", n, 3);
  n = 0;
  do n++; while (none);
  expect("do while (null)", n, 1);
  /* null pointer-to-shared cast to local */
  expect("(int *)null", (int *)none == NULL, 1);
  expect("0 != (int *)null", 0 != (int *)none, 0);
  expect("(double *)(shared void *)0", (double *)((shared void *)0) == NULL, 1);
  expect("(int *)p local", (int *)some == (int *)&cells[MYTHREAD], 1);
  *(int *)some = 40 + MYTHREAD;
  /* operators without parentheses */
  expect("upc_blocksizeof *p10", upc_blocksizeof *p10, 10);
  expect("upc_elemsizeof *p10", upc_elemsizeof *p10, sizeof(struct pair));
  expect("upc_blocksizeof blocked", upc_blocksizeof blocked, 4);
  expect("upc_elemsizeof blocked[1]", upc_elemsizeof blocked[1], sizeof(long));
  expect("upc_localsizeof later", upc_localsizeof later, PER * sizeof(int));
  /* qualifier after the type, blocked pointer difference */
  q0 = &blocked[1];
  q1 = &blocked[4 * THREADS + 3];
  expect("q1 - q0", q1 - q0, 4 * THREADS + 2);
  upc_poll();
  upc_barrier;
  if (MYTHREAD == 0) chain_head = &cells[THREADS - 1];
  upc_barrier;
  expect("chain_head", chain_head ? *chain_head : -1, 40 + THREADS - 1);
  for (k = 0; k < PER * THREADS; k++) expect("later", later[k], 5 * k + 1);
  for (k = 0; k < PER; k++)
    for (int t = 0; t < THREADS; t++) expect("later2", later2[k][t], k * 100 + t);
  upc_barrier;
  if (bad) return 1;
  if (MYTHREAD == 0) printf("gupc_conditions: passed\n");
  return 0;
}
