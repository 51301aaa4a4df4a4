// A upcemu program that misbehaves on purpose, for the failure tests
// (tests/failure/test_failure.cpp runs it through upcrun). argv[1] picks what goes
// wrong; argv[2], where used, is the thread that does it (default: the last one).
//
//   hello               every thread greets; thread 0 checks the count
//   throw T             thread T throws std::runtime_error while others wait at a barrier
//   bad_unlock T        thread T unlocks a lock it does not hold (a upc::error)
//   segv T              thread T writes through a null pointer
//   abort T             thread T calls std::abort()
//   exit3 T             thread T calls exit(3) (which ends that thread alone) before a barrier
//   global_exit T S     thread T calls upc_global_exit(S) while the others wait
//   global_exit_busy T S  likewise, while the others compute without calling the runtime
//   pids T              every thread prints "pid T PID"; thread T says "asleep T" and
//                       sleeps (no runtime calls), the others wait forever at a barrier
//   sleep               every thread prints "ready T", then sleeps in a loop (no runtime calls)
//   lock_deadlock       threads 0 and 1 take two locks in opposite orders
//   barrier_skip T      thread T waits for a lock held by thread 0, which waits at a barrier
//   return_early T      thread T returns from main while the others wait at a barrier
//   return_status T S   thread T returns S from main, the others 0
//   coll_vs_barrier [E] odd threads call upc_all_broadcast, even ones upc_barrier
//                       (E = 1: after a first collective that every thread made)
//   spin_after_coll     thread 0 computes for ever after a collective; the others wait in upc_barrier
//   spin_in_scope       thread 0 computes for ever inside a function that declares a shared
//                       array; the others wait where it is freed, at the end of that scope
//
// VICTIM_ARRAY_COUNT=N in the environment sizes a namespace-scope shared_array<int>
// (default 1), which the launcher allocates before any mode runs: N = -5 is a
// negative count converted to size_t.
//   exit T S / _exit T S / _Exit T S / quick_exit T S
//                       thread T calls that function with status S while the others
//                       wait at a barrier
//   thread_segv T       thread T starts a std::thread that writes through a null pointer
//   thread_throw T      thread T starts a std::thread that throws (std::terminate)
//   thread_throw_after_failure  thread 1 unlocks a lock it does not hold (a failure);
//                       a std::thread of thread 0 then throws, ending in std::terminate
//   segv_all            every thread writes through a null pointer at the same moment
//
// With VICTIM_SIZE_THROWS set in the environment, the size expression of the
// namespace-scope array `sized` throws std::length_error (evaluated by the launcher).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>

#include "upc.h"
#include "upc_collective.h"

upc::shared_array<int> victim_array([] {
  const char* count = std::getenv("VICTIM_ARRAY_COUNT");
  return count ? static_cast<std::size_t>(std::strtoll(count, nullptr, 10)) : std::size_t{1};
});

namespace {
// Recursion no compiler can turn into a loop: each frame keeps a buffer the
// next call reads.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winfinite-recursion"
__attribute__((noinline)) int recurse_forever(int depth) {
  volatile char frame[512];
  frame[0] = static_cast<char>(depth);
  return recurse_forever(depth + 1) + frame[0];
}
#pragma GCC diagnostic pop

int arg_int(int argc, char** argv, int i, int fallback) { return argc > i ? std::atoi(argv[i]) : fallback; }

void say(const std::string& line) {
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}

[[noreturn]] void sleep_forever() {
  for (;;) ::usleep(10000);
}

void write_null() {
  volatile int* p = nullptr;
  *p = 1;
}

upc::shared_array<int> sized([]() -> std::size_t {
  if (std::getenv("VICTIM_SIZE_THROWS")) throw std::length_error("victim: no size today");
  return static_cast<std::size_t>(THREADS);
});
}  // namespace

// The array's collective free at the closing brace is where threads 1.. wait.
void spin_in_scope() {
  upc::shared_array<int> scoped(upc::per_thread(1));  // the scoped array
  scoped[MYTHREAD] = MYTHREAD;
  if (MYTHREAD == 0) {
    volatile unsigned long x = 0;
    for (;;) x = x + 1;
  }
}

