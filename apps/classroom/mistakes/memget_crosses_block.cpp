// Mistake: a upc_memget whose range crosses from one thread's block into the
// next. Thread 0 wants the last two elements of its block and the first two
// of thread 1's, and asks for them in one copy. But the bytes of a upc_memget
// are read as `shared [] char`: all on the thread of its first byte, so the
// last two come from whatever follows thread 0's block in thread 0's
// partition, not from thread 1. The fix: one upc_memget per block.
//
// Without --check the copy is silently wrong (upcemu's always-on range check
// only stops a range that leaves the thread's whole partition) and the
// program's own check finds it; --check stops the copy and names the object,
// the thread and how many bytes of it were left. docs/classroom.md quotes both.
#include <cstdio>

#include "upc.h"

constexpr int per_thread = 8;
upc::shared_array<int, per_thread> a{upc::per_thread(per_thread)};

int upc_main(int, char**) {
  const int n = per_thread * THREADS;
  upc_forall (int i = 0; i < n; i++, &a[i]) a[i] = 100 + i;
  upc_barrier;

  int status = 0;
  if (MYTHREAD == 0 && THREADS > 1) {
    int got[4];
    upc_memget(got, &a[per_thread - 2], sizeof got);  // MISTAKE: a[6..9] spans threads 0 and 1
    for (int k = 0; k < 4; ++k) {
      const int expected = 100 + per_thread - 2 + k;
      if (got[k] != expected) {
        std::printf("WRONG: element %d of the copy is %d, a[%d] is %d\n", k, got[k], per_thread - 2 + k, expected);
        status = 1;
      }
    }
    if (status == 0) std::printf("the copy is right\n");
  }
  upc_barrier;
  return status;
}
