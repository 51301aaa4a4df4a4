// What the UPC Collectives 2.0 benchmarks (upccoll_bench, upccoll_overlap) share
// about the library: its lifetime around their SPMD body, and the progress mode
// (UPCEMU_UPCCOLL_PROGRESS) that their headers record.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>

#include "upccoll.h"

namespace bench {

// body() between upccoll_initialize(nullptr, nullptr) and upccoll_finalize() on
// every thread: body's status, or 1 when either fails (said on stderr as
// "<program>: upccoll_initialize: <error>").
template <class Body>
int with_upccoll(const char* program, Body&& body) {
  const upccoll_return_t init = upccoll_initialize(nullptr, nullptr);
  if (init != UPCCOLL_SUCCESS) {
    std::fprintf(stderr, "%s: upccoll_initialize: %s\n", program, upccoll_error_name(init));
    return 1;
  }
  const int status = body();
  const upccoll_return_t fin = upccoll_finalize();
  if (fin != UPCCOLL_SUCCESS) {
    std::fprintf(stderr, "%s: upccoll_finalize: %s\n", program, upccoll_error_name(fin));
    return 1;
  }
  return status;
}

// The library's progress mode: UPCEMU_UPCCOLL_PROGRESS, or `unset`.
inline std::string upccoll_progress(const char* unset) {
  const char* p = std::getenv("UPCEMU_UPCCOLL_PROGRESS");
  return p && *p ? p : unset;
}

}  // namespace bench
