/* The example of seed 003 (Teijeiro's thesis), Appendix A.2.5 "The
 * upc_all_exchange_v Collective", in UPC, checking what the appendix says it
 * does: the selected elements of A exchanged into B. The appendix writes it for
 * THREADS = NELEMS/2 = 5: build with upcc -T 5, run with -n 5. The same example
 * in upcemu's C++ spelling: tests/unit/test_ext_examples.cpp, whose resolutions
 * this file follows (docs/extended-collectives.md, "Semantics where Appendix A
 * is silent"):
 *   - the appendix declares `shared [THREADS] exchange[THREADS]` (no type, and
 *     THREADS elements where the text asks for THREADS*THREADS) and nelems as
 *     `shared [THREADS] int`; the synopsis takes `shared int *exchange` and
 *     `shared size_t *nelems`, which the library indexes with block size 1, so
 *     they are `shared int exchange[THREADS*THREADS]` and `shared size_t
 *     nelems[THREADS*THREADS]` here;
 *   - the appendix's exchange[i] = i+1 indexes outside the blocks the text
 *     describes (entries i*THREADS..(i+1)*THREADS-1 are thread i's chunks, in
 *     thread i's blocks of src and dst): exchange[i*THREADS+j] is slot j (two
 *     elements each) of thread i's block, i*NELEMS + j*2, and nelems[i] is one
 *     or two elements, 1 + i%2, as the appendix says. */
#include <upc.h>
#include <upc_collective_ext.h>
#include <teamutil.h>
#include <stdio.h>

#define NELEMS 10

#if THREADS != NELEMS / 2
#error "the Appendix A.2.5 example assumes THREADS = NELEMS/2 = 5: build with upcc -T 5"
#endif

shared [NELEMS] int A[NELEMS*THREADS];
shared [NELEMS] int B[NELEMS*THREADS];
shared int exchange[THREADS*THREADS];
shared size_t nelems[THREADS*THREADS];

int main(void) {
  int failures = 0;

  // Initialize A (and B, so that what the collective leaves alone can be seen)
  for (int i=MYTHREAD*NELEMS; i<(MYTHREAD+1)*NELEMS; i++) {
    A[i]=i;
    B[i]=-1;
  }

  if (MYTHREAD == 0) {
    // Initialize 'exchange' array: thread i's chunk for (and from) thread j is
    // slot j of thread i's block
    for (int i=0; i<THREADS*THREADS; i++) {
      exchange[i]=(i/THREADS)*NELEMS+(i%THREADS)*2;
    }
    // Move always one or two elements per chunk
    for (int i=0; i<THREADS*THREADS; i++) {
      nelems[i]=1+(i%2);
    }
  }

  upc_all_exchange_v(B, A, exchange, nelems, NELEMS, NELEMS, sizeof(int),
      UPC_IN_ALLSYNC|UPC_OUT_ALLSYNC);

  /* the chunk of nelems[i*THREADS+j] elements at exchange[i*THREADS+j] of A
   * (thread i's block) lands at exchange[j*THREADS+i] of B (thread j's block) */
  for (int j = 0; j < THREADS; j++)
    for (int i = 0; i < THREADS; i++) {
      const int n = 1 + (i * THREADS + j) % 2;
      for (int k = 0; k < 2; k++) {
        const int at = j * NELEMS + i * 2 + k, got = B[at];
        const int expected = k < n ? i * NELEMS + j * 2 + k : -1;
        if (got != expected) {
          if (failures < 20)
            printf("appendix_a_exchange_v: thread %d: A.2.5 upc_all_exchange_v: B[%d] is %d, the appendix says %d\n",
                   MYTHREAD, at, got, expected);
          failures++;
        }
      }
    }

  if (failures) printf("appendix_a_exchange_v: thread %d: %d mismatches\n", MYTHREAD, failures);
  upc_barrier;
  if (MYTHREAD == 0 && !failures)
    printf("appendix_a_exchange_v: A.2.5 as the appendix says at THREADS %d\n", THREADS);
  return failures != 0;
}
