// The task executor's part of the engine's public header (../engine.hpp):
// what a front-end calls to start a collective, complete it, and to make,
// free and finish with teams.
#include "../engine.hpp"

#include <algorithm>

#include "../registry.hpp"
#include "../../runtime/traffic.hpp"
#include "agreement.hpp"
#include "decomposition.hpp"
#include "mpi_handoff.hpp"
#include "progress.hpp"
#include "upc_types.h"

namespace upc::coll::tasks {

namespace {

// Waits until every collective this member started on the team is over for everyone.
void settle_slots(team_view& v, const front_end& library) {
  for (int s = 0; s < slots; ++s) wait_slot_over(v, s, library.settling);
}


// Bytes of this member's input from its send pointer: what its tasks read
// from it, and what it stages.
std::uint64_t input_bytes(const call& c, int size, bool at_root) {
  const std::uint64_t P = static_cast<std::uint64_t>(size);
  auto extent = [&](std::size_t counts_at) {  // the reach of the blocks of a v-variant
    std::uint64_t e = 0;
    for (int r = 0; r < size; ++r) {
      const std::uint64_t n = c.meta[counts_at + std::size_t(r)], d = c.meta[counts_at + std::size_t(size + r)];
      if (n) e = std::max(e, d + n);
    }
    return e;
  };
  switch (c.kind) {
    case collective::member_broadcast: return at_root ? c.send_bytes : 0;
    case collective::member_scatter: return at_root ? c.send_bytes * P : 0;
    case collective::member_scatterv: return at_root && !c.meta.empty() ? extent(0) : 0;
    case collective::member_gather:
    case collective::member_gatherv:
    case collective::member_gather_all:
    case collective::member_gather_allv: return c.send_bytes;
    case collective::member_exchange: return c.send_bytes * P;
    case collective::member_exchangev: return c.meta.empty() ? 0 : extent(0);
    case collective::member_reduce:
    case collective::member_allreduce:
    case collective::member_reduce_scatter:
    case collective::member_exclusive_scan:
    case collective::member_inclusive_scan: return c.count * c.eop.size;
    default: return 0;
  }
}

}  // namespace

namespace {

// Fills a fresh record for c on `members`: its algorithm and tasks, and this
// member's part of its post but for the sequence number.
void describe(operation& op, team& members, const call& c) {
  team_view& t = team_view::of(members);
  op.t = &t;
  op.kind = c.kind;
  op.function = c.function;
  op.flags = c.failed == status::ok ? c.flags : 0;
  op.count = c.count;
  op.eop = c.eop;
  op.root = c.root;
  op.block_elems.assign(c.block_elems.begin(), c.block_elems.end());  // c may be a remembered call, used again
  op.library = c.library;
  op.stamp = c.failed == status::ok ? c.stamp : 0;
  op.rules = rules_generation();
  op.must_stage = false;
  op.to_mpi = nullptr;  // the mpi row this call uses, or would had it not failed
  // The mpi rows where this team's collectives can go to MPI (mpi_handoff.hpp).
  const unsigned features = handoff::possible(members) ? 0u : feature::off_mpi;
  selection sel{c.kind, c.function, c.selection_bytes, t.size(), 0, features};
  sel.across_hosts = !features && handoff::spans_hosts(members);
  if (c.failed == status::ok) {
    const algorithm_entry& e = select(sel);
    op.algorithm = e.name;
    op.dec = e.tasks;
    op.ntasks = op.dec->tasks(op);
    op.must_stage = c.in_place && !op.dec->in_place_direct;
    if (op.dec->mpi_op >= 0) op.to_mpi = op.dec;
  } else if (!features) {
    // The others, if they hand it to MPI, wait in MPI's agreement for this member too.
    try {
      const algorithm_entry& e = select(sel);
      if (e.tasks && e.tasks->mpi_op >= 0) op.to_mpi = e.tasks;
    } catch (const upc::error&) {
    }
  }
  post_data& m = op.mine;
  m.kind = c.kind;
  m.flags = op.flags;
  m.in_place = c.in_place && c.failed == status::ok;
  m.root = c.root;
  m.recv = c.recv;
  m.send_bytes = c.send_bytes;
  // reduce_scatter: every member's counts, agreed on through one number.
  m.recv_bytes = c.kind == collective::member_reduce_scatter && c.failed == status::ok
                     ? fingerprint(op.block_elems.data(), op.block_elems.size())
                     : c.recv_bytes;
  m.count = c.count;
  m.op_arg = c.op_arg;
  m.user_fn = c.user_fn;
  m.type_arg = c.type_arg;
  op.input = c.failed == status::ok ? input_bytes(c, t.size(), c.root == t.rank()) : 0;
  op.stages_input = stages_input(op.flags, op.input, op.must_stage);
}

// Whether op, the record of the last blocking call, was described from c as it is now.
bool described(const operation& op, const team& members, const call& c) {
  return c.stamp && op.stamp == c.stamp && op.t && &op.t->members() == &members && op.rules == rules_generation() &&
         !choices_printed();
}

// Posts a described record (start()) under the next sequence number; the posted status.
status post_call(operation& op, team& members, const call& c) {
  team_view& t = *op.t;
  if (op.algorithm[0]) {
    note_last_algorithm(op.algorithm);
    detail::traffic::task_scope counted(op.function, op.algorithm);
    detail::traffic::fan_in(0, op.algorithm);  // counts the call (tasks have no fixed readers)
  }
  op.seq = t.next_seq();
  op.mine.status = static_cast<std::int32_t>(c.failed);
  op.mine.send = c.send;  // start() points it at the staged copy
  // The slot's collective `slots` back must be over for everyone first.
  if (op.seq > static_cast<std::uint32_t>(slots)) wait_slot_over(t, static_cast<int>(op.seq % slots), op.function);
  op.race.active = false;
  if (detail::g_races && c.failed == status::ok)
    race_task_start(op.race, members, op.seq, c.kind == collective::barrier, op.flags, c.areas, c.site);
  const status posted = start(op, c.meta.empty() ? nullptr : &c.meta);
  if (op.to_mpi) handoff::submit(op, *op.to_mpi);
  return posted;
}

}  // namespace

operation& start_collective(team& members, call& c, status& posted) {
  progress& pr = this_thread_progress();
  operation& op = pr.make();
  describe(op, members, c);
  posted = post_call(op, members, c);
  // Collectives already in flight advance here too; the new one waits for the
  // next call (its work done now would not overlap anything).
  pr.add(op);
  return op;
}

status wait(operation& op) {
  this_thread_progress().wait_until(*op.t, [&] { return complete(op); }, op.function, &op);
  if (op.race.active) race_task_complete(op.race);
  return op.result;
}

status run_blocking(team& members, call& c, status& posted) {
  progress& pr = this_thread_progress();
  if (!pr.empty() || pr.threaded()) {
    // Others in flight (they advance in the wait), or a progress thread that
    // walks the live list: the general way.
    operation& op = start_collective(members, c, posted);
    const status result = posted == status::ok ? wait(op) : posted;
    release(op);
    return result;
  }
  // Nothing else in flight: the record need not be in the live list, and
  // nothing but this call is advanced while it waits. A record left behind
  // is not advanced again, as in release(): what is left of the collective
  // is run by the members that need it.
  operation& op = pr.lone();
  if (described(op, members, c)) {
    renew(op);  // the same call as the last one: only its progress is new
  } else {
    restart(op);
    describe(op, members, c);
  }
  posted = post_call(op, members, c);
  if (posted != status::ok) return posted;  // posted as a failure: nothing to wait for
  advance(op, false);  // this member's own tasks at once
  if (!complete(op)) {
    pr.lone_active(true);
    struct stop_advancing {
      progress& pr;
      ~stop_advancing() { pr.lone_active(false); }
    } scope{pr};
    pr.wait_until(*op.t, [&] { return complete(op); }, op.function, &op);
  }
  if (op.race.active) race_task_complete(op.race);
  // Nothing else of this member was in flight: its part of every collective
  // of the team up to this one is over (team_view::completed_by_all).
  op.t->completed(op.t->rank()).store(op.seq, std::memory_order_release);
  return op.result;
}

bool test(operation& op) {
  progress& pr = this_thread_progress();
  pr.advance_all();
  auto l = pr.lock();
  return complete(op);
}

void release(operation& op) { this_thread_progress().release(op); }

void complete_at_fence(operation& op) { op.at_fence = true; }
const char* function_of(const operation& op) noexcept { return op.function; }
team& team_of(const operation& op) noexcept { return op.t->members(); }

void progress_here() {
  progress& pr = this_thread_progress();
  if (!pr.empty()) pr.advance_all();
}

status fence(const char* function) {
  progress& pr = this_thread_progress();
  status first = status::ok;
  for (;;) {
    operation* pending = nullptr;
    {
      auto l = pr.lock();
      for (operation* op : pr.live())
        if (op->at_fence && !op->released) {
          pending = op;
          break;
        }
    }
    if (!pending) return first;
    const status s = wait(*pending);
    if (s != status::ok && first == status::ok) first = s;
    if (s != status::ok && pending->library)
      pending->library->report(function, failure{s, {}, "a fence-completed collective failed"},
                               pending->t->thread_of(pending->t->rank()));
    pr.release(*pending);
  }
}

namespace {

// Completes every collective of this thread on t (nullptr: on every team) and
// waits until each is over for everyone, so the team's memory can go.
void settle(team* t, const front_end& library) {
  progress& pr = this_thread_progress();
  team_view* view = t ? &team_view::of(*t) : nullptr;
  for (;;) {
    operation* pending = nullptr;
    {
      auto l = pr.lock();
      for (operation* op : pr.live())
        if (!view || op->t == view) {
          pending = op;
          break;
        }
    }
    if (!pending) break;
    // Under --check=races a collective settled here is complete for this member
    // like one waited on (a fence-completed one at the library's end).
    if (!pending->released && pending->race.active && !pending->race.completed) wait(*pending);
    if (!pending->released) pr.release(*pending);
    // Released records are dropped once this member's part is complete.
    auto dropped = [&] {
      for (operation* op : pr.live())
        if (op == pending) return false;
      return true;
    };
    pr.wait_until(*pending->t, dropped, library.settling, nullptr);
  }
  // Then every collective this member started on t must be over for everyone.
  if (view) settle_slots(*view, library);
}

}  // namespace

status split_team(team& parent, bool join, int color, int key, status failed, std::unique_ptr<team>& out,
                  const char* function) {
  const status s = team::split(parent, join, color, key, failed, out, function);
  if (s == status::ok && out) handoff::team_made(*out, function);  // its MPI communicators, on the mpi backend
  return s;
}

void free_team(team& t, const front_end& library, const char* function) {
  settle(&t, library);
  t.barrier(function);
  team_view::of(t).free_staged(function);
  t.release(function);
}

void finalize(const std::vector<team*>& others, const front_end& library, const char* function) {
  settle(nullptr, library);
  settle_slots(team_view::of(team::world()), library);
  for (team* t : others) settle_slots(team_view::of(*t), library);
  stop_progress_thread();
  team& world = team::world();
  world.barrier(function);
  team_view::of(world).free_staged(function);
  for (team* t : others) team_view::of(*t).free_staged(function);
}

void start_progress_thread(int upc_thread, const char* function) {
  this_thread_progress().start_thread(upc_thread, function);
}
void stop_progress_thread() { this_thread_progress().stop_thread(); }

}  // namespace upc::coll::tasks
