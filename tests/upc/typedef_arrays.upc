/* Shared arrays declared through typedef names take their dimensions from the
 * typedefs (`typedef shared int V[8]; V v;`): before, the object was made with
 * one element, so every index past 0 wrote outside its storage (no report
 * without --check) and a [*] typedef's object had a block of 1. Checked: the
 * size, the layout (upc_threadof of each element, upc_blocksizeof,
 * upc_localsizeof), and every element written and read back. (A typedef
 * with THREADS in a dimension needs upcc -T, as gcc says.) */
#include <upc.h>
#include <stdio.h>

typedef shared int V[32];
typedef int Row[4];
typedef shared [*] Row Star[4];           /* [*] over 16 ints */
typedef shared [3] double Blocked[5][4];
typedef V VV;                              /* a typedef of a typedef */

V v;
Star star;
Blocked blocked;
VV vv;
V two[2];                                  /* declarator dimensions and the typedef's */
shared int guard[THREADS];                 /* declared after them: must stay intact */

static int fails;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%d: %s:%d: %s\n", \
  MYTHREAD, __FILE__, __LINE__, #cond); fails++; } } while (0)

int main(void) {
  int i, j;
  guard[MYTHREAD] = 1000 + MYTHREAD;
  upc_forall (i = 0; i < 32; i++; &v[i]) { v[i] = i; vv[i] = -i; two[0][i] = 2 * i; two[1][i] = 3 * i; }
  upc_forall (i = 0; i < 4; i++; &star[i][0]) for (j = 0; j < 4; j++) star[i][j] = 10 * i + j;
  for (i = 0; i < 5; i++) upc_forall (j = 0; j < 4; j++; &blocked[i][j]) blocked[i][j] = i + 0.5 * j;
  upc_barrier;
  CHECK(sizeof(v) == 32 * sizeof(int));
  CHECK(upc_localsizeof(v) == (32 + THREADS - 1) / THREADS * sizeof(int));
  CHECK(upc_blocksizeof(star) == (16 + THREADS - 1) / THREADS);
  CHECK(upc_blocksizeof(blocked) == 3);
  for (i = 0; i < 32; i++) {
    CHECK(v[i] == i); CHECK(vv[i] == -i); CHECK(two[0][i] == 2 * i); CHECK(two[1][i] == 3 * i);
    CHECK(upc_threadof(&v[i]) == (size_t)(i % THREADS));
  }
  for (i = 0; i < 4; i++)
    for (j = 0; j < 4; j++) {
      CHECK(star[i][j] == 10 * i + j);
      CHECK(upc_threadof(&star[i][j]) == (size_t)((4 * i + j) / upc_blocksizeof(star)) % THREADS);
    }
  for (i = 0; i < 5; i++)
    for (j = 0; j < 4; j++) {
      CHECK(blocked[i][j] == i + 0.5 * j);
      CHECK(upc_threadof(&blocked[i][j]) == (size_t)((i * 4 + j) / 3) % THREADS);
    }
  for (i = 0; i < THREADS; i++) CHECK(guard[i] == 1000 + i);
  upc_barrier;
  if (fails) return 1;
  if (MYTHREAD == 0) printf("typedef_arrays: ok\n");
  return 0;
}
