/* <upc_nb.h> through upcc: non-blocking get/put/copy/set with explicit handles
 * (upc_sync, upc_sync_attempt) and implicit ones (upc_synci,
 * upc_synci_attempt), checked against the values each thread wrote. */
#include <upc.h>
#include <upc_nb.h>
#include <stdio.h>
#include <string.h>

#define B 12
shared [B] int a[B * THREADS];
shared [B] int c[B * THREADS];
shared [B] int d[B * THREADS];

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
  const int next = (MYTHREAD + 1) % THREADS, prev = (MYTHREAD + THREADS - 1) % THREADS;
  int buf[B], got[B];
  for (int i = 0; i < B; i++) buf[i] = 1000 * MYTHREAD + i;

  /* explicit handles: put into the next thread's block, then sync */
  upc_handle_t h = upc_memput_nb(&a[next * B], buf, sizeof buf);
  upc_sync(h);
  upc_sync(UPC_COMPLETE_HANDLE); /* returns at once */
  upc_barrier;
  for (int i = 0; i < B; i++) CHECK(a[MYTHREAD * B + i] == 1000 * prev + i, "memput_nb [%d]", i);

  /* get the previous thread's block, polling with upc_sync_attempt */
  memset(got, 0, sizeof got);
  h = upc_memget_nb(got, &a[prev * B], sizeof got);
  int polls = 0;
  while (!upc_sync_attempt(h)) polls++;
  const int pp = (prev + THREADS - 1) % THREADS;
  for (int i = 0; i < B; i++) CHECK(got[i] == 1000 * pp + i, "memget_nb [%d]: %d", i, got[i]);

  /* copy shared to shared, then set */
  h = upc_memcpy_nb(&c[next * B], &a[MYTHREAD * B], B * sizeof(int));
  upc_handle_t h2 = upc_memset_nb(&d[MYTHREAD * B], 0x01, B * sizeof(int));
  upc_sync(h2);
  upc_sync(h);
  upc_barrier;
  for (int i = 0; i < B; i++) {
    CHECK(c[MYTHREAD * B + i] == 1000 * pp + i, "memcpy_nb [%d]", i);
    CHECK(d[MYTHREAD * B + i] == 0x01010101, "memset_nb [%d]", i);
  }
  upc_barrier;

  /* implicit handles: several transfers, one upc_synci */
  for (int i = 0; i < B; i++) buf[i] = -(MYTHREAD * 100 + i);
  upc_memput_nbi(&a[MYTHREAD * B], buf, B / 2 * sizeof(int));
  upc_memput_nbi(&a[MYTHREAD * B + B / 2], buf + B / 2, (B - B / 2) * sizeof(int));
  upc_memset_nbi(&d[next * B], 0, B * sizeof(int));
  upc_synci();
  upc_barrier;
  upc_memget_nbi(got, &a[next * B], sizeof got);
  upc_memcpy_nbi(&c[MYTHREAD * B], &a[prev * B], B * sizeof(int));
  while (!upc_synci_attempt()) polls++;
  for (int i = 0; i < B; i++) {
    CHECK(got[i] == -(next * 100 + i), "memget_nbi [%d]: %d", i, got[i]);
    CHECK(d[MYTHREAD * B + i] == 0, "memset_nbi [%d]", i);
  }
  upc_barrier;
  for (int i = 0; i < B; i++) CHECK(c[MYTHREAD * B + i] == -(prev * 100 + i), "memcpy_nbi [%d]", i);
  (void)polls;

  if (failures) printf("thread %d: %d failures\n", MYTHREAD, failures);
  upc_barrier;
  if (MYTHREAD == 0 && !failures) printf("lib_nb: OK at THREADS %d\n", THREADS);
  return failures != 0;
}
