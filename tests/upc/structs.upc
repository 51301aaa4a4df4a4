/* Structs in shared memory, -> and . through pointers-to-shared, shared
 * pointers-to-shared, typedefs of shared types, several declarators, casts
 * between layouts, upc_threadof/phaseof/addrfield/resetphase. */
#include <upc.h>
#include <stdio.h>

struct point { int x; double y; char tag[4]; };
typedef shared [4] int row_t;
typedef shared struct point spoint;

shared struct point pts[3 * THREADS];
spoint one;
row_t rows[4 * THREADS];
shared int *shared sp;           /* a shared pointer-to-shared, on thread 0 */
shared int *shared sps[THREADS]; /* one per thread */
shared int vals[4 * THREADS];
shared int *p, *q;               /* several declarators */
int x1, *x2;

static int bad;
#define CHECK(c) do { if (!(c)) { printf("thread %d: line %d: %s\n", MYTHREAD, __LINE__, #c); bad = 1; } } while (0)

int main(void) {
  upc_forall (int i = 0; i < 3 * THREADS; i++; &pts[i]) {
    pts[i].x = i;
    pts[i].y = i * 0.5;
    pts[i].tag[0] = 'a' + i % 26;
  }
  upc_forall (int i = 0; i < 4 * THREADS; i++; &vals[i]) vals[i] = 100 + i;
  upc_forall (int i = 0; i < 4 * THREADS; i++; &rows[i]) rows[i] = i;
  if (MYTHREAD == 0) {
    one.x = 7;
    (&one)->y = 2.5;
    sp = &vals[1];
  }
  sps[MYTHREAD] = &vals[MYTHREAD];
  upc_barrier;
  for (int i = 0; i < 3 * THREADS; i++) {
    shared struct point *pp = &pts[i];
    CHECK(pp->x == i);
    CHECK((*pp).y == i * 0.5);
    CHECK(pp->tag[0] == 'a' + i % 26);
    CHECK(upc_threadof(pp) == (size_t)(i % THREADS));
    CHECK(upc_threadof(&pp->y) == (size_t)(i % THREADS));
  }
  CHECK(one.x == 7 && one.y == 2.5);
  CHECK(*sp == 101);
  CHECK(sp[1] == 102);
  CHECK(upc_threadof(sp) == (size_t)(1 % THREADS));
  for (int t = 0; t < THREADS; t++) CHECK(*sps[t] == 100 + t);
  p = &vals[2];
  q = p + 1;
  CHECK(*q == 103 && q - p == 1);
  x1 = 1; x2 = &x1;
  CHECK(*x2 == 1);
  /* rows: block 4 */
  for (int i = 0; i < 4 * THREADS; i++) {
    CHECK(rows[i] == i);
    CHECK(upc_threadof(&rows[i]) == (size_t)((i / 4) % THREADS));
    CHECK(upc_phaseof(&rows[i]) == (size_t)(i % 4));
  }
  /* casts between layouts: the same address, phase reset when the block differs */
  shared [4] int *r4 = &rows[1];
  shared int *r1 = (shared int *)r4;
  CHECK(upc_threadof(r1) == upc_threadof(r4));
  CHECK(upc_phaseof(r1) == 0);
  CHECK(upc_addrfield(r1) == upc_addrfield(r4));
  CHECK(*r1 == 1);
  shared void *v = r4;
  shared [4] int *back = (shared [4] int *)v;
  CHECK(upc_phaseof(back) == 1); /* back from shared void: the phase kept */
  CHECK(*back == 1);
  shared [] int *ind = (shared [] int *)&vals[MYTHREAD];
  CHECK(ind[0] == 100 + MYTHREAD);
  CHECK(upc_threadof(ind) == (size_t)MYTHREAD);
  shared [4] int *rp = upc_resetphase(&rows[2]);
  CHECK(upc_phaseof(rp) == 0 && upc_threadof(rp) == upc_threadof(&rows[2]));
  CHECK(upc_phaseof(&rows[2]) == 2);
  /* arrays of structs through a private pointer with local affinity */
  struct point *mine = (struct point *)&pts[MYTHREAD];
  CHECK(mine->x == MYTHREAD);
  upc_barrier;
  /* struct assignment through shared */
  if (MYTHREAD == 0) { struct point tmp = pts[0]; tmp.x = 99; one = tmp; }
  upc_barrier;
  CHECK(one.x == 99 && one.y == 0.0);
  return bad;
}
