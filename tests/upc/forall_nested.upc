/* Nested upc_forall (UPC 1.3 §6.6.2: inside a controlling upc_forall, an inner
 * one runs every iteration, also in a called function), pointer-to-shared
 * affinity p + i, and break / continue / goto out of a upc_forall body. */
#include <upc.h>
#include <stdio.h>

#define N 4
shared int grid[N * THREADS][N];
shared [N] int rows[N * THREADS];
shared int cnt[THREADS];

static int bad;
#define CHECK(c) do { if (!(c)) { printf("thread %d: line %d: %s\n", MYTHREAD, __LINE__, #c); bad = 1; } } while (0)

/* called from a controlling upc_forall: runs all N iterations */
static int inner(void) {
  int n = 0;
  upc_forall (int j = 0; j < N; j++; j) n++;
  return n;
}

int main(void) {
  /* outer by rows (integer affinity), inner runs all columns */
  upc_forall (int i = 0; i < N * THREADS; i++; i) {
    int n = 0;
    upc_forall (int j = 0; j < N; j++; &grid[0][j]) { grid[i][j] = i * 100 + j; n++; }
    CHECK(n == N);
    CHECK(inner() == N);
  }
  /* outside any upc_forall the same function distributes */
  int mine = inner();
  CHECK(mine == (N / THREADS) + (MYTHREAD < N % THREADS));
  /* an outer loop with empty affinity does not control: the inner distributes */
  upc_forall (int r = 0; r < 2; r++; ) {
    int n = 0;
    upc_forall (int j = 0; j < N * THREADS; j++; j) n++;
    CHECK(n == N);
  }
  upc_barrier;
  for (int i = 0; i < N * THREADS; i++)
    for (int j = 0; j < N; j++) CHECK(grid[i][j] == i * 100 + j);
  /* pointer-to-shared affinity p + i */
  shared [N] int *p = rows;
  upc_forall (int i = 0; i < N * THREADS; i++; p + i) {
    CHECK(upc_threadof(p + i) == (size_t)MYTHREAD);
    rows[i] = i;
  }
  upc_barrier;
  for (int i = 0; i < N * THREADS; i++) CHECK(rows[i] == i);
  /* break, continue, goto out of the body; afterwards, loops distribute again */
  int seen = 0;
  upc_forall (int i = 0; i < N * THREADS; i++; i) {
    if (i >= THREADS) break;
    seen++;
  }
  CHECK(seen == 1);
  upc_forall (int i = 0; i < N * THREADS; i++; &rows[i]) {
    if (i % N == 0) continue;
    cnt[MYTHREAD] += 1;
  }
  CHECK(cnt[MYTHREAD] == N - 1);
  upc_forall (int i = 0; i < N * THREADS; i++; i) {
    upc_forall (int j = 0; j < N; j++; j) {
      if (j == 2) goto out;
    }
  }
out:
  CHECK(inner() == (N / THREADS) + (MYTHREAD < N % THREADS));
  return bad;
}
