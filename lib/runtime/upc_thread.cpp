// One UPC thread's life: set identity, run the body, turn every ending into a
// status and, for failures, a report in the control block.
#include <signal.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>

#include "backtrace.hpp"
#include "collective_call.hpp"
#include "control.hpp"
#include "failure.hpp"
#include "futex.hpp"
#include "launcher.hpp"
#include "libc_state.hpp"
#include "locality.hpp"
#include "race_check.hpp"
#include "run_globals.hpp"
#include "traffic.hpp"

namespace upc::detail {

namespace {
// Each OS thread needs its own alternate signal stack to report a stack overflow.
// A worker process of the processes backend already has the launcher's (a copy,
// its own after fork); a thread the threads backend starts has none.
struct alt_stack {
  std::unique_ptr<char[]> memory;
  alt_stack() {
    stack_t current{};
    if (sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE)) return;
    memory.reset(new char[1 << 16]);
    stack_t ss{};
    ss.ss_sp = memory.get();
    ss.ss_size = 1 << 16;
    sigaltstack(&ss, nullptr);
  }
  ~alt_stack() {
    if (!memory) return;
    stack_t ss{};
    ss.ss_flags = SS_DISABLE;
    sigaltstack(&ss, nullptr);
  }
};

// Workers sleep here until the launcher has started every one of them, so that
// the launcher has the cores to itself meanwhile: 4096 forked workers that went
// straight into their first barrier took the CPU from the fork loop, and starting
// them took minutes instead of seconds. The sleep has no time limit: waking every
// 100 ms to look again cost 10 wake-ups a second per waiting worker, and with
// thousands of them the launcher's share of the CPU shrank as it forked more (2048
// processes took a minute to start). Every way out of the fork loop opens the gate,
// and a worker whose launcher dies is killed (PR_SET_PDEATHSIG).
void wait_at_start_gate() noexcept {
  const std::atomic<std::uint32_t>& gate = control().start_gate;
  while (gate.load(std::memory_order_acquire) == 0) futex_wait(&gate, 0, 0);
}
}  // namespace

void open_start_gate() noexcept {
  control().start_gate.store(1, std::memory_order_release);
  futex_wake_all(&control().start_gate);
}

int run_upc_thread(int t, const std::function<int()>& body) {
  alt_stack stack;
  wait_at_start_gate();
  // The start failed or was interrupted while this worker waited: it never runs.
  if (control().abort.load()) return control().global_exit_status.load();
  tl_mythread = t;
  tl_upc_stack_top = static_cast<const char*>(__builtin_frame_address(0));
  if (g_races) race_thread_started(t);
  thread_slot& slot = control().slots[t];
  slot.tid.store(static_cast<std::int32_t>(::gettid()), std::memory_order_relaxed);
  slot.state.store(static_cast<std::uint32_t>(thread_state::running));
  int status = 0;
  try {
    status = run_as_main(body);  // a return from main, or exit() (libc_exit.cpp)
    traffic::thread_done();
    locality::hand_over_counts();
    slot.state.store(static_cast<std::uint32_t>(thread_state::finished));
    control().exited.fetch_add(1);
    check_calls_at_end();  // a collective call of another thread that this one never made
  } catch (const stop_unwind& s) {
    status = s.status;
  } catch (const upc::error& e) {
    std::string text = std::string("upcemu: ") + e.what() + "\n";
    // As much of the backtrace as the control block's report text holds; none
    // for a report nobody reads (--quiet: the tests' runs that fail on purpose).
    const std::string head = "  backtrace:\n";
    if (!quiet_reports() && text.size() + head.size() < error_text_bytes - 1) {
      const std::string frames = describe_frames(e.frames().data(), static_cast<int>(e.frames().size()),
                                                 error_text_bytes - 1 - text.size() - head.size());
      if (!frames.empty()) text += head + frames;
    }
    record_failure(t, text.c_str());
    status = 1;
  } catch (const std::exception& e) {
    std::string text = std::string("upcemu: thread ") + std::to_string(t) + " failed: uncaught exception: " + e.what() + "\n";
    record_failure(t, text.c_str());
    status = 1;
  } catch (...) {
    std::string text = std::string("upcemu: thread ") + std::to_string(t) + " failed: uncaught exception of unknown type\n";
    record_failure(t, text.c_str());
    status = 1;
  }
  if (control().global_exit_called.load()) status = control().global_exit_status.load();
  // Threads sleeping in a barrier must learn that this thread will never arrive.
  futex_wake_all(&control().barrier.generation);
  std::fflush(stdout);
  tl_mythread = -1;
  tl_upc_stack_top = nullptr;
  return status;
}

}  // namespace upc::detail

namespace upc {
void global_exit(int status) {
  using namespace detail;
  if (!g_control || tl_mythread < 0) {
    std::fflush(nullptr);
    std::_Exit(status);
  }
  control_block& c = control();
  if (c.global_exit_called.exchange(1) == 0) c.global_exit_status.store(status);
  std::fflush(nullptr);
  request_abort();
  throw stop_unwind{status};
}
}  // namespace upc
