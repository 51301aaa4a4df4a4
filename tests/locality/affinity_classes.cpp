// The C++ API's form of affinity_classes.upc (the same loops, one per marked
// line): check_locality.py compares this program's --report=locality with the
// same sequential model. Built with -g, which gives the report its lines (the
// C++ API's accesses are placed by their return address).
#include "upc.h"

constexpr int B = 16;
upc::shared_array<int, B> a{upc::per_thread(B)}, b{upc::per_thread(B)};  // blocked
upc::shared_array<int> c{upc::per_thread(B)};                            // cyclic

int upc_main(int, char**) {
  const int N = B * THREADS;
  int sum = 0;
  int next[B];
  upc_forall (int i = 0; i < N; i++, &a[i]) a[i] = i;  // line: init_a
  upc_forall (int i = 0; i < N; i++, &c[i]) c[i] = i;  // line: init_c
  upc_barrier;
  upc_forall (int i = 1; i < N - 1; i++, &b[i]) b[i] = a[i - 1] + a[i] + a[i + 1];  // line: good
  upc_barrier;
  upc_forall (int i = 1; i < N - 1; i++, &b[i]) b[i] = c[i - 1] + c[i] + c[i + 1];  // line: fair
  upc_barrier;
  upc_forall (int i = 1; i < N - 1; i++, i) b[i] = a[i - 1] + a[i] + a[i + 1];  // line: bad
  upc_barrier;
  upc_forall (int i = 0; i < B; i++, UPC_CONTINUE) sum += a[i];  // line: every_thread
  upc_forall (int i = 0; i < THREADS; i++, i)
    upc_forall (int j = 0; j < 2; j++, UPC_CONTINUE) sum += b[i * B + j];  // line: nested
  upc_memget(next, &a[(MYTHREAD + 1) % THREADS * B], sizeof next);  // line: memget
  upc_barrier;
  // the values too: b[i] = 3i after the last stencil (b[0] is never written)
  if (sum != B * (B - 1) / 2 + (MYTHREAD ? 3 * MYTHREAD * B : 0) + 3 * (MYTHREAD * B + 1)) return 1;
  return next[0] == (MYTHREAD + 1) % THREADS * B ? 0 : 1;
}
