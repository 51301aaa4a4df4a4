/* <upc_tick.h> through upcc: upc_ticks_now is monotonic and upc_ticks_to_ns
 * measures a sleep of known length. */
#include <upc.h>
#include <upc_tick.h>
#include <stdio.h>
#include <time.h>

int main(void) {
  int failures = 0;
  upc_tick_t t0 = upc_ticks_now(), prev = t0;
  for (int i = 0; i < 1000; i++) {
    upc_tick_t t = upc_ticks_now();
    if (t < prev) failures++, printf("thread %d: ticks went back\n", MYTHREAD);
    prev = t;
  }
  struct timespec ms3 = {0, 3000000};
  nanosleep(&ms3, NULL);
  upc_tick_t t1 = upc_ticks_now();
  uint64_t ns = upc_ticks_to_ns(t1 - t0);
  if (ns < 3000000) failures++, printf("thread %d: a 3 ms sleep took %llu ns\n", MYTHREAD, (unsigned long long)ns);
  if (ns > 60000000000ULL) failures++, printf("thread %d: %llu ns is implausible\n", MYTHREAD, (unsigned long long)ns);
  if (!(UPC_TICK_MIN < t0 && t1 < UPC_TICK_MAX)) failures++, printf("thread %d: outside [MIN, MAX]\n", MYTHREAD);
  upc_barrier;
  if (MYTHREAD == 0 && !failures) printf("lib_tick: OK at THREADS %d\n", THREADS);
  return failures != 0;
}
