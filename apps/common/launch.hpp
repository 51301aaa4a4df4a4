// How an application starts its SPMD run. Applications have their own main():
// they parse their options first (every UPC thread would reach the same verdict,
// but a usage error is best said once) and size the shared heap from the problem
// before the threads exist, which a program entered through upc_main cannot.
// Everything else comes from the UPCEMU_* settings that upcrun passes
// (THREADS, backend, --check, --timeout, topology); a --heap given there wins
// when it is larger.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <string>

#include "../../harness/launch.hpp"
#include "upc.h"

namespace apps {

// THREADS as the run will have it, to size the shared heap before the run; 1
// when the setting is bad (launch() reports it then).
inline int planned_threads() {
  try {
    return std::max(1, bench::launch_options().threads);
  } catch (const upc::error&) {
    return 1;
  }
}

// Runs body on every UPC thread; the exit status for main(): 0 when every thread
// returned 0, 1 when one returned non-zero or the run failed (said on stderr), 2
// when the UPCEMU_* settings are wrong.
inline int launch(const char* program, std::size_t heap_per_thread, const std::function<int()>& body) {
  upc::launch_options opt;
  try {
    opt = bench::launch_options();
  } catch (const upc::error& e) {
    std::fprintf(stderr, "%s: %s\n", program, e.what());
    return 2;
  }
  constexpr std::size_t usual_heap = 64ULL << 20;  // upcrun's default per thread
  opt.heap_per_thread = std::max(opt.heap_per_thread == 0 ? usual_heap : opt.heap_per_thread, heap_per_thread);
  return bench::run_spmd(opt, program, body);
}

}  // namespace apps
