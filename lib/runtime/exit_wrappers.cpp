// _exit, _Exit and quick_exit as a upcemu program sees them: the program is linked
// with -Wl,--wrap=_exit,--wrap=_Exit,--wrap=quick_exit (upcemu_program_dep), so its
// calls come here first. A UPC thread's call is reported and ends the run
// (exit_calls.cpp); any other call goes on to the C library unchanged.
#include <cstdlib>

#include "exit_calls.hpp"

extern "C" {
[[noreturn]] void __real__exit(int status);
[[noreturn]] void __real__Exit(int status);
[[noreturn]] void __real_quick_exit(int status) noexcept;

[[noreturn]] void __wrap__exit(int status) {
  upc::detail::report_exit_call("_exit", status);
  __real__exit(status);
}
[[noreturn]] void __wrap__Exit(int status) {
  upc::detail::report_exit_call("_Exit", status);
  __real__Exit(status);
}
[[noreturn]] void __wrap_quick_exit(int status) noexcept {
  upc::detail::report_exit_call("quick_exit", status);
  __real_quick_exit(status);
}
}
