// The settings of the current run that code everywhere reads as process-local
// variables, set by run() (launcher.cpp) before any worker starts. THREADS,
// MYTHREAD and the checks are declared in upc/runtime.hpp (translated programs
// read them too); these are the runtime's own.
#pragma once
#include "upc/runtime.hpp"

namespace upc::detail {

// On the processes backend, the UPC thread whose process this is (-1 elsewhere):
// a crash in a thread the program started names it.
extern int g_process_upc_thread;
// The backend of the current (or last) run: upc::current_backend().
extern backend_kind g_run_backend;
// The frame of run_upc_thread on a UPC thread's stack (null elsewhere): what the
// thread's program puts on its stack lies between the current frame and this.
extern thread_local const char* tl_upc_stack_top;

}  // namespace upc::detail
