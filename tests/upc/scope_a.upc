/* Block-scope static shared objects; extern shared across translation units
 * (scope_b.upc defines `total` and `table`, and calls back bump()). */
#include <upc.h>
#include <stdio.h>

extern shared int total;
extern shared [2] long table[];  /* size given in scope_b.upc */
int count_calls(void);
long sum_table(void);

int bump(void) {
  static shared int calls;       /* one object for all threads, zero-initialised */
  static shared [] int hist[8];  /* all on thread 0 */
  if (MYTHREAD == 0) { calls++; hist[calls % 8] += 1; }
  upc_barrier;
  return calls;
}

int main(void) {
  int bad = 0;
  for (int r = 1; r <= 3; r++) {
    int c = bump();
    if (c != r) { printf("thread %d: calls %d, want %d\n", MYTHREAD, c, r); bad = 1; }
    upc_barrier;
  }
  if (MYTHREAD == 0) total = 5;
  upc_forall (int i = 0; i < 2 * THREADS; i++; &table[i]) table[i] = i;
  upc_barrier;
  if (count_calls() != 5) { printf("count_calls %d\n", count_calls()); bad = 1; }
  long want = (long)(2 * THREADS) * (2 * THREADS - 1) / 2;
  if (sum_table() != want) { printf("sum %ld, want %ld\n", sum_table(), want); bad = 1; }
  {
    static shared int x; /* two blocks, two objects */
    if (MYTHREAD == 0) x = 1;
  }
  {
    static shared int x = 7;
    upc_barrier;
    if (x != 7) { printf("inner static x %d\n", x); bad = 1; }
  }
  return bad;
}
