#include "progress.hpp"

#include <sched.h>

#include <chrono>

#include "../../runtime/control.hpp"
#include "../../runtime/epoch_wait.hpp"
#include "../../runtime/futex.hpp"
#include "upc/detail/static_object.hpp"
#include "upc/runtime.hpp"

namespace upc::coll::coop {

using namespace upc::detail;

progress& this_thread_progress() {
  thread_local progress p;
  return p;
}

progress::~progress() { stop_thread(); }

std::unique_ptr<operation> progress::make() {
  auto l = lock();
  if (spare_.empty()) return std::make_unique<operation>();
  std::unique_ptr<operation> op = std::move(spare_.back());
  spare_.pop_back();
  // Back to a new record, keeping the vectors' storage.
  std::vector<char> seen = std::move(op->seen);
  std::vector<std::uint64_t> blocks = std::move(op->block_elems);
  *op = operation{};
  seen.clear();
  blocks.clear();
  op->seen = std::move(seen);
  op->block_elems = std::move(blocks);
  return op;
}

operation& progress::add(std::unique_ptr<operation> op) {
  auto l = lock();
  live_.push_back(std::move(op));
  operation& o = *live_.back();
  if (threaded_) work_.notify_one();
  return o;
}

void progress::release(operation& op) {
  auto l = lock();
  op.handle = 0;
  op.fence = false;
  op.released = true;
}

bool progress::advance_all_locked(bool help) {
  bool any = false;
  for (auto it = live_.begin(); it != live_.end();) {
    operation& op = **it;
    any |= advance(op, help);
    complete(op);
    if (op.released && over(op)) {
      if (spare_.size() < 64) spare_.push_back(std::move(*it));
      it = live_.erase(it);
    } else {
      ++it;
    }
  }
  return any;
}

bool progress::advance_all() {
  auto l = lock();
  return advance_all_locked();
}

bool progress::live_on(const team* t) const {
  for (const auto& op : live_)
    if (op->t == t) return true;
  return false;
}

namespace {
// Work done while the thread counts as waiting: tells the deadlock detector
// (lib/runtime/monitor.cpp) that the run is moving.
void note_progress() { control().progress.fetch_add(1, std::memory_order_relaxed); }
}  // namespace

void progress::wait_until(team& t, const std::function<bool()>& pred, const char* what, const operation* op) {
  {
    auto l = lock();
    advance_all_locked(false);
    if (pred()) return;
  }
  // Waiting from here on for reports (the work done meanwhile is noted as progress).
  blocked_scope blocked(blocked_kind::collective, op ? static_cast<std::int64_t>(op->seq) : -1, what, nullptr, 0);
  const wait_policy& pol = current_wait_policy();
  for (int i = 0; i < pol.spin_iterations; ++i) {
    {
      auto l = lock();
      if (advance_all_locked(i > 0)) note_progress();
      if (pred()) return;
    }
    cpu_relax();
  }
  for (int i = 0; i < pol.yield_iterations; ++i) {
    {
      auto l = lock();
      const bool any = advance_all_locked(i > 0);  // help the others from the second round on
      if (any) note_progress();
      if (pred()) return;
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
      done = pred();
    }
    if (!done) futex_wait(&w.activity, v, 50'000'000);
    w.sleepers.fetch_sub(1, std::memory_order_relaxed);
    if (done) return;
    check_abort();
    if (peer >= 0 && op && first_unposted(*op) == peer)
      check_peer_alive(wait_site{what, static_cast<std::int64_t>(op->seq), t.thread_of(peer)});
  }
}

void progress::start_thread(int upc_thread) {
  if (threaded_) return;
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

}  // namespace upc::coll::coop
