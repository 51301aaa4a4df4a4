/* <upc_castable.h> through upcc: upc_cast gives a local pointer to any thread's
 * shared data (static and allocated), upc_thread_info reports the castable
 * kinds. */
#include <upc.h>
#include <upc_castable.h>
#include <stdio.h>

#define B 8
shared [B] long a[B * THREADS];

static int failures;
#define CHECK(cond, ...)                                  \
  do {                                                    \
    if (!(cond)) {                                        \
      printf("thread %d: line %d: ", MYTHREAD, __LINE__); \
      printf(__VA_ARGS__);                                \
      printf("\n");                                       \
      failures++;                                         \
    }                                                     \
  } while (0)

int main(void) {
  const int next = (MYTHREAD + 1) % THREADS;
  /* write the next thread's block through a local pointer */
  long *p = (long *)upc_cast(&a[next * B]);
  CHECK(p != NULL, "upc_cast of a static object is NULL");
  for (int i = 0; i < B; i++) p[i] = 100L * next + i;
  upc_barrier;
  for (int i = 0; i < B; i++) CHECK(a[MYTHREAD * B + i] == 100L * MYTHREAD + i, "a[%d]", MYTHREAD * B + i);
  /* element i of the block is p + i (a block is contiguous in its thread) */
  CHECK((long *)upc_cast(&a[next * B + 3]) == p + 3, "upc_cast of a[next*B + 3]");
  /* my own element: the same as the UPC cast to a private pointer */
  CHECK(upc_cast(&a[MYTHREAD * B]) == (void *)(long *)&a[MYTHREAD * B], "upc_cast of local data");
  CHECK(upc_cast(NULL) == NULL, "upc_cast(NULL)");

  /* allocated: upc_alloc on thread 0, read by every thread through upc_cast */
  static shared [] int *shared heap;
  if (MYTHREAD == 0) {
    heap = (shared [] int *)upc_alloc(THREADS * sizeof(int));
    for (int t = 0; t < THREADS; t++) heap[t] = 0;
  }
  upc_barrier;
  int *h = (int *)upc_cast(heap);
  h[MYTHREAD] = MYTHREAD + 1;
  upc_barrier;
  for (int t = 0; t < THREADS; t++) CHECK(heap[t] == t + 1, "heap[%d] = %d", t, heap[t]);
  upc_barrier;
  if (MYTHREAD == 0) upc_free(heap);

  for (int t = 0; t < THREADS; t++) {
    upc_thread_info_t info = upc_thread_info(t);
    CHECK(info.guaranteedCastable == UPC_CASTABLE_ALL, "thread_info(%d).guaranteedCastable = %d", t,
          info.guaranteedCastable);
    CHECK((info.probablyCastable & info.guaranteedCastable) == info.guaranteedCastable,
          "probablyCastable is not a superset");
  }

  if (failures) printf("thread %d: %d failures\n", MYTHREAD, failures);
  upc_barrier;
  if (MYTHREAD == 0 && !failures) printf("lib_castable: OK at THREADS %d\n", THREADS);
  return failures != 0;
}
