/* A UPC program kept in a .c file (UPC by default, as NPB-UPC's is.c; the test
   gives -x upc all the same) linked with a plain C file that follows `-x c`
   (upc_in_c_helper.c, compiled as C). Built with -T N: THREADS in #if.
   Also the idioms of NPB-UPC IS on memory from upc_all_alloc (our own code):
   the privatised part of a cyclic array, upc_memget of one thread's run of
   it, per-thread descriptors written through a private pointer into a
   [THREADS][THREADS] array and read back by upc_memget, a tree sum through a
   shared array of pointers-to-shared, a upc_forall with `continue`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <upc.h>
#include <upc_relaxed.h>

#ifndef __UPC__
#error "upc_in_c_file.c must be compiled as UPC (upcc -x upc)"
#endif
#define PER 40
#if THREADS < 256
#define CAP (3 * PER / 2)
#else
#define CAP (3 * PER)
#endif

long helper_checksum(const int *v, int n);  /* upc_in_c_helper.c */
int helper_is_plain_c(void);

typedef struct { int count; int displ; } desc_t;
shared desc_t descs[THREADS][THREADS];
shared int *cyc;     /* upc_all_alloc(CAP * THREADS, sizeof(int)): cyclic */
shared int *sums;    /* CAP per thread, cyclic too */
int *mine;           /* this thread's elements of cyc, privatised */
int errors;

static int value(int t, int k) { return t * 1000 + k; }

static void tree_sum(shared int *buf, size_t n) {
  shared int *shared *ptrs = (shared int *shared *)upc_all_alloc(THREADS, sizeof(shared int *));
  int *tmp = malloc(n * sizeof(int));
  int *lp = (int *)buf;
  int step;
  ptrs[MYTHREAD] = buf;
  upc_barrier;
  upc_forall (step = 1; step < THREADS; step <<= 1; continue) {
    if (!(MYTHREAD % (step << 1)) && MYTHREAD + step < THREADS) {
      upc_memget(tmp, ptrs[MYTHREAD + step], n * sizeof(int));
      for (size_t i = 0; i < n; i++) lp[i] += tmp[i];
    }
    upc_barrier;
  }
  if (MYTHREAD == 0) upc_free(ptrs);
  free(tmp);
}

int main(int argc, char **argv) {
  int buf[CAP];
  desc_t got[THREADS];
  (void)argc; (void)argv;
  cyc = (shared int *)upc_all_alloc(CAP * THREADS, sizeof(int));
  sums = (shared int *)upc_all_alloc(CAP * THREADS, sizeof(int));
  mine = (int *)(cyc + MYTHREAD);
  for (int k = 0; k < CAP; k++) mine[k] = value(MYTHREAD, k);
  desc_t *my_descs = (desc_t *)&descs[0][MYTHREAD];  /* descs[j][MYTHREAD], j = 0.. */
  for (int j = 0; j < THREADS; j++) {
    my_descs[j].count = (MYTHREAD + j) % 5 + 1;
    my_descs[j].displ = j;
  }
  int *my_sums = (int *)(sums + MYTHREAD);
  memset(my_sums, 0, CAP * sizeof(int));
  for (int k = 0; k < CAP; k++) my_sums[k] = MYTHREAD + k;
  upc_barrier;
  for (int t = 0; t < THREADS; t++)
    for (int k = 0; k < CAP; k++)
      if (cyc[k * THREADS + t] != value(t, k)) errors++;
  for (int i = 0; i < THREADS; i++)   /* descs[MYTHREAD][i]: what thread i wrote for me */
    upc_memget(&got[i], &descs[MYTHREAD][i], sizeof(desc_t));
  for (int i = 0; i < THREADS; i++)
    if (got[i].count != (i + MYTHREAD) % 5 + 1 || got[i].displ != MYTHREAD) errors++;
  for (int t = 0; t < THREADS; t++) {   /* thread t's elements displ..displ+count-1 */
    int d = got[t].displ, c = got[t].count;
    upc_memget(buf, cyc + t + d * THREADS, c * sizeof(int));
    int want[CAP];
    for (int k = 0; k < c; k++) want[k] = value(t, d + k);
    if (helper_checksum(buf, c) != helper_checksum(want, c) || memcmp(buf, want, c * sizeof(int))) errors++;
  }
  upc_barrier;
  tree_sum(sums + MYTHREAD, CAP);
  if (MYTHREAD == 0)
    for (int k = 0; k < CAP; k++)
      if (my_sums[k] != THREADS * (THREADS - 1) / 2 + THREADS * k) errors++;
  if (!helper_is_plain_c()) errors++;
  upc_barrier;
  if (errors) printf("thread %d: %d errors\n", MYTHREAD, errors);
  else if (MYTHREAD == 0) printf("upc_in_c_file: ok at %d threads\n", THREADS);
  return errors != 0;
}
