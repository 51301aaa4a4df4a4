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
#include "patient_poll.hpp"
#include "remote_ops.hpp"

namespace upc::detail {

namespace {
// At most one barrier of each kind is open per UPC thread.
thread_local std::uint64_t tl_user_request = 0;
thread_local std::uint64_t tl_world_request = 0;
// upc_notify's allreduce works in place: its values live until the wait.
thread_local std::int64_t tl_user_ids[2];

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

// Polls patiently (patient_poll.hpp): the others may be far behind, or just
// one round trip away.
template <class Check>
void wait_for(std::uint64_t& request, const char* function, const Check& check) {
  for (patient_poll p; !completed(request, function); p.pause()) {
    if (!p.sleeping()) continue;
    check_abort();
    check();
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

// Minimum and maximum of a value over every rank, in one allreduce with others.
struct spread {
  std::int64_t lo, neg_hi;
};
spread of(std::int64_t v) { return {v, -v}; }
constexpr std::int64_t none = INT64_MAX;  // a thread without an id: no constraint
}  // namespace

// One MPI_Iallreduce is the whole barrier: no rank's minimum is known before
// every rank has contributed (and released its cached writes first), and it
// carries the notify ids at the same time (a barrier and then an allreduce of
// the ids cost two collective latencies).
void hosts_notify() {
  control_block& c = control();
  thread_slot& me = my_slot();
  // This host's notify-time id comparison (barrier.cpp) uses the slot of the
  // phase's parity; the one of the next phase was last written two phases ago.
  // No thread notifies the next phase before this allreduce has our part.
  c.barrier.id_slot[(me.phase + 1) & 1].store(0, std::memory_order_relaxed);
  const spread s = me.notify_has_id ? of(me.notify_id) : spread{none, none};
  tl_user_ids[0] = s.lo;
  tl_user_ids[1] = s.neg_hi;
  dsm_release();
  check_mpi(mpi_ops().iallreduce_min_n(tl_user_ids, 2, &tl_user_request), "upc_notify");
}

void hosts_wait(std::optional<int> notify_id, std::optional<int> wait_id, const char* function, const char* file,
                unsigned line) {
  {
    const std::int64_t shown = wait_id ? *wait_id : notify_id ? *notify_id : INT64_MIN;
    blocked_scope blocked(blocked_kind::barrier_wait, shown, function, file, line);
    wait_for(tl_user_request, function, [&] { check_exits(function, file, line); });
  }
  // Every thread's notify ids as min and max; this thread's wait id against them.
  const std::int64_t lo = tl_user_ids[0], hi = -tl_user_ids[1];
  const std::string mine = notify_id ? std::to_string(*notify_id) : std::string("none");
  if (lo != none && lo != hi)
    fail(function, "barrier id mismatch: the threads notified with ids from " + std::to_string(lo) + " to " +
                       std::to_string(hi) + " in the same phase (this thread " + mine + ")" + location_text(file, line));
  if (lo != none && wait_id && *wait_id != lo)
    fail(function, "barrier id mismatch: this thread waits with id " + std::to_string(*wait_id) +
                       " but the threads notified with id " + std::to_string(lo) + location_text(file, line));
  dsm_acquire();
}

// Not one allreduce as upc_barrier: thread 0's heap state is read once every
// thread has arrived (an upc_global_alloc by a thread of another host, done by
// thread 0's server, comes before that thread's arrival). Collective
// allocations and calls only, not the collectives' own barriers.
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
  std::int64_t v[9] = {hi, -hi, lo, -lo, none, none, none, none, none};
  if (zero) {
    v[4] = static_cast<std::int64_t>(c.sym_top);
    v[5] = static_cast<std::int64_t>(c.sym_free_head);
    v[6] = static_cast<std::int64_t>(c.collective_result[0].load());
    v[7] = static_cast<std::int64_t>(c.collective_result[1].load());
    v[8] = static_cast<std::int64_t>(c.heap_generation.load());
  }
  std::uint64_t request = 0;
  check_mpi(mpi_ops().iallreduce_min_n(v, 9, &request), function);
  wait_for(request, function, [] {});
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
