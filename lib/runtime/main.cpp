// main() of every upcemu program: read the UPCEMU_* environment (set by upcrun or
// by hand), run upc_main on THREADS threads, and exit with the program's status.
#include <cstdio>

#include <cstdlib>

#include "libc_state.hpp"
#include "upc.h"
#include "upc/coll.hpp"

// Tells backtraces that main() is upcemu's, not the program's (backtrace.cpp):
// a program with a main() of its own links without this file.
extern "C" {
extern const bool upcemu_main_is_runtime;
const bool upcemu_main_is_runtime = true;
}

int main(int argc, char** argv) {
  upc::launch_options opt;
  try {
    opt = upc::launch_options::from_environment();
    if (const char* coll = std::getenv("UPCEMU_COLL")) upc::coll::check_rules(coll, "UPCEMU_COLL");
    if (const char* seg = std::getenv("UPCEMU_COLL_SEGMENT"); seg && *seg) upc::coll::parse_segment(seg, "UPCEMU_COLL_SEGMENT");
    // Each UPC thread gets its own copy of argv, on every backend (libc_argv.cpp).
    upc::run_result r = upc::run(opt, std::function<int()>([argc, argv] {
      return upc_main(argc, upc::detail::copy_of_argv(argc, argv));
    }));
    return r.exit_code;
  } catch (const upc::error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
