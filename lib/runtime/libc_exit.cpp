// exit() and atexit() as a UPC thread sees them, and the frame that runs a UPC
// thread's body as a C program's main.
//
// UPC 1.3 §5.1.2.2.3: "A thread is terminated by reaching the } that terminates
// the main function, by a call to the exit function, or by a return from the
// initial main"; the program ends when all threads have ended (or at
// upc_global_exit). Berkeley UPC and GCC UPC both turn exit(n) in UPC code into
// "end this thread with status n": the others go on. On the threads backend
// glibc's exit would end the whole process, so exit is replaced here for the
// whole program (a program is linked with libupcemu before the C library; weak,
// so that a program's own exit wins): called inside a UPC thread's body, it runs
// that thread's atexit handlers, flushes every stream, and goes back to
// run_as_main without unwinding — as a process's exit does not run the
// destructors of the frames it leaves — which returns the status as if main had
// returned it. Anywhere else (the launcher, a thread the program started) it is
// glibc's exit.
//
// atexit called by a UPC thread registers the handler for that thread alone: it
// runs when the thread returns from main or calls exit, in reverse order of
// registration, as in the thread's own process. Elsewhere it is glibc's.
#include <dlfcn.h>
#include <setjmp.h>
#include <stdio.h>
#include <unistd.h>

#include <exception>
#include <string>
#include <vector>

#include "control.hpp"
#include "libc_state.hpp"

extern "C" int __cxa_atexit(void (*function)(void*), void* argument, void* dso_handle) noexcept;

namespace upc::detail {

namespace {

// run_as_main's frame, where exit() called by this UPC thread goes back to.
struct exit_point {
  sigjmp_buf back;
  int status = 0;
  std::exception_ptr pending;  // what an atexit handler threw; rethrown by run_as_main
};

thread_local exit_point* tl_exit_point = nullptr;
thread_local std::vector<void (*)()> tl_atexit_handlers;

// The end of the thread: its atexit handlers, last registered first (one may
// register more, or call exit again: glibc's exit does the same), every stream
// flushed, then back to run_as_main. Throws nothing: what a handler throws
// (upc_global_exit, a runtime error) waits in `pending` until run_as_main is
// back on its own frame.
[[noreturn]] void end_thread(int status, bool called_exit) noexcept {
  exit_point* point = tl_exit_point;
  point->status = status;
  if (called_exit && g_control && tl_mythread >= 0) {
    thread_slot& slot = my_slot();
    slot.exit_call_status = status;
    slot.ended_by_exit.store(1, std::memory_order_release);
  }
  try {
    while (!tl_atexit_handlers.empty()) {
      void (*handler)() = tl_atexit_handlers.back();
      tl_atexit_handlers.pop_back();
      handler();
    }
  } catch (...) {
    if (!point->pending) point->pending = std::current_exception();
  }
  std::fflush(nullptr);
  siglongjmp(point->back, 1);
}

[[noreturn]] void exit_process(int status) noexcept {
  using exit_function = void (*)(int);
  static const exit_function glibc_exit = reinterpret_cast<exit_function>(dlsym(RTLD_NEXT, "exit"));
  if (glibc_exit != nullptr && glibc_exit != &::exit) glibc_exit(status);
  std::fflush(nullptr);
  ::_exit(status);
}

}  // namespace

void reset_libc_state() noexcept {
  reset_getopt_state();
  reset_random_state();
  reset_strtok_state();
  tl_atexit_handlers.clear();
}

int run_as_main(const std::function<int()>& body) {
  reset_libc_state();
  exit_point point;
  struct leave {
    ~leave() {
      tl_exit_point = nullptr;
      tl_atexit_handlers.clear();
    }
  } on_leave;
  tl_exit_point = &point;
  if (sigsetjmp(point.back, 1) == 0) {
    const int status = body();
    end_thread(status, false);  // returning from main is exit(status)
  }
  if (point.pending) std::rethrow_exception(point.pending);
  return point.status;
}

void let_exit_end_process() noexcept { tl_exit_point = nullptr; }

std::string how_thread_ended(int t) {
  const thread_slot& slot = control().slots[t];
  if (slot.ended_by_exit.load(std::memory_order_acquire) == 0) return "returned from main";
  return "ended by calling exit(" + std::to_string(slot.exit_call_status) + ")";
}

}  // namespace upc::detail

extern "C" {

__attribute__((weak, noreturn)) void exit(int status) noexcept {
  if (upc::detail::tl_exit_point) upc::detail::end_thread(status, true);
  upc::detail::exit_process(status);
}

__attribute__((weak)) int atexit(void (*handler)(void)) noexcept {
  if (upc::detail::tl_exit_point) {
    try {
      upc::detail::tl_atexit_handlers.push_back(handler);
      return 0;
    } catch (...) {
      return -1;
    }
  }
  // What glibc's own atexit (libc_nonshared.a) does, for the executable.
  return __cxa_atexit(reinterpret_cast<void (*)(void*)>(handler), nullptr, nullptr);
}

}  // extern "C"
