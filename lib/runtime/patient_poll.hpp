// How a thread waits for MPI across hosts between looks at a request: a few
// looks with a yield between them (ranks that oversubscribe the cores take
// turns), then sleeps that grow from 1 us to 200 us with a timer slack of
// 1 us (the plugin's `patience`, lib/mpi/plugin.cpp). Linux's default slack of
// 50 us stretched every short sleep to a round trip's length; the sleeps are
// real sleeps, so a host with more ranks than cores never spins.
#pragma once
#include <sched.h>
#include <sys/prctl.h>
#include <time.h>

#include <algorithm>

namespace upc::detail {

struct patient_poll {
  static constexpr int yields = 32;
  static constexpr long first_sleep_ns = 1'000, last_sleep_ns = 200'000;
  int looks = 0;
  long pause_ns = 0;

  patient_poll() {
    thread_local bool fine = false;
    if (!fine) ::prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
    fine = true;
  }
  // True once the waiter has started sleeping (time to look for failures too).
  bool sleeping() const { return looks > yields; }
  void pause() {
    if (++looks <= yields) {
      sched_yield();
      return;
    }
    pause_ns = pause_ns ? std::min(pause_ns * 2, last_sleep_ns) : first_sleep_ns;
    timespec ts{0, pause_ns};
    nanosleep(&ts, nullptr);
  }
};

}  // namespace upc::detail
