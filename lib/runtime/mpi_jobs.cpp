#include "mpi_jobs.hpp"

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "mpi_session.hpp"
#include "control.hpp"
#include "mpi_plugin.hpp"

namespace upc::detail {

namespace {

enum stage : int { queued, agreeing, agreed, moving, moved, closing, finished };

std::uint64_t g_world_comms[3] = {0, 0, 0};  // 0 before a run made them: jobs unavailable

// The queue from the UPC thread, and the jobs in flight (in call order).
std::mutex g_queue_lock;
std::condition_variable g_queue_cv;
std::deque<std::shared_ptr<mpi_job>> g_queue;
std::atomic<int> g_pending{0};  // submitted and not finished

std::mutex g_round_lock;  // one round at a time: a request is tested by one thread only
std::vector<std::shared_ptr<mpi_job>> g_flight;

std::thread g_thread;
bool g_stop = false;

void finish(mpi_job& j, const char* call, int rc) {
  if (rc) j.error = std::string(call) + ": " + mpi_ops().last_error();
  j.stage = finished;
  j.done.store(true, std::memory_order_release);
  if (j.on_done) j.on_done(j);
  g_pending.fetch_sub(1, std::memory_order_acq_rel);
}

void start_agreement(mpi_job& j) {
  j.values[0] = static_cast<std::int64_t>(j.key);
  j.values[1] = static_cast<std::int64_t>(~j.key);
  j.values[2] = static_cast<std::int64_t>(j.balance);
  j.stage = agreeing;
  if (int rc = mpi_ops().iagree(j.values, j.agree_comm, &j.request)) finish(j, "MPI_Iallreduce", rc);
}

void start_data(mpi_job& j) {
  if (!j.agreed || !j.move) return finish(j, "", 0);
  j.stage = moving;
  auto at = [](const std::vector<int>& v) { return v.empty() ? nullptr : v.data(); };
  const int rc = j.op >= 5 ? mpi_ops().icollective_v(j.op, j.send, at(j.send_counts), at(j.send_displs), j.recv,
                                                     at(j.recv_counts), at(j.recv_displs), j.root, j.data_comm,
                                                     &j.request)
                           : mpi_ops().icollective(j.op, j.send, j.recv, j.bytes, j.root, j.data_comm, &j.request);
  if (rc) return finish(j, "the non-blocking collective", rc);
  // MPI only reads the root's source meanwhile.
  if (j.root_copies && j.bytes && j.send != j.recv) std::memmove(j.recv, j.send, j.bytes);
}

void start_out_barrier(mpi_job& j) {
  if (!j.out_barrier) return finish(j, "", 0);
  j.stage = closing;
  if (int rc = mpi_ops().ibarrier_on(j.out_comm, &j.request)) finish(j, "MPI_Ibarrier", rc);
}

// Tests the job's request; true when it completed (or failed: then finished).
bool request_done(mpi_job& j) {
  int done = 0;
  if (int rc = mpi_ops().test(j.request, &done)) {
    finish(j, "MPI_Test", rc);
    return false;
  }
  return done != 0;
}

// Takes the queued jobs, tests what is in flight, starts data stages in call
// order; true when something moved on. Holds g_round_lock.
bool round_locked() {
  bool any = false;
  {
    std::lock_guard<std::mutex> l(g_queue_lock);
    while (!g_queue.empty()) {
      g_flight.push_back(std::move(g_queue.front()));
      g_queue.pop_front();
      start_agreement(*g_flight.back());
      any = true;
    }
  }
  // Stages that start in call order on their communicator (a team's): a job's
  // data stage once every earlier job's on the same team has started (or was
  // skipped), its out barrier likewise. Other teams' jobs do not hold it up:
  // their members may call only after this one is over.
  thread_local std::vector<std::uint64_t> data_held, out_held;  // communicators with an earlier job not started
  data_held.clear();
  out_held.clear();
  auto held = [](const std::vector<std::uint64_t>& v, std::uint64_t c) {
    return std::find(v.begin(), v.end(), c) != v.end();
  };
  for (const std::shared_ptr<mpi_job>& p : g_flight) {
    mpi_job& j = *p;
    if (j.stage == agreeing && request_done(j)) {
      // Every member's key equal (the minimum of key and of ~key say so), and
      // the count balances add up to 0.
      j.agreed = j.values[0] == ~j.values[1] && j.values[2] == 0;
      j.stage = agreed;
      any = true;
    }
    if (j.stage == agreed && !held(data_held, j.data_comm)) {
      start_data(j);
      any = true;
    }
    if (j.stage == moving && request_done(j)) {
      j.stage = moved;
      any = true;
    }
    if (j.stage == moved && !held(out_held, j.out_comm)) {
      start_out_barrier(j);
      any = true;
    }
    if (j.stage == closing && request_done(j)) {
      finish(j, "", 0);
      any = true;
    }
    if (j.stage == agreeing || j.stage == agreed) data_held.push_back(j.data_comm);
    if (j.out_barrier && j.stage < closing && j.stage != finished) out_held.push_back(j.out_comm);
  }
  std::erase_if(g_flight, [](const std::shared_ptr<mpi_job>& p) { return p->stage == finished; });
  return any;
}

// The rank's job thread: rounds while jobs are in flight, with pauses that
// grow to 200 us when nothing moves (ranks may share cores), asleep otherwise.
void thread_main() {
  int idle = 0;
  long pause_ns = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> l(g_queue_lock);
      g_queue_cv.wait(l, [] { return g_stop || g_pending.load() > 0; });
      if (g_stop) return;
    }
    bool any;
    {
      std::lock_guard<std::mutex> l(g_round_lock);
      any = round_locked();
    }
    if (any) {
      idle = 0;
      pause_ns = 0;
      control().progress.fetch_add(1, std::memory_order_relaxed);  // the deadlock detector sees movement
      continue;
    }
    if (++idle < 32) {
      sched_yield();
      continue;
    }
    pause_ns = pause_ns ? std::min(pause_ns * 2, 200'000L) : 2'000L;
    std::this_thread::sleep_for(std::chrono::nanoseconds(pause_ns));
  }
}

}  // namespace

