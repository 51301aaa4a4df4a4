// Mistake: a shared index one past the end. Each element of b is the sum of an
// element of a and the next one, around a ring (the last element's next is the
// first); the loop forgets the wrap-around and reads a[N].
//
// Without --check, a[N] is whatever lies after the array (here: in thread 0's
// partition), and the answer is silently wrong; the program's own check finds
// it. With --check (upcrun --check, UPCEMU_CHECK=1), upcemu stops the run at
// the access, naming the index, the array's size and the thread.
#include <cstdio>

#include "upc.h"

constexpr int per_thread = 8;
upc::shared_array<long, per_thread> a{upc::per_thread(per_thread)}, b{upc::per_thread(per_thread)};

int upc_main(int, char**) {
  const int n = per_thread * THREADS;
  upc_forall (int i = 0; i < n; i++, &a[i]) a[i] = i + 1;
  upc_barrier;
  upc_forall (int i = 0; i < n; i++, &b[i]) b[i] = a[i] + a[i + 1];  // MISTAKE: a[(i + 1) % n]
  upc_barrier;

  if (MYTHREAD != 0) return 0;
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    const long expected = (i + 1) + ((i + 1) % n + 1);
    if (b[i] != expected && wrong++ < 3) std::printf("WRONG: b[%d] = %ld, expected %ld\n", i, static_cast<long>(b[i]), expected);
  }
  std::printf("%s\n", wrong ? "the sums are wrong" : "the sums are right");
  return wrong ? 1 : 0;
}
