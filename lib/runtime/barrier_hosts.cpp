#include <sched.h>
#include <time.h>

#include <climits>
#include <cstdint>
#include <string>

#include "barrier_hosts.hpp"
#include "mpi_session.hpp"
#include "call_site.hpp"
#include "control.hpp"
#include "dsm.hpp"
#include "hosts.hpp"
#include "mpi_plugin.hpp"
#include "remote_ops.hpp"

namespace upc::detail {

namespace {
// At most one barrier of each kind is open per UPC thread.
thread_local std::uint64_t tl_user_request = 0;
thread_local std::uint64_t tl_world_request = 0;

void check_mpi(int rc, const char* function) {
  if (rc) fail(function, std::string("MPI failed: ") + mpi_ops().last_error() + " (code " + std::to_string(rc) + ")");
}

// True when the request completed; never blocks.
bool completed(std::uint64_t& request, const char* function) {
  if (request == 0) return true;
  int done = 0;
  check_mpi(mpi_ops().test(request, &done), function);
  if (done) request = 0;
  return done != 0;
}

// Polls with sleeps that grow to 500 us: the others may be far behind.
template <class Check>
void wait_for(std::uint64_t& request, const char* function, const Check& check) {
  long pause_ns = 0;
  for (int polls = 0; !completed(request, function); ++polls) {
    if (polls < 32) { sched_yield(); continue; }
    check_abort();
    check();
    pause_ns = pause_ns ? std::min(pause_ns * 2, 500'000L) : 5'000L;
    timespec ts{0, pause_ns};
    nanosleep(&ts, nullptr);
  }
}

// A thread that has returned from main never arrives (its host told ours).
void check_exits(const char* function, const char* file, unsigned line) {
  control_block& c = control();
  if (c.exited.load(std::memory_order_acquire) == 0) return;
  for (int t = 0; t < c.threads; ++t)
    if (static_cast<thread_state>(c.slots[t].state.load()) == thread_state::finished)
      fail(function, "thread " + std::to_string(t) + " has already returned from main, so this barrier can never "
                     "complete" + location_text(file, line));
}

// The minimum of each value over every rank, waited for as a barrier is (a
// rank stopped by a failure elsewhere leaves it, never blocked in MPI).
void min_over_ranks(std::int64_t* v, int n, const char* function) {
  std::uint64_t request = 0;
  check_mpi(mpi_ops().iallreduce_min_n(v, n, &request), function);
  wait_for(request, function, [] {});
}

// Minimum and maximum of a value over every rank, in one allreduce with others.
struct spread {
  std::int64_t lo, neg_hi;
};
spread of(std::int64_t v) { return {v, -v}; }
}  // namespace

void hosts_notify() {
  dsm_release();
  check_mpi(mpi_ops().ibarrier(&tl_user_request), "upc_notify");
}

void hosts_wait(std::optional<int> notify_id, std::optional<int> wait_id, const char* function, const char* file,
                unsigned line) {
  {
    const std::int64_t shown = wait_id ? *wait_id : notify_id ? *notify_id : INT64_MIN;
    blocked_scope blocked(blocked_kind::barrier_wait, shown, function, file, line);
    wait_for(tl_user_request, function, [&] { check_exits(function, file, line); });
  }
  // Every thread's ids, as min and max of each kind (none: no constraint).
  const std::optional<int> mine = wait_id ? wait_id : notify_id;
  spread s = mine ? of(*mine) : spread{INT64_MAX, INT64_MAX};
  std::int64_t v[2] = {s.lo, s.neg_hi};
  min_over_ranks(v, 2, function);
  if (v[0] != INT64_MAX && v[0] != -v[1])
    fail(function, "barrier id mismatch: the threads passed ids from " + std::to_string(v[0]) + " to " +
                       std::to_string(-v[1]) + " to the same barrier (this thread " +
                       (mine ? std::to_string(*mine) : std::string("none")) + ")" + location_text(file, line));
  dsm_acquire();
}

void hosts_world_barrier(const char* function, std::uint64_t call_hash) {
  dsm_release();
  check_mpi(mpi_ops().ibarrier(&tl_world_request), function);
  {
    blocked_scope blocked(blocked_kind::collective, -1, function, nullptr, 0);
    wait_for(tl_world_request, function, [&] { check_exits(function, nullptr, 0); });
  }
  // Fingerprints (as two halves, min and max) and thread 0's heap state.
  control_block& c = control();
  const bool zero = tl_mythread == 0;
  const std::int64_t hi = static_cast<std::int64_t>(call_hash >> 32), lo = static_cast<std::int64_t>(call_hash & 0xffffffffu);
  std::int64_t v[9] = {hi, -hi, lo, -lo, INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX};
  if (zero) {
    v[4] = static_cast<std::int64_t>(c.sym_top);
    v[5] = static_cast<std::int64_t>(c.sym_free_head);
    v[6] = static_cast<std::int64_t>(c.collective_result[0].load());
    v[7] = static_cast<std::int64_t>(c.collective_result[1].load());
    v[8] = static_cast<std::int64_t>(c.heap_generation.load());
  }
  min_over_ranks(v, 9, function);
  if (!zero && on_my_host(0) == false) {
    __atomic_store_n(&c.sym_top, static_cast<std::uint64_t>(v[4]), __ATOMIC_RELAXED);
    __atomic_store_n(&c.sym_free_head, static_cast<std::uint64_t>(v[5]), __ATOMIC_RELAXED);
    c.collective_result[0].store(static_cast<std::uint64_t>(v[6]));
    c.collective_result[1].store(static_cast<std::uint64_t>(v[7]));
    c.heap_generation.store(static_cast<std::uint64_t>(v[8]));
  }
  dsm_acquire();
  if (v[0] != -v[1] || v[2] != -v[3])
    fail(function, "the threads on the hosts made different collective calls at the same synchronisation: every "
                   "thread must make the same collective calls in the same order");
}

void hosts_world_arrive() {
  dsm_release();
  check_mpi(mpi_ops().ibarrier(&tl_world_request), "collective");
}

bool hosts_world_passed() {
  if (!completed(tl_world_request, "collective")) return false;
  dsm_acquire();
  return true;
}

void hosts_thread_finished(int thread) {
  control_block& c = control();
  for (int h = 0; h < g_host_map.hosts; ++h) {
    if (h == g_host_map.my_host) continue;
    int leader = 0;
    while (g_host_map.host_of[static_cast<std::size_t>(leader)] != h) ++leader;
    remote_atomic(leader, remote_op::store32, &c.slots[thread].state, static_cast<std::uint32_t>(thread_state::finished));
    remote_atomic(leader, remote_op::fetch_add32, &c.exited, 1);
  }
}

}  // namespace upc::detail
