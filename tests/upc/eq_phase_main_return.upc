/* Two C/UPC rules the translation must keep:
 * - pointers-to-shared to the same object compare equal under == and != whatever
 *   their phases (UPC 1.3 6.4.2p6): a blocked pointer cast to `shared []` and back
 *   has phase 0, the original a nonzero one;
 * - main falling off its closing brace returns 0 (C99 5.1.2.2.3): this main has
 *   no return statement, and the test passes only when the exit status is 0. */
#include <upc.h>
#include <stdio.h>
#include <stdlib.h>

#define B 4
shared [B] long v[B * 5 * THREADS];

static void fail(int line) { fprintf(stderr, "%d: eq_phase_main_return.upc:%d failed\n", MYTHREAD, line); exit(1); }
#define CHECK(c) do { if (!(c)) fail(__LINE__); } while (0)

int main(void)
{
  int i;
  for (i = 0; i < B * 5 * THREADS; ++i) {
    shared [B] long *p = &v[i];
    shared [] long *flat = (shared [] long *)p;        /* phase 0 */
    shared [B] long *back = (shared [B] long *)flat;   /* phase 0 too */
    shared void *vp = p;
    CHECK(upc_phaseof(p) == (size_t)(i % B));
    CHECK(upc_phaseof(back) == 0);
    CHECK(back == p && p == back && !(back != p));
    CHECK(vp == flat && !(flat != vp));
    if (i + 1 < B * 5 * THREADS) {
      CHECK(p != &v[i + 1] && p < &v[i + 1]);
    }
  }
  upc_barrier;
  if (MYTHREAD == 0)
    printf("eq_phase_main_return: passed\n");
}
