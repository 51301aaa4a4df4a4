/* UPC 1.3 <upc_tick.h>: a monotonic wall-clock timer. One tick is one nanosecond
 * of CLOCK_MONOTONIC (implementation-defined in the spec). */
#pragma once
#include <cstdint>
#include <ctime>

typedef std::uint64_t upc_tick_t;
#define UPC_TICK_MIN ((upc_tick_t)0)
#define UPC_TICK_MAX ((upc_tick_t)UINT64_MAX)

inline upc_tick_t upc_ticks_now(void) {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<upc_tick_t>(ts.tv_sec) * 1000000000ULL + static_cast<upc_tick_t>(ts.tv_nsec);
}
inline std::uint64_t upc_ticks_to_ns(upc_tick_t ticks) { return ticks; }
