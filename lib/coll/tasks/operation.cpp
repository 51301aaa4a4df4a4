#include "operation.hpp"

#include <cstring>
#include <string>

#include "../../runtime/control.hpp"
#include "../../runtime/traffic.hpp"
#include "../plan.hpp"
#include "agreement.hpp"
#include "decomposition.hpp"
#include "late_agreement.hpp"
#include "mpi_handoff.hpp"
#include "upc/detail/static_object.hpp"
#include "upc/error.hpp"
#include "upc/runtime.hpp"
#include "upc_types.h"

namespace upc::coll::tasks {

namespace {

status error_of(const operation& op) {
  const std::uint64_t w = across::load(op.t->words().error[op.seq % slots]);
  return static_cast<std::uint32_t>(w >> 32) == op.seq ? static_cast<status>(w & 0xff) : status::ok;
}

// Rank r's post, once it is there: compares its agreement key with ours, and
// on a difference records the first difference as the collective's failure (a
// task must not read a post it cannot interpret). True once r has posted.
bool check_post(operation& op, int r) {
  if (r == op.t->rank()) return true;  // ours: posted before any of its tasks is tried
  const post& p = op.t->post_of(r, op.seq);
  const std::uint32_t s = across::load_seq(p);
  if (!reached(s, op.seq)) return false;
  across::acquire();  // its post and data, fresh
  if (s != op.seq) return true;  // over for everyone and reused
  const std::uint64_t key = std::atomic_ref<const std::uint64_t>(p.key).load(std::memory_order_relaxed);
  if (key == op.mine.key) return true;
  post_data d;
  if (!snapshot(op, r, d)) return true;
  difference diff;
  if (const status st = compare_posts(op, r, d, diff); st != status::ok) fail_collective(op, failure{st, diff, {}});
  return true;
}

bool all_posted(operation& op) {
  if (op.all_posted) return true;
  const int P = op.t->size();
  while (op.posts_checked < P && check_post(op, op.posts_checked)) ++op.posts_checked;
  if (op.posts_checked < P) return false;
  op.all_posted = true;
  if (is_vector(op.kind) && error_of(op) == status::ok)
    if (const failure f = verify_pairs(op); f.code != status::ok) fail_collective(op, f);
  return true;
}

bool in_allsync(const operation& op) { return op.flags & UPC_IN_ALLSYNC; }
bool out_allsync(const operation& op) { return op.flags & UPC_OUT_ALLSYNC; }

bool task_done(const operation& op, int i) {
  if (!reached(across::load(op.t->task(i, op.seq).done), op.seq)) return false;
  across::acquire();  // what the task wrote, fresh
  return true;
}

bool ready(operation& op, int task) {
  if (!op.dec) return false;  // a failed call: its task slots are only drained
  const task_needs n = op.dec->needs(op, task);
  if (n.all || in_allsync(op)) {
    if (!all_posted(op)) return false;
  } else {
    if (n.a >= 0 && !check_post(op, n.a)) return false;
    if (n.b >= 0 && !check_post(op, n.b)) return false;
  }
  for (int i = n.after_lo; i < n.after_hi; ++i)
    if (!task_done(op, i)) return false;
  return true;
}

bool claim(task_word& w, std::uint32_t seq) {
  std::uint32_t v = across::load(w.claimed);
  if (reached(v, seq)) return false;
  return across::compare_exchange(w.claimed, v, seq);
}

void finish_task(const operation& op, task_word& w) {
  // Never backwards: after an error, members whose task counts differ (a failed
  // call drains them all) may drain a word a later collective already reuses.
  across::release();  // what the task wrote goes home before it says done
  std::uint32_t cur = across::load(w.done);
  while (!reached(cur, op.seq) && !across::compare_exchange(w.done, cur, op.seq)) {
  }
  op.t->notify();
}

// After a failure nothing more is computed: every unclaimed task is marked done.
bool drain(operation& op) {
  bool any = false;
  for (int i = 0; i < op.ntasks; ++i) {
    task_word& w = op.t->task(i, op.seq);
    if (claim(w, op.seq)) {
      finish_task(op, w);
      any = true;
    }
  }
  return any;
}

// The steps of one task, planned and run by whoever claimed it: every byte
// goes through run_data_step, as in the owner executor.
status run_task(const operation& op, int i) {
  thread_local plan p;
  p.clear();
  p.op = op.eop;
  p.immediate = true;  // each step runs as the task plans it
  detail::traffic::task_scope counted(op.function, op.algorithm);
  return op.dec->plan_task(op, i, p);
}

// Tries task i: claims it if it is ready and unclaimed, and runs it.
bool try_task(operation& op, int i) {
  task_word& w = op.t->task(i, op.seq);
  if (reached(across::load(w.claimed), op.seq)) return false;
  if (!ready(op, i)) return false;
  if (error_of(op) != status::ok) return false;
  if (!claim(w, op.seq)) return false;
  if (const status st = run_task(op, i); st != status::ok)
    fail_collective(op, failure{st, {}, "the byte counts of a sender and a receiver disagree (task " + std::to_string(i) + ")"});
  finish_task(op, w);
  return true;
}

// The tasks member `rank`'s part waits for (MYSYNC): those writing its receive
// buffer, and those reading its send buffer unless it staged its input.
bool concerns(const operation& op, int task, int rank, bool staged) {
  if (!op.dec) return true;  // a call that failed before it chose: every task slot
  if (!op.dec->writes || op.dec->writes(op, task, rank)) return true;
  if (staged) return false;
  return !op.dec->reads || op.dec->reads(op, task, rank);
}
bool concerns_me(const operation& op, int task) { return concerns(op, task, op.t->rank(), op.mine.staged); }

// Whether any task's own member could leave before it runs, had it staged its
// input (the decomposition's shape, worked out once per call).
bool may_orphan(operation& op) {
  if (op.orphans < 0) {
    op.orphans = 0;
    const int P = op.t->size();
    for (int i = 0; i < op.ntasks && !op.orphans; ++i) op.orphans = !concerns(op, i, i % P, true);
  }
  return op.orphans;
}

// A task this member waits for whose own member (task % size) need not wait for
// it: that member may have left its call before the task was ready (a gather's
// sender whose input was staged, before the root posted), so the task is
// run by whoever waits for it, at once, not after the helping delay.
bool orphaned(operation& op, int task) {
  const int owner = task % op.t->size();
  if (owner == op.t->rank() || !concerns_me(op, task)) return false;
  const post& p = op.t->post_of(owner, op.seq);
  if (!reached(across::load_seq(p), op.seq)) return false;
  across::acquire();
  return !concerns(op, task, owner, std::atomic_ref<const std::uint8_t>(p.staged).load(std::memory_order_relaxed));
}

bool tasks_done(const operation& op) {
  for (int i = 0; i < op.ntasks; ++i)
    if (!task_done(op, i)) return false;
  return true;
}

// The tasks this member's part waits for: a few of the collective's many
// (its own, for most), listed once per description and staging, not asked of
// every task at every look.
bool my_tasks_done(operation& op) {
  if (op.mine_for_staged != op.mine.staged) {
    op.mine_tasks.clear();
    for (int i = 0; i < op.ntasks; ++i)
      if (concerns_me(op, i)) op.mine_tasks.push_back(i);
    op.mine_for_staged = static_cast<std::int8_t>(op.mine.staged);
  }
  for (const int i : op.mine_tasks)
    if (!task_done(op, i)) return false;
  return true;
}

// A buffer of at least `bytes` in this member's partition for a slot, grown
// when too small (the slot's previous collective is over: nobody reads the
// old one); nullptr when the heap has no room.
char* slot_area(team_view& t, std::uint64_t& offset, std::uint64_t& size, std::uint64_t bytes, const char* what) {
  const int me = t.thread_of(t.rank());
  if (bytes > size) {
    if (offset) detail::heap_free(shared_address{offset, static_cast<std::uint32_t>(me), 0}, what);
    offset = 0;
    size = 0;
    try {
      offset = detail::local_alloc(me, bytes, what);
      size = bytes;
    } catch (const upc::error&) {
      return nullptr;
    }
  }
  return detail::g_partitions + std::uint64_t(me) * detail::g_partition_bytes + offset;
}

}  // namespace

void restart(operation& op) {
  op.orphans = -1;
  op.mine_for_staged = -1;
  op.algorithm = "";
  op.dec = nullptr;
  op.ntasks = 0;
  op.block_elems.clear();
  op.stamp = 0;
  op.key_known = false;
  op.to_mpi = nullptr;
  renew(op);
}

void renew(operation& op) {
  op.posts_checked = 0;
  op.all_posted = false;
  op.finished_local = false;
  op.result = status::ok;
  op.at_fence = false;
  op.released = false;
  op.handoff.reset();
  op.race.active = op.race.completed = false;
}

bool slot_over(team_view& t, int slot) {
  team_view::slot_state& s = t.slot[slot];
  if (s.seq == 0 || s.over == s.seq) return true;
  if (s.handoff) {
    // Handed to MPI: over here once this member's job is (its thread still
    // writes the team's words until then), which settling a team waits for.
    if (!handoff::finished_job(*s.handoff)) {
      handoff::poll();
      return false;
    }
    s.handoff.reset();
    s.over = s.seq;
    return true;
  }
  if (t.completed_by_all(s.seq)) {  // every member posted it and every task is done
    check_late(t, slot);
    s.over = s.seq;
    return true;
  }
  for (int r = 0; r < t.size(); ++r)
    if (!reached(across::load_seq(t.post_of(r, s.seq)), s.seq)) return false;
  check_late(t, slot);
  for (int i = 0; i < s.tasks; ++i)
    if (!reached(across::load(t.task(i, s.seq).done), s.seq)) return false;
  across::acquire();
  s.over = s.seq;
  return true;
}

void fail_collective(const operation& op, const failure& f, failure_source source) {
  std::atomic<std::uint64_t>& w = op.t->words().error[op.seq % slots];
  std::uint64_t cur = across::load(w);
  const std::uint64_t mine = (std::uint64_t(op.seq) << 32) | static_cast<std::uint32_t>(f.code);
  for (;;) {
    // Someone was first, or the slot already serves a later collective.
    if (reached(static_cast<std::uint32_t>(cur >> 32), op.seq)) return;
    if (across::compare_exchange(w, cur, mine)) break;
  }
  op.t->notify();
  if (source == failure_source::own_call) return;
  if (op.library && upc::check_enabled()) op.library->report(op.function, f, op.t->thread_of(op.t->rank()));
  end_run_if_someone_left(op, f);
}

// Stage the input: a small one so that nobody reads this member's buffer
// after it posts (eager), one that its own output would overwrite because it
// must be (in place on a decomposition that reads inputs after writing).
// Never eagerly under UPC_IN_ALLSYNC: the input may still be written by the
// members that have not started yet (they may write it before they start).
bool stages_input(int flags, std::uint64_t input_bytes, bool must_stage) {
  return input_bytes && (must_stage || (!(flags & UPC_IN_ALLSYNC) && input_bytes <= eager_limit()));
}

status start(operation& op, const std::vector<std::uint64_t>* meta) {
  const std::uint64_t input_bytes = op.input;
  const bool must_stage = op.must_stage;
  team_view& t = *op.t;
  const int slot = static_cast<int>(op.seq % slots);
  post& p = t.post_of(t.rank(), op.seq);
  // Seqlock write: mark the slot as being rewritten before touching the fields
  // or the areas staged for the slot's previous collective.
  seq_of(p).store(0, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  post_data& mine = op.mine;
  team_view::slot_state& ss = t.slot[slot];
  mine.meta = nullptr;
  mine.staged = 0;
  if (meta && !mine.status) {
    const std::uint64_t bytes = meta->size() * sizeof(std::uint64_t);
    if (char* area = slot_area(t, ss.meta, ss.meta_bytes, bytes, op.library->staged_counts)) {
      std::memcpy(area, meta->data(), bytes);
      mine.meta = reinterpret_cast<const std::uint64_t*>(area);
    } else {
      mine.status = static_cast<std::int32_t>(status::no_memory);
    }
  }
  if (!mine.status && op.stages_input && mine.send) {
    char* area = input_bytes > inline_bytes ? slot_area(t, ss.stage, ss.stage_bytes, input_bytes, op.library->staged_input)
                 : uses_tail(mine.kind)     ? t.inline_data(t.rank(), op.seq)
                                            : t.after_head(t.rank(), op.seq);
    if (area) {
      // A collective's bytes, so counted as a plan's copy step is.
      detail::traffic::task_scope counted(op.function, op.algorithm);
      run_copy(area, mine.send, input_bytes, nullptr);
      mine.send = area;
      mine.staged = 1;
    } else if (must_stage) {
      mine.status = static_cast<std::int32_t>(status::no_memory);
    }
  }
  if (mine.status) {
    op.ntasks = t.max_tasks();  // a failed call: every task slot is drained
    op.stamp = 0;               // and the record describes no call to repeat (engine.cpp)
    op.orphans = op.mine_for_staged = -1;
  }
  ss.tasks = op.ntasks;
  ss.seq = op.seq;
  ss.left_clean = false;
  ss.function = op.function;
  ss.library = op.library;
  ss.handoff.reset();  // set again if this one goes to MPI
  mine.seq = op.seq;
  if (!op.key_known) {
    mine.key = agreement_key(mine, mine.root == t.rank());
    mine.pair_balance = pair_balance(mine, mine.meta, t.rank(), t.size());
    op.key_known = !mine.status && op.stamp;  // the same arguments next time (a failure is not)
  }
  // Every field but seq (written last, atomically); the tail only when used.
  const std::size_t upto = uses_tail(mine.kind) ? sizeof(post_data) : post_head_bytes;
  std::memcpy(reinterpret_cast<char*>(&p) + sizeof p.seq, reinterpret_cast<const char*>(&mine) + sizeof p.seq,
              upto - sizeof p.seq);
  across::release();  // this member's data, written before the call, goes home before it posts
  seq_of(p).store(op.seq, std::memory_order_seq_cst);
  if (mine.status) {
    fail_collective(op, failure{static_cast<status>(mine.status), {}, {}}, failure_source::own_call);
    drain(op);
  }
  t.notify();
  return static_cast<status>(mine.status);
}

// Runs even after our part is complete: until the collective is over for
// everyone, we may be the only member able to run what is left.
bool advance(operation& op, bool help) {
  if (op.handoff) return handoff::poll();  // MPI moves it (mpi_handoff.hpp)
  if (error_of(op) != status::ok) return drain(op);
  bool any = false;
  const int me = op.t->rank(), P = op.t->size();
  // Our own tasks first (i = me, me + P, ...), then, when asked, the others;
  // the orphaned ones we wait for always.
  for (int i = me; i < op.ntasks; i += P) any |= try_task(op, i);
  if (help || may_orphan(op))
    for (int k = 0; k < op.ntasks; ++k) {
      const int i = (me + k) % op.ntasks;
      if (i % P == me) continue;  // tried above
      if (help || orphaned(op, i)) any |= try_task(op, i);
    }
  if (any && error_of(op) != status::ok) drain(op);  // a task of ours failed (others' failures: the next advance)
  return any;
}

bool over(operation& op) {
  if (!all_posted(op) || !tasks_done(op)) return false;
  op.t->slot[op.seq % slots].over = op.seq;
  return true;
}

bool complete(operation& op) {
  if (op.finished_local) return true;
  // A member waits for every post (rule 3 of §2.5 allows it) unless it may
  // complete early: so it compares every post with its own, and a failure
  // anywhere reaches everyone still in the call.
  if (op.handoff) {
    // Handed to MPI: over when the job is (sync flags included).
    if (!handoff::finished(op)) return false;
    if (!handoff::clean(op)) {
      if (!all_posted(op)) return false;  // the posts say why, as on the task rows
      if (error_of(op) == status::ok)
        if (const failure f = handoff::outcome(op); f.code != status::ok) fail_collective(op, f);
    }
    if (handoff::clean(op)) handoff::note_traffic(op);
    op.result = handoff::clean(op) ? status::ok : error_of(op);
    op.finished_local = true;
    return true;
  }
  if (!all_posted(op)) {
    // Eager completion (late_agreement.hpp): this member's part is done before
    // every member has posted.
    if (!may_leave_early(op) || !my_tasks_done(op)) return false;
    note_left_early(op);
    op.result = error_of(op);
    op.t->slot[op.seq % slots].left_clean = op.result == status::ok;
    op.finished_local = true;
    return true;
  }
  bool done;
  if (op.ntasks == 0 || out_allsync(op) || in_allsync(op)) done = over(op);
  else done = my_tasks_done(op);
  if (!done) return false;
  op.result = error_of(op);
  op.finished_local = true;
  return true;
}

int first_unposted(const operation& op) {
  for (int r = 0; r < op.t->size(); ++r)
    if (!reached(across::load_seq(op.t->post_of(r, op.seq)), op.seq)) return r;
  return -1;
}

}  // namespace upc::coll::tasks
