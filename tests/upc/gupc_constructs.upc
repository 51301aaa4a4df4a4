/* Constructs that the GUPC runtime tests and NPB-UPC IS use (our own program):
 * private global pointers-to-shared set from upc_all_alloc, a shared array of
 * pointers-to-shared in the shared heap (`shared int *shared *`), casts of
 * `p + MYTHREAD` to private pointers, pointer-to-shared arithmetic in upc_memget
 * arguments, shared struct arrays with pointer-to-shared members (a list across
 * threads), shared [] walking, arrays of locks and upc_lock_attempt, a strict
 * flag, upc_barrier with an expression, upc_localsizeof, sizeof with THREADS,
 * upc_forall with `continue`. */
#include <upc_relaxed.h>
#include <stdio.h>
#include <stdlib.h>

#define NB 6

typedef int INT_TYPE;
typedef struct { int count; int displ; } send_info;

shared INT_TYPE *bucket_shd;               /* private pointer-to-shared, global */
INT_TYPE *bucket;                           /* my part of it, privatised */
shared send_info infos_shd[4][THREADS];
shared int passed_shd[THREADS];
upc_lock_t *shared locks[THREADS];
strict shared int flag;
shared int data;
shared int owner_count[THREADS];

struct node { int value; shared struct node *next; };
shared struct node nodes[THREADS];

static int bad;
static void expect(const char *what, long got, long want) {
  if (got != want) {
    printf("thread %d: %s: got %ld, want %ld\n", MYTHREAD, what, got, want);
    bad = 1;
  }
}

/* A tree reduction over THREADS buffers, as NPB IS does it. */
static void reduced_sum(shared INT_TYPE *buffer, size_t size) {
  shared INT_TYPE *shared *ptrs;
  INT_TYPE *local = malloc(size * sizeof(INT_TYPE)), *lp = (INT_TYPE *)buffer;
  int step;
  ptrs = (shared INT_TYPE *shared *)upc_all_alloc(THREADS, sizeof(shared INT_TYPE *));
  ptrs[MYTHREAD] = buffer;
  upc_barrier;
  upc_forall (step = 1; step < THREADS; step <<= 1; continue) {
    if (MYTHREAD % (step << 1) == 0 && MYTHREAD + step < THREADS) {
      upc_memget(local, ptrs[MYTHREAD + step], size * sizeof(INT_TYPE));
      for (size_t k = 0; k < size; k++) lp[k] += local[k];
    }
    upc_barrier;
  }
  if (MYTHREAD == 0) upc_free(ptrs);
  free(local);
}

int main(void) {
  int i;
  /* NPB IS style: cyclic buffers, my elements are bucket_shd[MYTHREAD + k*THREADS] */
  bucket_shd = (shared INT_TYPE *)upc_all_alloc(NB * THREADS, sizeof(INT_TYPE));
  expect("shared [1] block of NB*THREADS on thread", upc_threadof(bucket_shd + MYTHREAD), MYTHREAD);
  upc_barrier;
  {
    shared [NB] INT_TYPE *blocked = (shared [NB] INT_TYPE *)upc_all_alloc(THREADS, NB * sizeof(INT_TYPE));
    bucket = (INT_TYPE *)(blocked + MYTHREAD * NB);
    for (i = 0; i < NB; i++) bucket[i] = i + MYTHREAD;
    reduced_sum((shared INT_TYPE *)(blocked + MYTHREAD * NB), NB);
    upc_barrier;
    if (MYTHREAD == 0)
      for (i = 0; i < NB; i++) expect("reduced sum", bucket[i], THREADS * i + THREADS * (THREADS - 1) / 2);
    upc_barrier;
    if (MYTHREAD == 0) upc_free(blocked);
  }
  /* arithmetic inside upc_memget arguments */
  for (i = 0; i < NB; i++) bucket_shd[MYTHREAD + i * THREADS] = 100 * MYTHREAD + i;
  upc_barrier;
  {
    int other = (MYTHREAD + 1) % THREADS, v;
    for (i = 0; i < NB; i++) {
      upc_memget(&v, bucket_shd + other + i * THREADS, sizeof(int));
      expect("memget of p + i", v, 100 * other + i);
    }
  }
  /* a struct array, privatised through &a[0][MYTHREAD] */
  {
    send_info *mine = (send_info *)&infos_shd[0][MYTHREAD];
    send_info got;
    mine->count = MYTHREAD;
    mine->displ = 2 * MYTHREAD;
    upc_barrier;
    for (i = 0; i < THREADS; i++) {
      upc_memget(&got, &infos_shd[0][i], sizeof(send_info));
      expect("infos count", got.count, i);
      expect("infos displ", got.displ, 2 * i);
    }
  }
  /* passed_verification pointer into a shared array */
  {
    int *passed = (int *)(passed_shd + MYTHREAD);
    *passed = 0;
    (*passed)++;
    upc_barrier;
    if (MYTHREAD == 0) {
      int total = *passed;
      for (i = 1; i < THREADS; i++) total += passed_shd[i];
      expect("passed", total, THREADS);
    }
  }
  /* a list through shared struct members */
  nodes[MYTHREAD].value = MYTHREAD * 3;
  nodes[MYTHREAD].next = MYTHREAD + 1 < THREADS ? &nodes[MYTHREAD + 1] : NULL;
  upc_barrier;
  {
    int n = 0, s = 0;
    for (shared struct node *p = &nodes[0]; p != NULL; p = p->next) {
      s += p->value;
      n++;
    }
    expect("list length", n, THREADS);
    expect("list sum", s, 3 * THREADS * (THREADS - 1) / 2);
  }
  /* shared [] walking over heap memory on one thread */
  {
    shared [] int *row = (shared [] int *)upc_all_alloc(1, 8 * sizeof(int));
    if (MYTHREAD == 0)
      for (i = 0; i < 8; i++) row[i] = i * 2;
    upc_barrier;
    shared [] int *w = row;
    for (i = 0; i < 8; i++, w++) {
      expect("shared [] walk", *w, i * 2);
      expect("shared [] thread", upc_threadof(w), 0);
    }
    upc_barrier;
    if (MYTHREAD == 0) upc_free(row);
  }
  /* an array of locks: each thread's own, taken by everyone */
  locks[MYTHREAD] = upc_global_lock_alloc();
  upc_barrier;
  for (i = 0; i < THREADS; i++) {
    while (!upc_lock_attempt(locks[i])) ;
    owner_count[i] += 1;
    upc_unlock(locks[i]);
  }
  upc_barrier;
  expect("owner_count", owner_count[MYTHREAD], THREADS);
  /* a strict flag: data written before the flag is seen after it */
  if (MYTHREAD == 0) {
    data = 42;
    flag = 1;
  } else {
    while (flag == 0) ;
    expect("data after strict flag", data, 42);
  }
  upc_barrier 7;
  upc_barrier MYTHREAD * 0 + 3;
  /* sizes */
  expect("sizeof infos_shd", sizeof(infos_shd), 4 * THREADS * sizeof(send_info));
  expect("upc_localsizeof passed_shd", upc_localsizeof(passed_shd), sizeof(int));
  expect("upc_blocksizeof", upc_blocksizeof(infos_shd), 1);
  upc_barrier;
  upc_lock_free(locks[MYTHREAD]);
  if (!bad && MYTHREAD == 0) printf("gupc constructs (%d threads): ok\n", THREADS);
  return bad;
}
