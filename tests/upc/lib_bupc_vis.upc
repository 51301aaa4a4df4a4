/* Berkeley's vector, indexed and strided copies (VIS) and bupc_exit, from a UPC
 * program (tools/upcc/include/bupc_extensions.h): every form, shared to shared,
 * private to shared and shared to private, between this thread and its right
 * neighbour, each result checked against the bytes a loop computes; the
 * _async forms return a complete handle; Berkeley's upc_ spellings
 * (BUPC_USE_UPC_NAMESPACE, as its benchmarks/memcpy_async.upc uses them). */
#define BUPC_USE_UPC_NAMESPACE 1
#include <stdio.h>
#include <string.h>
#include <upc.h>

#define N 64
shared [N] int src[N * THREADS]; /* src[t*N + i] = 1000 t + i */
shared [N] int dst[N * THREADS];

static int errors = 0;
#define CHECK(c)                                                             \
  do {                                                                       \
    if (!(c)) {                                                              \
      printf("thread %d: line %d: %s failed\n", MYTHREAD, __LINE__, #c);     \
      errors++;                                                              \
    }                                                                        \
  } while (0)

static int right(void) { return (MYTHREAD + 1) % THREADS; }
static void clear_mine(void) {
  for (int i = 0; i < N; i++) dst[MYTHREAD * N + i] = -1;
}
/* The ints of dst on thread t, as a private copy. */
static void fetch(int t, int *out) { upc_memget(out, &dst[t * N], N * sizeof(int)); }

int main(void) {
  const int r = right();
  int got[N], want[N], local[N];
  for (int i = 0; i < N; i++) src[MYTHREAD * N + i] = 1000 * MYTHREAD + i;

  /* vlist, shared to shared: my dst[0..4) and dst[10..16) from the right
   * neighbour's src[3..8) and src[20..25) (10 bytes in, 10 out) */
  clear_mine();
  upc_barrier;
  {
    bupc_smemvec_t d[2] = {{&dst[MYTHREAD * N], 4 * sizeof(int)}, {&dst[MYTHREAD * N + 10], 6 * sizeof(int)}};
    bupc_smemvec_t s[2] = {{&src[r * N + 3], 5 * sizeof(int)}, {&src[r * N + 20], 5 * sizeof(int)}};
    bupc_memcpy_vlist(2, d, 2, s);
  }
  fetch(MYTHREAD, got);
  for (int i = 0; i < N; i++) want[i] = -1;
  {
    int k = 0, from[10];
    for (int i = 3; i < 8; i++) from[k++] = 1000 * r + i;
    for (int i = 20; i < 25; i++) from[k++] = 1000 * r + i;
    for (int i = 0; i < 4; i++) want[i] = from[i];
    for (int i = 0; i < 6; i++) want[10 + i] = from[4 + i];
  }
  CHECK(memcmp(got, want, sizeof got) == 0);

  /* vlist, private to shared (async, upc_ spelling) and shared to private */
  upc_barrier;
  clear_mine();
  upc_barrier;
  for (int i = 0; i < N; i++) local[i] = 7 * i + MYTHREAD;
  {
    upc_smemvec_t d[1] = {{&dst[r * N + 8], 12 * sizeof(int)}};
    upc_pmemvec_t s[3] = {{&local[0], 4 * sizeof(int)}, {&local[30], 4 * sizeof(int)}, {&local[50], 4 * sizeof(int)}};
    upc_handle_t h = upc_memput_vlist_async(1, d, 3, s);
    CHECK(h == BUPC_COMPLETE_HANDLE);
    upc_waitsync(h);
  }
  upc_barrier;
  {
    const int l = (MYTHREAD + THREADS - 1) % THREADS; /* who wrote into mine */
    int mine[12];
    bupc_pmemvec_t d[2] = {{&mine[0], 5 * sizeof(int)}, {&mine[5], 7 * sizeof(int)}};
    bupc_smemvec_t s[1] = {{&dst[MYTHREAD * N + 8], 12 * sizeof(int)}};
    bupc_memget_vlist(2, d, 1, s);
    for (int i = 0; i < 12; i++) {
      const int j = i < 4 ? i : i < 8 ? 30 + i - 4 : 50 + i - 8;
      CHECK(mine[i] == 7 * j + l);
    }
  }

  /* ilist: three pieces of 2 ints from two pieces of 3 ints */
  upc_barrier;
  clear_mine();
  upc_barrier;
  {
    shared void *d[3] = {&dst[MYTHREAD * N], &dst[MYTHREAD * N + 10], &dst[MYTHREAD * N + 20]};
    shared const void *s[2] = {&src[r * N + 1], &src[r * N + 40]};
    bupc_memcpy_ilist(3, d, 2 * sizeof(int), 2, s, 3 * sizeof(int));
    fetch(MYTHREAD, got);
    const int from[6] = {1000 * r + 1, 1000 * r + 2, 1000 * r + 3, 1000 * r + 40, 1000 * r + 41, 1000 * r + 42};
    CHECK(got[0] == from[0] && got[1] == from[1] && got[10] == from[2] && got[11] == from[3] && got[20] == from[4] &&
          got[21] == from[5] && got[2] == -1 && got[12] == -1);
    int a[3], b[3];
    void *pd[2] = {a, b};
    shared const void *ps[1] = {&src[r * N + 10]};
    upc_handle_t h = bupc_memget_ilist_async(2, pd, 3 * sizeof(int), 1, ps, 6 * sizeof(int));
    bupc_waitsync(h);
    for (int i = 0; i < 3; i++) CHECK(a[i] == 1000 * r + 10 + i && b[i] == 1000 * r + 13 + i);
    const void *qs[2] = {a, b};
    shared void *qd[1] = {&dst[r * N + 30]};
    upc_barrier;
    bupc_memput_ilist(1, qd, 6 * sizeof(int), 2, qs, 3 * sizeof(int));
    upc_barrier;
    /* the left neighbour put its copy of my src[10..16) there */
    for (int i = 0; i < 6; i++) CHECK(dst[MYTHREAD * N + 30 + i] == 1000 * MYTHREAD + 10 + i);
  }

  /* fstrided: every fourth int (chunks of 1 int, stride 4 ints) into chunks of 2 */
  upc_barrier;
  clear_mine();
  upc_barrier;
  bupc_memcpy_fstrided(&dst[MYTHREAD * N], 2 * sizeof(int), 3 * sizeof(int), 4, &src[r * N], sizeof(int),
                       4 * sizeof(int), 8);
  fetch(MYTHREAD, got);
  for (int c = 0; c < 4; c++)
    for (int k = 0; k < 2; k++) CHECK(got[3 * c + k] == 1000 * r + 4 * (2 * c + k));
  CHECK(got[2] == -1);
  {
    int column[8];
    upc_memget_fstrided(column, sizeof(int), sizeof(int), 8, &src[r * N + 1], sizeof(int), 8 * sizeof(int), 8);
    for (int k = 0; k < 8; k++) CHECK(column[k] == 1000 * r + 1 + 8 * k);
    upc_barrier;
    clear_mine();
    upc_barrier;
    bupc_memput_fstrided(&dst[r * N], sizeof(int), 2 * sizeof(int), 8, column, 4 * sizeof(int), 4 * sizeof(int), 2);
    upc_barrier;
    const int l = (MYTHREAD + THREADS - 1) % THREADS, lr = (l + 1) % THREADS;
    for (int k = 0; k < 8; k++) CHECK(dst[MYTHREAD * N + 2 * k] == 1000 * lr + 1 + 8 * k);
  }

  /* strided: a 3 x 4 block of ints out of an 8-wide row-major matrix and back */
  upc_barrier;
  clear_mine();
  upc_barrier;
  {
    size_t count[3] = {2 * sizeof(int), 2, 3}; /* 2 ints, 2 times 4 ints apart, 3 times 8 ints apart */
    size_t sstr[2] = {4 * sizeof(int), 8 * sizeof(int)};
    size_t dstr[2] = {2 * sizeof(int), 4 * sizeof(int)};
    int block[12];
    bupc_memget_strided(block, dstr, &src[r * N + 9], sstr, count, 2);
    for (int row = 0; row < 3; row++)
      for (int rep = 0; rep < 2; rep++)
        for (int k = 0; k < 2; k++) CHECK(block[4 * row + 2 * rep + k] == 1000 * r + 9 + 8 * row + 4 * rep + k);
    upc_memcpy_strided_async(&dst[MYTHREAD * N], dstr, &src[r * N + 9], sstr, count, 2);
    fetch(MYTHREAD, got);
    CHECK(memcmp(got, block, sizeof block) == 0);
    upc_barrier;
    clear_mine();
    upc_barrier;
    bupc_memput_strided(&dst[r * N + 9], sstr, block, dstr, count, 2);
    upc_barrier;
    fetch(MYTHREAD, got);
    const int l = (MYTHREAD + THREADS - 1) % THREADS, lr = (l + 1) % THREADS;
    for (int row = 0; row < 3; row++)
      for (int rep = 0; rep < 2; rep++)
        for (int k = 0; k < 2; k++) {
          const int at = 9 + 8 * row + 4 * rep + k;
          CHECK(got[at] == 1000 * lr + at);
        }
    CHECK(got[8] == -1 && got[11] == -1);
  }

  upc_barrier;
  if (MYTHREAD == 0 && errors == 0) printf("lib_bupc_vis: passed\n");
  bupc_exit(errors != 0);
  printf("thread %d: bupc_exit returned\n", MYTHREAD);
  return 1;
}
