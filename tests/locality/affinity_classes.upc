/* The classroom's affinity classes (docs/classroom.md, section 1 and 5.3) as
   numbers: check_locality.py runs this program under upcrun --report=locality
   and compares each line's local and remote counts with a sequential model of
   the loops below (each line is found by its "line:" marker). A stencil over
   two blocked arrays with the affinity of the data written ("Good": remote only
   at the block edges), the same over a cyclic array ("Fair": two arrays blocked
   differently), the same with an integer affinity that sends iteration i to
   thread i % THREADS ("Bad"), a upc_forall whose empty affinity gives every
   iteration to every thread (noted), one nested in a controlling upc_forall
   (not noted), and a upc_memget of the next thread's block. */
#include <upc.h>

#define B 16
#define N (B * THREADS)

shared [B] int a[N], b[N]; /* blocked: thread t holds elements t*B .. t*B+B-1 */
shared int c[N];           /* cyclic: thread t holds elements t, t+THREADS, ... */

int main(void) {
  int i, j, sum = 0;
  int next[B];
  upc_forall (i = 0; i < N; i++; &a[i]) a[i] = i; /* line: init_a */
  upc_forall (i = 0; i < N; i++; &c[i]) c[i] = i; /* line: init_c */
  upc_barrier;
  upc_forall (i = 1; i < N - 1; i++; &b[i]) b[i] = a[i - 1] + a[i] + a[i + 1]; /* line: good */
  upc_barrier;
  upc_forall (i = 1; i < N - 1; i++; &b[i]) b[i] = c[i - 1] + c[i] + c[i + 1]; /* line: fair */
  upc_barrier;
  upc_forall (i = 1; i < N - 1; i++; i) b[i] = a[i - 1] + a[i] + a[i + 1]; /* line: bad */
  upc_barrier;
  upc_forall (i = 0; i < B; i++; ) sum += a[i]; /* line: every_thread */
  upc_forall (i = 0; i < THREADS; i++; i)
    upc_forall (j = 0; j < 2; j++; continue) sum += b[i * B + j]; /* line: nested */
  upc_memget(next, &a[(MYTHREAD + 1) % THREADS * B], sizeof next); /* line: memget */
  upc_barrier;
  /* the values too: b[i] = 3i after the last stencil (b[0] is never written) */
  if (sum != B * (B - 1) / 2 + (MYTHREAD ? 3 * MYTHREAD * B : 0) + 3 * (MYTHREAD * B + 1)) return 1;
  return next[0] == (MYTHREAD + 1) % THREADS * B ? 0 : 1;
}
