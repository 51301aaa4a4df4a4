// The calling UPC thread's collectives in flight, and the loop that advances
// them. Progress is made inside every call of the task executor's front-ends;
// optionally a progress thread advances them in the background too.
//
// A record stays live until the user is done with it (the blocking call
// returned, the handle was waited on, the fence passed) and this member's part
// is complete; until then this thread advances it, and helps with its other
// tasks. Records are pooled: a blocking call costs no allocation.
#pragma once
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

#include "operation.hpp"

namespace upc::coll::tasks {

class progress {
 public:
  ~progress();

  // A fresh record from the pool; live once added.
  operation& make();
  // The record of a blocking call made while nothing else is in flight
  // (run_blocking, engine.cpp), as the last such call left it: never in the
  // live list, advanced by the waits while lone_active(true) says it is being
  // waited for.
  operation& lone();
  void lone_active(bool on) { lone_active_ = on; }
  void add(operation& op);
  // The user needs it no more: dropped (back to the pool) once over.
  void release(operation& op);

  // Advances every live collective once; drops the released ones that are over.
  bool advance_all(bool help = true);

  // Advances until pred() holds, sleeping on `t`'s activity word when nothing is
  // ready. `op`, if given, names whom we wait for in watchdog reports.
  template <class Pred>
  void wait_until(team_view& t, Pred&& pred, const char* what, const operation* op) {
    using P = std::remove_reference_t<Pred>;
    wait_slow(t, [](void* p) -> bool { return (*static_cast<P*>(p))(); }, const_cast<void*>(static_cast<const void*>(&pred)), what, op);
  }

  bool empty() const { return live_.empty(); }
  const std::vector<operation*>& live() const { return live_; }

  // Progress thread: start/stop (stop also joins). lock() guards the live list
  // and the records against it; without a progress thread it costs nothing.
  void start_thread(int upc_thread, const char* function);
  void stop_thread();
  bool threaded() const { return threaded_; }
  std::unique_lock<std::mutex> lock() { return threaded_ ? std::unique_lock<std::mutex>(m_) : std::unique_lock<std::mutex>(); }

 private:
  bool advance_all_locked(bool help = true);
  void wait_slow(team_view& t, bool (*pred)(void*), void* ctx, const char* what, const operation* op);
  void thread_main(int upc_thread);

  std::vector<operation*> live_;
  std::vector<std::unique_ptr<operation>> pool_;  // every record this thread has made
  std::vector<operation*> spare_;
  operation lone_;
  bool lone_active_ = false;
  std::mutex m_;
  std::condition_variable work_;
  bool threaded_ = false;
  bool stop_ = false;
  std::thread thread_;
};

progress& this_thread_progress();

// Advances this thread's collectives until the one this member last started
// in `slot` is over for everyone (slot_over); `what` names the wait in reports.
void wait_slot_over(team_view& t, int slot, const char* what);

}  // namespace upc::coll::tasks
