// The calling UPC thread's collectives in flight, and the loop that advances
// them. Progress is made inside every upccoll call; optionally a progress thread
// (UPCEMU_UPCCOLL_PROGRESS=thread) advances them in the background too.
//
// A record stays here until the user is done with it (the blocking call
// returned, upccoll_wait, upccoll_fence) AND the collective is over for everyone,
// so this thread can still help with a collective it has already completed.
#pragma once
#include <condition_variable>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "operation.hpp"

namespace upc::coll::coop {

class progress {
 public:
  ~progress();

  // A fresh record (recycled: a blocking call should not cost an allocation).
  std::unique_ptr<operation> make();
  operation& add(std::unique_ptr<operation> op);
  void release(operation& op);  // the user needs it no more

  // Advances every live collective once; drops the released ones that are over.
  bool advance_all();

  // Advances until pred() holds, sleeping on `t`'s activity word when nothing is
  // ready. `op`, if given, names whom we wait for in watchdog reports.
  void wait_until(team& t, const std::function<bool()>& pred, const char* what, const operation* op);

  bool live_on(const team* t) const;  // any collective on t not over yet
  bool empty() const { return live_.empty(); }
  std::list<std::unique_ptr<operation>>& live() { return live_; }

  // Progress thread: start/stop (stop also joins). lock() guards the live list
  // and the records against it; without a progress thread it costs nothing.
  void start_thread(int upc_thread);
  void stop_thread();
  bool threaded() const { return threaded_; }
  std::unique_lock<std::mutex> lock() { return threaded_ ? std::unique_lock<std::mutex>(m_) : std::unique_lock<std::mutex>(); }

 private:
  bool advance_all_locked(bool help = true);
  void thread_main(int upc_thread);

  std::list<std::unique_ptr<operation>> live_;
  std::vector<std::unique_ptr<operation>> spare_;
  std::mutex m_;
  std::condition_variable work_;
  bool threaded_ = false;
  bool stop_ = false;
  std::thread thread_;
};

progress& this_thread_progress();

}  // namespace upc::coll::coop
