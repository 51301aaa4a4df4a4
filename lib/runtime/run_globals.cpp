// The definitions of the current run's process-local settings (run_globals.hpp
// and upc/runtime.hpp), apart from the code that sets them (launcher.cpp), so
// that what reads them does not depend on the launcher.
#include "run_globals.hpp"

namespace upc::detail {

int g_threads = 0;
thread_local int tl_mythread = -1;
bool g_check = false;
bool g_access_hooks = false;
int g_process_upc_thread = -1;
backend_kind g_run_backend = backend_kind::threads;
thread_local const char* tl_upc_stack_top = nullptr;

}  // namespace upc::detail

namespace upc {

backend_kind current_backend() noexcept { return detail::g_run_backend; }

}  // namespace upc
