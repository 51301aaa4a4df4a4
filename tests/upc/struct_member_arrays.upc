/* Array members of shared structs: a shared struct lies whole on one thread, so
 * indexing its array members steps bytes within the struct (never threads):
 * p[t].v[i].f through a pointer from upc_all_alloc, s.m[i][j] (2-D member),
 * q->v[i] through a pointer into a `shared []` arena, and an element of a
 * shared array of such structs.  Checked by reading through a local pointer
 * (the layout must be the C layout) and under --check. */
#include <upc.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct { double re, im; } pair_t;
struct box { int tag; pair_t v[16]; };
struct grid { short m[3][5]; char c; };

shared struct box *boxes;
shared struct grid grids[THREADS];
shared [] struct box arena[2];

static int fails;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%d: %s:%d: %s\n", \
  MYTHREAD, __FILE__, __LINE__, #cond); fails++; } } while (0)

int main(void) {
  int i, j;
  boxes = (shared struct box *)upc_all_alloc(THREADS, sizeof(struct box));
  boxes[MYTHREAD].tag = MYTHREAD;
  for (i = 0; i < 16; ++i) {
    boxes[MYTHREAD].v[i].re = MYTHREAD * 100 + i;
    boxes[MYTHREAD].v[i].im = -boxes[MYTHREAD].v[i].re;
  }
  for (i = 0; i < 3; ++i)
    for (j = 0; j < 5; ++j)
      grids[MYTHREAD].m[i][j] = (short)(MYTHREAD * 1000 + i * 10 + j);
  grids[MYTHREAD].c = 'a' + MYTHREAD;
  if (MYTHREAD == 0) {
    shared [] struct box *q = &arena[1];
    for (i = 0; i < 16; ++i) { q->v[i].re = i; q->v[15 - i].im = i * 2; }
  }
  upc_barrier;
  {
    /* the local view of my own elements: C's layout */
    struct box *lb = (struct box *)&boxes[MYTHREAD];
    struct grid *lg = (struct grid *)&grids[MYTHREAD];
    CHECK(lb->tag == MYTHREAD);
    for (i = 0; i < 16; ++i) CHECK(lb->v[i].re == MYTHREAD * 100 + i && lb->v[i].im == -(MYTHREAD * 100 + i));
    for (i = 0; i < 3; ++i)
      for (j = 0; j < 5; ++j) CHECK(lg->m[i][j] == MYTHREAD * 1000 + i * 10 + j);
    CHECK(lg->c == 'a' + MYTHREAD);
  }
  {
    /* every thread reads its neighbour's through the shared view */
    int t = (MYTHREAD + 1) % THREADS;
    for (i = 0; i < 16; ++i) CHECK(boxes[t].v[i].re == t * 100 + i);
    CHECK(grids[t].m[2][4] == t * 1000 + 24);
    CHECK(upc_threadof(&boxes[t].v[7]) == (size_t)t);
    for (i = 0; i < 16; ++i) CHECK(arena[1].v[i].re == i && arena[1].v[i].im == (15 - i) * 2);
  }
  upc_barrier;
  if (fails) return 1;
  if (MYTHREAD == 0) printf("struct_member_arrays: passed\n");
  return 0;
}
