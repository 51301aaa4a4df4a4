// How a thread waits for MPI across hosts between looks at a request: a few
// looks with a yield between them (ranks that oversubscribe the cores take
// turns), then sleeps that grow from 1 us to 200 us with a timer slack of
// 1 us (the MPI plugin's polls use it too, lib/mpi/plugin.cpp). Linux's default slack of
// 50 us stretched every short sleep to a round trip's length; the sleeps are
// real sleeps, so a host with more ranks than cores never spins.
#pragma once
#include <sched.h>
#include <sys/prctl.h>
#include <time.h>

#include <algorithm>

namespace upc::detail {

struct patient_poll {
  static constexpr long first_sleep_ns = 1'000, last_sleep_ns = 200'000;
  // `looks` quick looks before the sleeps start, each after a yield or (a
  // poller that only reads its own requests, the plugin's) at once.
  explicit patient_poll(int quick_looks = 32, bool yield_between = true)
      : quick_looks_(quick_looks), yield_between_(yield_between) {
    thread_local bool fine = false;
    if (!fine) ::prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
    fine = true;
  }
  // True once the waiter has started sleeping (time to look for failures too).
  bool sleeping() const { return looks_ > quick_looks_; }
  // Something moved: quick looks again.
  void progressed() {
    looks_ = 0;
    pause_ns_ = 0;
  }
  void pause() {
    if (++looks_ <= quick_looks_) {
      if (yield_between_) sched_yield();
      return;
    }
    pause_ns_ = pause_ns_ ? std::min(pause_ns_ * 2, last_sleep_ns) : first_sleep_ns;
    timespec ts{0, pause_ns_};
    nanosleep(&ts, nullptr);
  }

 private:
  int quick_looks_;
  bool yield_between_;
  int looks_ = 0;
  long pause_ns_ = 0;
};

}  // namespace upc::detail
