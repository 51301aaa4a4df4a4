/* Casts of pointers-to-shared to local pointers (UPC 1.3 6.4.3), run under
 * --check too: an element the calling thread owns, a whole upc_alloc'ed block
 * walked by a private pointer up to its bound one past the end (formed, compared,
 * never dereferenced, as C allows), and a shared [] scalar's size measured as
 * (char *)&p[1] - (char *)&p[0] (Berkeley's bug602 test) on its owner. */
#include <stdio.h>
#include <upc.h>

typedef struct { int f1; } s1;
shared [] s1 S; /* all on thread 0 */
shared [4] int a[4 * THREADS];

int main(void) {
  int errors = 0;
  int *mine = (int *)&a[4 * MYTHREAD + 1];
  *mine = 7;
  if (a[4 * MYTHREAD + 1] != 7) errors++;

  shared [] int *q = (shared [] int *)upc_alloc(5 * sizeof(int));
  int *lo = (int *)q, *hi = (int *)&q[5];
  if (hi - lo != 5) errors++;
  for (int *x = lo; x < hi; x++) *x = MYTHREAD;
  for (int i = 0; i < 5; i++)
    if (q[i] != MYTHREAD) errors++;
  upc_free(q);

  if (MYTHREAD == 0) {
    shared [] s1 *p = &S;
    long size = (char *)&p[1] - (char *)&p[0];
    if (size != (long)sizeof(s1)) errors++;
  }
  if (errors) printf("thread %d: %d errors\n", MYTHREAD, errors);
  upc_barrier;
  if (MYTHREAD == 0 && !errors) printf("local_cast: passed\n");
  return errors != 0;
}