int upc_main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "hello";
  const int who = arg_int(argc, argv, 2, THREADS - 1);

  if (mode == "hello") {
    upc::shared_array<int> greeted(upc::per_thread(1));
    std::printf("Hello from thread %d of %d\n", MYTHREAD, THREADS);
    greeted[MYTHREAD] = 1;
    upc_barrier;
    if (MYTHREAD == 0) {
      int count = 0;
      for (int t = 0; t < THREADS; ++t) count += greeted[t];
      std::printf("%d of %d threads said hello\n", count, THREADS);
      return count == THREADS ? 0 : 1;
    }
    return 0;
  }
  if (mode == "throw") {
    upc_barrier;
    if (MYTHREAD == who) throw std::runtime_error("victim deliberately threw");
    upc_barrier;
    return 0;
  }
  if (mode == "bad_unlock") {
    upc_lock_t* l = upc_all_lock_alloc();
    if (MYTHREAD == who) upc_unlock(l);
    upc_barrier;
    return 0;
  }
  if (mode == "segv") {
    upc_barrier;
    if (MYTHREAD == who) {
      volatile int* p = nullptr;
      *p = 1;
    }
    upc_barrier;
    return 0;
  }
  if (mode == "stack_overflow") {  // unbounded recursion: only a handler on an alternate stack can report it
    upc_barrier;
    if (MYTHREAD == who) std::printf("depth %d\n", recurse_forever(1));
    upc_barrier;
    return 0;
  }
  if (mode == "abort") {
    upc_barrier;
    if (MYTHREAD == who) std::abort();
    upc_barrier;
    return 0;
  }
  if (mode == "exit3") {
    upc_barrier;
    if (MYTHREAD == who) std::exit(3);
    upc_barrier;
    return 0;
  }
  if (mode == "global_exit" || mode == "global_exit_busy") {
    const int status = arg_int(argc, argv, 3, 7);
    std::printf("thread %d before global exit\n", MYTHREAD);
    upc_barrier;
    if (MYTHREAD == who) upc_global_exit(status);
    if (mode == "global_exit_busy") {
      volatile unsigned long x = 0;
      for (;;) x = x + 1;  // never calls the runtime
    }
    upc_barrier;  // never completes: `who` is gone
    say("error: passed the barrier after upc_global_exit");
    return 99;
  }
  if (mode == "pids") {
    say("pid " + std::to_string(MYTHREAD) + " " + std::to_string(::getpid()));
    upc_barrier;
    if (MYTHREAD == 0) say("ready");
    upc_barrier(1);
    if (MYTHREAD == who) {
      say("asleep " + std::to_string(MYTHREAD));
      sleep_forever();
    }
    upc_barrier(2);
    return 0;
  }
  if (mode == "sleep") {
    upc_barrier;
    say("ready " + std::to_string(MYTHREAD));
    sleep_forever();
  }
  if (mode == "lock_deadlock") {
    upc_lock_t* a = upc_all_lock_alloc();
    upc_lock_t* b = upc_all_lock_alloc();
    if (MYTHREAD == 0) upc_lock(a);
    if (MYTHREAD == 1) upc_lock(b);
    upc_barrier;
    if (MYTHREAD == 0) upc_lock(b);  // line reported for thread 0
    if (MYTHREAD == 1) upc_lock(a);  // line reported for thread 1
    upc_barrier;
    return 0;
  }
  if (mode == "barrier_skip") {
    upc_lock_t* l = upc_all_lock_alloc();
    if (MYTHREAD == 0) upc_lock(l);
    upc_barrier;
    if (MYTHREAD == who) upc_lock(l);  // never returns: thread 0 holds it
    upc_barrier(42);
    return 0;
  }
  if (mode == "return_early") {
    upc_barrier;
    if (MYTHREAD == who) return 0;
    upc_barrier;
    return 0;
  }
  if (mode == "return_status") {
    const int status = arg_int(argc, argv, 3, 5);
    upc_barrier;
    return MYTHREAD == who ? status : 0;
  }
  if (mode == "coll_vs_barrier") {
    upc::sptr<void> src = upc_all_alloc(THREADS, 8), dst = upc_all_alloc(THREADS, 8);
    if (arg_int(argc, argv, 2, 0) == 1) upc_all_broadcast(dst, src, 8, 0);
    if (MYTHREAD % 2) upc_all_broadcast(dst, src, 8, 0);  // line reported for odd threads
    else upc_barrier;                                      // line reported for even threads
    return 0;
  }
  if (mode == "spin_in_scope") {
    spin_in_scope();
    return 0;
  }
  if (mode == "spin_after_coll") {
    upc::sptr<void> src = upc_all_alloc(THREADS, 8), dst = upc_all_alloc(THREADS, 8);
    upc_all_broadcast(dst, src, 8, 0);  // thread 0's last runtime call
    if (MYTHREAD == 0) {
      volatile unsigned long x = 0;
      for (;;) x = x + 1;
    }
    upc_barrier;  // where the others wait
    return 0;
  }
  if (mode == "exit" || mode == "_exit" || mode == "_Exit" || mode == "quick_exit") {
    const int status = arg_int(argc, argv, 3, 4);
    upc_barrier;
    if (MYTHREAD == who) {
      if (mode == "exit") std::exit(status);
      if (mode == "_exit") _exit(status);
      if (mode == "_Exit") std::_Exit(status);
      std::quick_exit(status);
    }
    upc_barrier;
    return 0;
  }
  if (mode == "thread_segv") {
    upc_barrier;
    if (MYTHREAD == who) std::thread(write_null).join();
    upc_barrier;
    return 0;
  }
  if (mode == "thread_throw") {
    upc_barrier;
    if (MYTHREAD == who) std::thread([] { throw std::runtime_error("victim helper thread threw"); }).join();
    upc_barrier;
    return 0;
  }
  if (mode == "thread_throw_after_failure") {
    upc_lock_t* l = upc_all_lock_alloc();
    if (MYTHREAD == 0) {
      // Not a UPC thread: it cannot see the failure, so it gives thread 1 time.
      std::thread([] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        throw std::runtime_error("victim helper thread threw");
      }).join();
    }
    if (MYTHREAD == 1) upc_unlock(l);
    upc_barrier;
    return 0;
  }
  if (mode == "segv_all") {
    upc_barrier;
    write_null();
    return 0;
  }
  std::fprintf(stderr, "victim: unknown mode '%s'\n", mode.c_str());
  return 2;
}
