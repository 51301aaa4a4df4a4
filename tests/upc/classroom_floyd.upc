/* Classroom code (seed 003 §2.2): Floyd-Warshall all-pairs shortest paths on a
 * shared matrix blocked by rows (`shared [N] int d[N][N]`: row i on thread
 * i % THREADS). At step k every thread fetches row k with one upc_memget and
 * relaxes the rows it owns (upc_forall with affinity &d[i][0], each row
 * privatised through a cast). Checked against a sequential run. */
#include <upc_relaxed.h>
#include <stdio.h>

#define N 13
#define INF 1000000

shared [N] int d[N][N];

static int weight(int i, int j) {
  if (i == j) return 0;
  if ((i * 7 + j * 3) % 5 == 0 || j == (i + 1) % N) return 1 + (i * 13 + j * 5) % 17;
  return INF;
}

int main(void) {
  int i, j, k, bad = 0;
  int rowk[N];
  static int ref[N][N];
  upc_forall (i = 0; i < N; i++; &d[i][0])
    for (j = 0; j < N; j++) d[i][j] = weight(i, j);
  upc_barrier;
  for (k = 0; k < N; k++) {
    upc_memget(rowk, &d[k][0], N * sizeof(int));   /* row k, from its owner */
    upc_barrier;  /* nobody changes row k before everyone has it */
    upc_forall (i = 0; i < N; i++; &d[i][0]) {
      int *row = (int *)&d[i][0];   /* my row, privatised */
      for (j = 0; j < N; j++)
        if (row[k] + rowk[j] < row[j]) row[j] = row[k] + rowk[j];
    }
    upc_barrier;
  }
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) ref[i][j] = weight(i, j);
  for (k = 0; k < N; k++)
    for (i = 0; i < N; i++)
      for (j = 0; j < N; j++)
        if (ref[i][k] + ref[k][j] < ref[i][j]) ref[i][j] = ref[i][k] + ref[k][j];
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      if (d[i][j] != ref[i][j]) {
        if (!bad) printf("thread %d: d[%d][%d] = %d, want %d\n", MYTHREAD, i, j, (int)d[i][j], ref[i][j]);
        bad = 1;
      }
  upc_barrier;
  if (!bad && MYTHREAD == 0) printf("classroom floyd (%d threads, d[0][%d] = %d): ok\n", THREADS, N - 1, ref[0][N - 1]);
  return bad;
}
