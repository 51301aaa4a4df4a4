/* Two declarations/updates around pointers-to-shared:
 * - parameters that point to pointers-to-shared: `shared T **pp`, `shared T *v[]`
 *   (adjusted to a pointer, C11 6.7.6.3p7) and `shared T *(*w)`: each is a private
 *   pointer to upcemu_sptr; indexing through them reaches the shared elements;
 * - ++ and -- on a pointer-to-shared that is itself a strict shared object
 *   (`shared [B] T *strict shared p; p++`), prefix and postfix, under
 *   <upc_strict.h> and with an explicit `strict` qualifier. */
#include <upc_strict.h>
#include <stdio.h>

#define B 3
shared [B] long cells[B * 4 * THREADS];
shared [B] long *strict shared walker;   /* strict by its qualifier */
shared [B] long *shared walker2;         /* strict by <upc_strict.h> */

static int fails;
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%d: sptr_params_strict.upc:%d\n", MYTHREAD, __LINE__); fails++; } } while (0)

static void fill(shared [B] long *v[], int n, long base) {
  int i, k;
  for (i = 0; i < n; ++i)
    for (k = 0; k < B; ++k) v[i][k] = base + i * 10 + k;
}
static long sum(shared [B] long **pp, shared [B] long *(*w), int n) {
  long s = 0;
  int i, k;
  for (i = 0; i < n; ++i)
    for (k = 0; k < B; ++k) s += pp[i][k] - w[i][k];
  return s + pp[n - 1][B - 1];
}

int main(void) {
  shared [B] long *rows[4];
  long got, want;
  int i;
  for (i = 0; i < 4; ++i) rows[i] = &cells[(i * THREADS + MYTHREAD) * B];
  fill(rows, 4, 1000 * MYTHREAD);
  upc_barrier;
  CHECK(cells[(3 * THREADS + MYTHREAD) * B + 2] == 1000 * MYTHREAD + 32);
  CHECK(sum(rows, rows, 4) == 1000 * MYTHREAD + 32);
  if (MYTHREAD == 0) { walker = &cells[0]; walker2 = &cells[B * 4 * THREADS - 1]; }
  upc_barrier;
  if (MYTHREAD == 0) {
    for (i = 0; i < B * 4 * THREADS; ++i) {
      shared [B] long *was = walker++;
      CHECK(was == &cells[i]);
      CHECK(upc_threadof(was) == (size_t)((i / B) % THREADS));
    }
    CHECK(walker == &cells[B * 4 * THREADS - 1] + 1);
    --walker;
    CHECK(walker == &cells[B * 4 * THREADS - 1]);
    for (i = B * 4 * THREADS - 1; i > 0; --i) {
      CHECK(walker2-- == &cells[i]);
    }
    ++walker2;
    CHECK(walker2 == &cells[1]);
    want = 0; got = 0;
    for (i = 0; i < B * 4 * THREADS; ++i) { want += cells[i]; }
    walker = &cells[0];
    for (i = 0; i < B * 4 * THREADS; ++i) got += *walker++;
    CHECK(got == want);
  }
  upc_barrier;
  if (fails) return 1;
  if (MYTHREAD == 0) printf("sptr_params_strict: passed\n");
  return 0;
}
