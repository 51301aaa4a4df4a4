/* <upc_tick.h> for UPC source compiled by upcc (docs/upcc.md, "Library
 * headers"): UPC 1.3 monotonic wall-clock timer (Optional Library
 * Specifications §7.8). One tick is one nanosecond of CLOCK_MONOTONIC, as in
 * the C++ runtime's include/upc_tick.h; inline, no library code. */
#ifndef UPCC_UPC_TICK_H
#define UPCC_UPC_TICK_H
#include <stdint.h>
#include <time.h>

#define __UPC_TICK__ 1

typedef uint64_t upc_tick_t;
#define UPC_TICK_MIN ((upc_tick_t)0)
#define UPC_TICK_MAX ((upc_tick_t)UINT64_MAX)

static inline upc_tick_t upc_ticks_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (upc_tick_t)ts.tv_sec * 1000000000ULL + (upc_tick_t)ts.tv_nsec;
}
static inline uint64_t upc_ticks_to_ns(upc_tick_t ticks) { return ticks; }
#endif
