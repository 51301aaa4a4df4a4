/* Constructs of the UPC 1.3 specification's examples (our own programs):
 * layouts and pointer arithmetic with phases, upc_threadof / upc_phaseof checked
 * against hand-computed values, upc_all_alloc / upc_global_alloc / upc_alloc
 * with casts, upc_forall forms, locks. */
#include <upc_relaxed.h>
#include <stdio.h>

shared [3] int a3[3 * THREADS * 2];
shared int cyc[4 * THREADS];
shared [] int ind[10];
shared [4] int *shared gp;                 /* set by thread 0, read by all */
shared [] int *shared heads[THREADS];      /* each thread's upc_alloc block */
upc_lock_t *shared lock;                   /* a shared pointer to a lock */
shared int sum;

static int bad;
static void expect(const char *what, long got, long want) {
  if (got != want) {
    printf("thread %d: %s: got %ld, want %ld\n", MYTHREAD, what, got, want);
    bad = 1;
  }
}

int main(void) {
  int i;
  /* shared [3] int *p walking: thread (i / 3) % THREADS, phase i % 3 */
  shared [3] int *p = &a3[0];
  for (i = 0; i < 3 * THREADS * 2; i++, p++) {
    expect("threadof p", upc_threadof(p), (i / 3) % THREADS);
    expect("phaseof p", upc_phaseof(p), i % 3);
    expect("p - a3", p - &a3[0], i);
    expect("&a3[i] == p", &a3[i] == p, 1);
  }
  /* p + 7 from element 2: element 9 */
  p = &a3[2];
  expect("threadof a3+2+7", upc_threadof(p + 7), (9 / 3) % THREADS);
  expect("phaseof a3+2+7", upc_phaseof(p + 7), 0);
  /* cyclic: thread i % THREADS, phase 0 always */
  for (i = 0; i < 4 * THREADS; i++) {
    expect("threadof cyc", upc_threadof(&cyc[i]), i % THREADS);
    expect("phaseof cyc", upc_phaseof(&cyc[i]), 0);
  }
  /* indefinite: all on thread 0, the address field grows by the element size */
  {
    shared [] int *q = ind;
    for (i = 0; i < 10; i++, q++) {
      expect("threadof ind", upc_threadof(q), 0);
      expect("addrfield step", (long)(upc_addrfield(q) - upc_addrfield(ind)), (long)(i * sizeof(int)));
    }
  }
  /* a cast to a different block size resets the phase */
  {
    shared [3] int *r = &a3[4];   /* phase 1 */
    shared int *c = (shared int *)r;
    expect("phase after cast", upc_phaseof(c), 0);
    expect("thread after cast", upc_threadof(c), upc_threadof(r));
    expect("resetphase", upc_phaseof(upc_resetphase(r)), 0);
  }
  /* upc_forall forms: integer, pointer, continue */
  upc_forall (i = 0; i < 4 * THREADS; i++; i) cyc[i] = i;
  upc_barrier;
  upc_forall (i = 0; i < 4 * THREADS; i++; &cyc[i]) cyc[i] += 100;
  upc_barrier;
  upc_forall (i = 0; i < 3 * THREADS * 2; i++; &a3[i]) a3[i] = MYTHREAD;
  upc_barrier;
  for (i = 0; i < 4 * THREADS; i++) expect("cyc", cyc[i], i + 100);
  for (i = 0; i < 3 * THREADS * 2; i++) expect("a3 owner", a3[i], (i / 3) % THREADS);
  {
    int mine = 0;
    upc_forall (i = 0; i < 10; i++; continue) mine++;   /* every thread runs every iteration */
    expect("forall continue", mine, 10);
  }
  upc_barrier;
  /* upc_all_alloc: THREADS blocks of 4 ints, block size 4 */
  {
    shared [4] int *all = (shared [4] int *)upc_all_alloc(THREADS, 4 * sizeof(int));
    int *mine = (int *)&all[4 * MYTHREAD];   /* my block, privatised */
    for (i = 0; i < 4; i++) mine[i] = 10 * MYTHREAD + i;
    upc_barrier;
    for (i = 0; i < 4 * THREADS; i++) expect("all_alloc", all[i], 10 * (i / 4) + i % 4);
    expect("all_alloc threadof", upc_threadof(&all[4 * THREADS - 1]), THREADS - 1);
    upc_barrier;
    if (MYTHREAD == 0) upc_free(all);
  }
  /* upc_global_alloc by one thread, published through a shared pointer */
  if (MYTHREAD == 0) {
    gp = (shared [4] int *)upc_global_alloc(THREADS, 4 * sizeof(int));
    lock = upc_global_lock_alloc();
    sum = 0;
  }
  upc_barrier;
  {
    shared [4] int *g = gp;
    upc_forall (i = 0; i < 4 * THREADS; i++; &g[i]) g[i] = i * i;
    upc_barrier;
    for (i = 0; i < 4 * THREADS; i++) expect("global_alloc", g[i], i * i);
  }
  /* upc_alloc: memory with affinity to the caller */
  heads[MYTHREAD] = (shared [] int *)upc_alloc(5 * sizeof(int));
  expect("upc_alloc affinity", upc_threadof(heads[MYTHREAD]), MYTHREAD);
  {
    int *local = (int *)heads[MYTHREAD];
    for (i = 0; i < 5; i++) local[i] = MYTHREAD * 5 + i;
  }
  upc_barrier;
  {
    shared [] int *other = heads[(MYTHREAD + 1) % THREADS];
    for (i = 0; i < 5; i++) expect("neighbour's upc_alloc", other[i], ((MYTHREAD + 1) % THREADS) * 5 + i);
  }
  /* a lock protecting a shared update */
  for (i = 0; i < 10; i++) {
    upc_lock(lock);
    sum += 1;
    upc_unlock(lock);
  }
  upc_barrier;
  expect("locked sum", sum, 10 * THREADS);
  upc_barrier;
  upc_free(heads[MYTHREAD]);
  if (MYTHREAD == 0) {
    upc_free(gp);
    upc_lock_free(lock);
  }
  if (!bad && MYTHREAD == 0) printf("spec examples (%d threads): ok\n", THREADS);
  return bad;
}