bool mpi_jobs_available() noexcept { return g_world_comms[0] != 0; }

std::uint64_t mpi_jobs_world_comm(int which) noexcept { return g_world_comms[which]; }

void mpi_jobs_submit(std::shared_ptr<mpi_job> job) {
  job->stage = queued;
  g_pending.fetch_add(1, std::memory_order_acq_rel);
  {
    std::lock_guard<std::mutex> l(g_queue_lock);
    g_queue.push_back(std::move(job));
    g_stop = false;
    if (!g_thread.joinable()) g_thread = std::thread(thread_main);
  }
  g_queue_cv.notify_one();
}

bool mpi_jobs_poll() {
  if (g_pending.load(std::memory_order_acquire) == 0) return false;
  std::unique_lock<std::mutex> l(g_round_lock, std::try_to_lock);
  return l.owns_lock() && round_locked();
}

void mpi_jobs_begin_run() {
  g_world_comms[0] = g_world_comms[1] = 0;
  if (!mpi_thread_multiple()) return;  // the job thread would call MPI beside the UPC thread
  const mpi_plugin_ops& m = mpi_ops();
  std::uint64_t made[3] = {0, 0, 0};
  for (std::uint64_t& c : made)
    if (m.comm_dup(0, &c)) return;
  for (int i = 0; i < 3; ++i) g_world_comms[i] = made[i];
}

void mpi_jobs_end_run() {
  {
    std::lock_guard<std::mutex> l(g_queue_lock);
    g_stop = true;
  }
  g_queue_cv.notify_one();
  if (g_thread.joinable()) g_thread.join();
  // What a failed run left in flight is forgotten with its communicators.
  {
    std::lock_guard<std::mutex> l(g_queue_lock);
    g_queue.clear();
  }
  g_flight.clear();
  g_pending.store(0);
  for (std::uint64_t& c : g_world_comms)
    if (c) {
      mpi_ops().comm_free(c);
      c = 0;
    }
}

}  // namespace upc::detail
