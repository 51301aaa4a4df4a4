#include "progress.hpp"

#include "late_agreement.hpp"

#include "../../runtime/call_site.hpp"
#include "../../runtime/host_words.hpp"

#include <sched.h>

#include <algorithm>
#include <chrono>

#include "../../runtime/control.hpp"
#include "../../runtime/epoch_wait.hpp"
#include "../../runtime/futex.hpp"
#include "upc/runtime.hpp"

namespace upc::coll::tasks {

using namespace upc::detail;

progress& this_thread_progress() {
  thread_local progress p;
  return p;
}

void wait_slot_over(team_view& t, int slot, const char* what) {
  if (!slot_over(t, slot)) this_thread_progress().wait_until(t, [&] { return slot_over(t, slot); }, what, nullptr);
}

progress::~progress() { stop_thread(); }

operation& progress::make() {
  auto l = lock();
  operation* op;
  if (spare_.empty()) {
    pool_.push_back(std::make_unique<operation>());
    op = pool_.back().get();
  } else {
    op = spare_.back();
    spare_.pop_back();
  }
  restart(*op);
  return *op;
}

operation& progress::lone() { return lone_; }

void progress::add(operation& op) {
  auto l = lock();
  live_.push_back(&op);
  if (threaded_) work_.notify_one();
}

void progress::release(operation& op) {
  auto l = lock();
  op.at_fence = false;
  op.released = true;
  // This member's part is over (always, for a blocking call): back to the
  // pool now. What is left of the collective is run by the members that need
  // it; the slot is checked to be over before it is reused.
  if (op.finished_local) {
    live_.erase(std::find(live_.begin(), live_.end(), &op));
    spare_.push_back(&op);
  }
}

bool progress::advance_all_locked(bool help) {
  bool any = false;
  if (lone_active_) any |= advance(lone_, help);
  for (std::size_t i = 0; i < live_.size();) {
    operation& op = *live_[i];
    any |= advance(op, help);
    complete(op);
    if (op.released && op.finished_local) {
      spare_.push_back(&op);
      live_.erase(live_.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
  return any;
}

bool progress::advance_all(bool help) {
  auto l = lock();
  return advance_all_locked(help);
}

namespace {
// Work done while the thread counts as waiting: tells the deadlock detector
// (lib/runtime/monitor.cpp) that the run is moving.
void note_progress() { control().progress.fetch_add(1, std::memory_order_relaxed); }
}  // namespace

void progress::wait_slow(team_view& t, bool (*pred)(void*), void* ctx, const char* what, const operation* op) {
  {
    auto l = lock();
    advance_all_locked(false);
    if (pred(ctx)) return;
  }
  // Waiting from here on for reports (the work done meanwhile is noted as progress).
  blocked_scope blocked(blocked_kind::collective, op ? static_cast<std::int64_t>(op->seq) : -1, what, nullptr, 0);
  if (several_hosts() || (op && op->handoff)) {
    // No futex reaches across hosts, and MPI moves a collective handed to it
    // only while someone polls it: advance and poll, politely.
    for (int round = 0;; ++round) {
      {
        auto l = lock();
        if (advance_all_locked(true)) {
          note_progress();
          round = 0;
        }
        if (pred(ctx)) return;
      }
      polite_pause(round);
    }
  }
  const wait_policy& pol = current_wait_policy();
  // Helping other members' tasks starts only after a while: while everyone is
  // active each member runs its own tasks, on data in its own cache, and no
  // task word is fought over.
  constexpr int help_after_spins = 512;
  // With a core per thread, a short spin on the posts first: a member's post
  // usually arrives within a fraction of a microsecond, sooner than a
  // sched_yield returns (measured, docs/benchmarks.md).
  const int spins = pol.spin_iterations ? pol.spin_iterations : own_core() ? 64 : 0;
  for (int i = 0; i < spins; ++i) {
    {
      auto l = lock();
      if (advance_all_locked(i >= help_after_spins)) note_progress();
      if (pred(ctx)) return;
    }
    cpu_relax();
  }
  for (int i = 0; i < pol.yield_iterations; ++i) {
    {
      auto l = lock();
      const bool any = advance_all_locked(i > 0);  // help the others from the second round on
      if (any) note_progress();
      if (pred(ctx)) return;
      if (any) i = 0;
    }
    sched_yield();
    if ((i & 15) == 15) check_abort();
  }
  team_words& w = t.words();
  const int peer = op ? first_unposted(*op) : -1;
  for (;;) {
    w.sleepers.fetch_add(1, std::memory_order_seq_cst);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    const std::uint32_t v = w.activity.load(std::memory_order_seq_cst);
    bool done;
    {
      auto l = lock();
      if (advance_all_locked()) note_progress();
      done = pred(ctx);
    }
    if (!done) futex_wait(&w.activity, v, pol.sleep_ns);
    w.sleepers.fetch_sub(1, std::memory_order_relaxed);
    if (done) return;
    check_abort();
    if (peer >= 0 && op && first_unposted(*op) == peer)
      check_peer_alive(wait_site{what, static_cast<std::int64_t>(op->seq), t.thread_of(peer)});
  }
}

void progress::start_thread(int upc_thread, const char* function) {
  if (threaded_) return;
  // The page cache of other hosts' partitions is the UPC thread's alone.
  if (several_hosts())
    fail(function, "a progress thread is not built yet for ranks spread over several hosts "
                               "(docs/backends.md): run without one there");
  threaded_ = true;
  stop_ = false;
  thread_ = std::thread([this, upc_thread] { thread_main(upc_thread); });
}

void progress::stop_thread() {
  if (!threaded_) return;
  {
    std::lock_guard<std::mutex> l(m_);
    stop_ = true;
  }
  work_.notify_one();
  thread_.join();
  threaded_ = false;
}

// Advances whatever is live; sleeps on a condition variable while nothing is.
void progress::thread_main(int upc_thread) {
  tl_mythread = upc_thread;  // user operations may ask MYTHREAD
  mark_progress_thread();  // a disagreement found here is recorded, not thrown (late_agreement.hpp)
  std::unique_lock<std::mutex> l(m_);
  int idle = 0;
  while (!stop_) {
    if (live_.empty()) {
      work_.wait(l, [&] { return stop_ || !live_.empty(); });
      continue;
    }
    const bool any = advance_all_locked();
    l.unlock();
    if (any) note_progress();
    if (any) idle = 0;
    else if (++idle < 64) sched_yield();
    else std::this_thread::sleep_for(std::chrono::microseconds(50));
    l.lock();
  }
}

}  // namespace upc::coll::tasks
