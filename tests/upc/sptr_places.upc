/* Issue 26, defect 1: a pointer-to-shared value used where it lives: in shared
 * memory (a directory of per-thread buffers, `shared [] int *shared dir[THREADS]`,
 * the main idiom of whole test suites; `shared int *shared cyc[THREADS]`), in a
 * member of a shared struct, in a private struct, returned by a function, and
 * then indexed, dereferenced, offset, compared, incremented. `dir[t][j]` is
 * *(dir[t] + j) with dir[t] the pointer value; upcc once treated it as a 2-D
 * array and wrote into dir itself (21 of 32 wrong at THREADS 4, exit 0).
 * Every expected value below follows from UPC 1.3 6.4.2 by hand. */
#include <upc.h>
#include <stdio.h>

#define N 8

shared [] int *shared dir[THREADS];   /* per-thread buffers from upc_alloc */
shared int *shared cyc[THREADS];      /* the same cyclic array, one entry per thread */
shared [3] long *shared blk;          /* one blocked array, published by thread 0 */
shared int *shared walkers[THREADS];  /* pointers-to-shared stepped where they live */
upc_lock_t *shared locks[THREADS];    /* a directory of locks (upc_lock_t * is a pointer-to-shared) */
shared int counters[THREADS];

struct node {
  shared [] int *data;
  int n;
  shared struct node *next;
};
shared struct node nodes[THREADS];

struct holder {
  shared int *p;
  shared [] int *q[2];
};

static int bad;
#define CHECK(c) do { if (!(c)) { printf("thread %d: line %d: %s\n", MYTHREAD, __LINE__, #c); bad = 1; } } while (0)

shared [] int *buffer_of(int t) { return dir[t]; }
/* a private pointer to a pointer-to-shared that lives in shared memory */
shared [] int *shared *entry_of(int t) { return &dir[t]; }
int read_at(shared [] int *p, int j) { return p[j]; }

int main(void) {
  int t, j, i;
  dir[MYTHREAD] = (shared [] int *)upc_alloc(N * sizeof(int));
  cyc[MYTHREAD] = (shared int *)upc_all_alloc(N * THREADS, sizeof(int));
  if (MYTHREAD == 0) blk = (shared [3] long *)upc_global_alloc(2 * THREADS, 3 * sizeof(long));
  locks[MYTHREAD] = upc_global_lock_alloc();
  upc_barrier;
  for (j = 0; j < N; j++) dir[MYTHREAD][j] = MYTHREAD * 100 + j;
  for (i = MYTHREAD; i < N * THREADS; i += THREADS) cyc[MYTHREAD][i] = i * 7;
  nodes[MYTHREAD].data = dir[MYTHREAD];
  nodes[MYTHREAD].n = N;
  nodes[MYTHREAD].next = &nodes[(MYTHREAD + 1) % THREADS];
  if (MYTHREAD == 0)
    for (i = 0; i < 6 * THREADS; i++) blk[i] = 3L * i;
  upc_barrier;

  /* the directory, through every form */
  for (t = 0; t < THREADS; t++) {
    CHECK(upc_threadof(dir[t]) == (size_t)t);
    for (j = 0; j < N; j++) {
      const int want = t * 100 + j;
      CHECK(dir[t][j] == want);
      CHECK(*(dir[t] + j) == want);
      CHECK(j[dir[t]] == want);
      CHECK(buffer_of(t)[j] == want);
      CHECK((*entry_of(t))[j] == want);
      CHECK(entry_of(t)[0][j] == want);
      CHECK(read_at(dir[t], j) == want);
      CHECK(upc_threadof(&dir[t][j]) == (size_t)t);
      CHECK(upc_phaseof(&dir[t][j]) == 0);
      CHECK(&dir[t][j] - dir[t] == j);
      CHECK(dir[t] + j == &dir[t][j]);
      CHECK(j == 0 || &dir[t][j] > dir[t]);
    }
  }
  /* a cyclic array reached through a pointer-to-shared in shared memory */
  for (t = 0; t < THREADS; t++)
    for (i = 0; i < N * THREADS; i++) {
      CHECK(cyc[t][i] == i * 7);
      CHECK(upc_threadof(&cyc[t][i]) == (size_t)(i % THREADS));
      CHECK(upc_phaseof(&cyc[t][i]) == 0);
    }
  /* pointers-to-shared in members of a shared struct: a ring across threads */
  {
    shared struct node *p = &nodes[MYTHREAD];
    int k;
    for (k = 0; k < THREADS; k++) {
      t = (MYTHREAD + k) % THREADS;
      CHECK(upc_threadof(p) == (size_t)t);
      CHECK(p->n == N);
      for (j = 0; j < N; j++) {
        CHECK(p->data[j] == t * 100 + j);
        CHECK((*p).data[j] == t * 100 + j);
        CHECK(nodes[t].data[j] == t * 100 + j);
      }
      p = p->next;
    }
    CHECK(p == &nodes[MYTHREAD]);
  }
  /* pointers-to-shared in a private struct and a private array */
  {
    struct holder h;
    shared [] int *row[2];
    h.p = cyc[0];
    h.q[0] = dir[0];
    h.q[1] = dir[THREADS - 1];
    row[0] = h.q[1];
    row[1] = h.q[0];
    CHECK(h.q[1][N - 1] == (THREADS - 1) * 100 + N - 1);
    CHECK(h.p[THREADS] == THREADS * 7);
    CHECK(row[0][2] == (THREADS - 1) * 100 + 2 && row[1][3] == 3);
    CHECK(*(h.q[0] + 5) == 5);
  }
  /* a blocked array through one shared pointer-to-shared */
  for (i = 0; i < 6 * THREADS; i++) {
    CHECK(blk[i] == 3L * i);
    CHECK(upc_threadof(&blk[i]) == (size_t)((i / 3) % THREADS));
    CHECK(upc_phaseof(&blk[i]) == (size_t)(i % 3));
  }
  /* ++, +=, -- on a pointer-to-shared stored in shared memory */
  walkers[MYTHREAD] = cyc[0];
  walkers[MYTHREAD]++;
  walkers[MYTHREAD] += 2;
  CHECK(walkers[MYTHREAD] == &cyc[0][3]);
  CHECK(*walkers[MYTHREAD] == 21);
  CHECK(walkers[MYTHREAD][1] == 28);
  CHECK(*walkers[MYTHREAD]-- == 21);
  CHECK(*--walkers[MYTHREAD] == 7);
  CHECK(walkers[MYTHREAD] == cyc[0] + 1);
  /* the lock directory: each thread increments its right neighbour's counter */
  CHECK(upc_threadof(locks[MYTHREAD]) == (size_t)MYTHREAD);
  CHECK(locks[MYTHREAD] != NULL);
  upc_lock(locks[(MYTHREAD + 1) % THREADS]);
  counters[(MYTHREAD + 1) % THREADS] += 1;
  upc_unlock(locks[(MYTHREAD + 1) % THREADS]);
  upc_barrier;
  CHECK(counters[MYTHREAD] == 1);
  upc_barrier;
  upc_lock_free(locks[MYTHREAD]);
  upc_free(dir[MYTHREAD]);
  if (MYTHREAD == 0) { upc_free(cyc[0]); upc_free(blk); }
  return bad;
}
