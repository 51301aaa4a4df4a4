#include "operation.hpp"

#include <sched.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "../../runtime/control.hpp"
#include "../../runtime/futex.hpp"
#include "decomposition.hpp"
#include "progress.hpp"
#include "upc/detail/static_object.hpp"
#include "verify.hpp"
#include "upc/runtime.hpp"
#include "upccoll.h"

namespace upc::coll::coop {

namespace {

bool reached(std::uint32_t v, std::uint32_t target) { return team::reached(v, target); }
int error_of(const operation& op);

// Rank r's post, once it is there: checks that it is the same collective and
// that r's call did not fail (a task must not read a post it cannot interpret).
// The single-valued arguments are compared by verify_posts once all are in.
bool check_post(operation& op, int r) {
  if (op.seen[r]) return true;
  const post& p = op.t->post_of(r, op.seq);
  if (!reached(seq_of(p).load(std::memory_order_acquire), op.seq)) return false;
  post_data d;
  op.seen[r] = 1;
  // A failed snapshot means the collective is over and the slot reused.
  if (!snapshot(op, r, d)) return true;
  std::string why;
  if (const int code = compare_args(op, op.mine, r, d, why)) fail_collective(op, code, why);
  return true;
}

bool all_posted(operation& op) {
  if (op.all_posted) return true;
  for (int r = 0; r < op.t->size(); ++r)
    if (!check_post(op, r)) return false;
  op.all_posted = true;
  if (!error_of(op)) verify_posts(op);
  return true;
}

bool in_allsync(const operation& op) { return op.flags & UPC_IN_ALLSYNC; }
bool out_allsync(const operation& op) { return op.flags & UPC_OUT_ALLSYNC; }

std::uint64_t error_word(const operation& op) {
  return op.t->words().error[op.seq % slots].load(std::memory_order_acquire);
}
int error_of(const operation& op) {
  const std::uint64_t w = error_word(op);
  return static_cast<std::uint32_t>(w >> 32) == op.seq ? static_cast<int>(w & 0xffffffffu) : 0;
}

// Stage tasks (operation::stage_base) and the decomposition's tasks alike.
bool is_stage(const operation& op, int task) { return op.stage_base >= 0 && task >= op.stage_base; }

task_needs needs_of(const operation& op, int task) {
  if (is_stage(op, task)) return {task - op.stage_base, -1, false, 0, 0};
  return op.dec->needs(op, task);
}

bool touches_of(const operation& op, int task, int rank) {
  if (is_stage(op, task)) return task - op.stage_base == rank;
  return !op.dec->touches || op.dec->touches(op, task, rank);
}

// Stage task: an in-place member's input, copied aside before anyone reads it.
int run_of(const operation& op, int task) {
  if (!is_stage(op, task)) return op.dec->run(op, task);
  const post& p = op.t->post_of(task - op.stage_base, op.seq);
  if ((p.flags & post_in_place) && p.stage_bytes) std::memcpy(p.send, p.recv, p.stage_bytes);
  return 0;
}

bool stages_done(operation& op) {
  if (op.stage_base < 0 || op.stages_done) return true;
  for (int i = op.stage_base; i < op.ntasks; ++i)
    if (!reached(op.t->task(i, op.seq).done.load(std::memory_order_acquire), op.seq)) return false;
  return op.stages_done = true;
}

bool ready(operation& op, int task) {
  const task_needs n = needs_of(op, task);
  if (n.all || in_allsync(op)) {
    if (!all_posted(op)) return false;
  } else {
    if (n.a >= 0 && !check_post(op, n.a)) return false;
    if (n.b >= 0 && !check_post(op, n.b)) return false;
  }
  for (int i = n.after_lo; i < n.after_hi; ++i)
    if (!reached(op.t->task(i, op.seq).done.load(std::memory_order_acquire), op.seq)) return false;
  return is_stage(op, task) || stages_done(op);
}

bool claim(task_word& w, std::uint32_t seq) {
  std::uint32_t v = w.claimed.load(std::memory_order_relaxed);
  if (reached(v, seq)) return false;
  return w.claimed.compare_exchange_strong(v, seq, std::memory_order_acq_rel);
}

void finish_task(const operation& op, task_word& w) {
  // Never backwards: after an error, members whose task counts differ (a failed
  // call drains them all) may drain a word a later collective already reuses.
  std::uint32_t cur = w.done.load(std::memory_order_relaxed);
  while (!reached(cur, op.seq) && !w.done.compare_exchange_weak(cur, op.seq, std::memory_order_seq_cst)) {
  }
  op.t->notify();
}

// After an error nothing more is computed: every unclaimed task is marked done.
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

// Tries task i: claims it if it is ready and unclaimed, and runs it.
bool try_task(operation& op, int i) {
  task_word& w = op.t->task(i, op.seq);
  if (reached(w.claimed.load(std::memory_order_relaxed), op.seq)) return false;
  if (!ready(op, i)) return false;
  if (error_of(op)) return false;
  if (!claim(w, op.seq)) return false;
  const int code = run_of(op, i);
  if (code) {
    fail_collective(op, code,
                    std::string("the byte counts of a sender and a receiver disagree (task ") + std::to_string(i) + ")");
  }
  finish_task(op, w);
  return true;
}

bool tasks_done(const operation& op, bool only_mine) {
  const int me = op.t->rank();
  for (int i = 0; i < op.ntasks; ++i) {
    if (only_mine && !touches_of(op, i, me)) continue;
    if (!reached(op.t->task(i, op.seq).done.load(std::memory_order_acquire), op.seq)) return false;
  }
  return true;
}

}  // namespace

void fail_collective(const operation& op, int code, const std::string& message, bool say) {
  std::atomic<std::uint64_t>& w = op.t->words().error[op.seq % slots];
  std::uint64_t cur = w.load(std::memory_order_acquire);
  const std::uint64_t mine = (std::uint64_t(op.seq) << 32) | static_cast<std::uint32_t>(code);
  for (;;) {
    // Someone was first, or the slot already serves a later collective.
    if (reached(static_cast<std::uint32_t>(cur >> 32), op.seq)) return;
    if (w.compare_exchange_weak(cur, mine, std::memory_order_seq_cst)) break;
  }
  op.t->notify();
  if (say && upc::check_enabled())
    std::fprintf(stderr, "upcemu: %s: %s (seen by thread %d): %s\n", function_of(op), message.c_str(),
                 op.t->thread_of(op.t->rank()), upccoll_error_name(upccoll_return_t(code)));
}

// Waits until the collective `slots` back on this team (same slot) is over:
// every member posted it and every one of its tasks is done. Our record of it,
// kept until then, lets us help with its tasks meanwhile.
static void wait_slot_free(operation& op) {
  if (op.seq <= static_cast<std::uint32_t>(slots)) return;
  const std::uint32_t prev = op.seq - slots;
  team& t = *op.t;
  if (t.slot_over[op.seq % slots] == prev) return;
  const int n = t.slot_tasks[op.seq % slots];
  auto is_over = [&] {
    for (int r = 0; r < t.size(); ++r)
      if (!reached(seq_of(t.post_of(r, prev)).load(std::memory_order_acquire), prev)) return false;
    for (int i = 0; i < n; ++i)
      if (!reached(t.task(i, prev).done.load(std::memory_order_acquire), prev)) return false;
    return true;
  };
  if (!is_over()) this_thread_progress().wait_until(t, is_over, function_of(op), nullptr);
}

// A slot's buffer of at least `bytes` in this member's partition, grown when
// too small (the slot's previous collective is over: nobody reads the old one);
// nullptr when the heap has no room.
static char* slot_area(team& t, std::uint64_t& offset, std::uint64_t& size, std::uint64_t bytes, const char* what) {
  const std::uint32_t me = static_cast<std::uint32_t>(t.thread_of(t.rank()));
  if (bytes > size) {
    if (offset) detail::heap_free(shared_address{offset, me, 0}, what);
    offset = 0;
    size = 0;
    try {
      offset = detail::local_alloc(static_cast<int>(me), bytes, what);
      size = bytes;
    } catch (const upc::error&) {
      return nullptr;
    }
  }
  return detail::g_partitions + std::uint64_t(me) * detail::g_partition_bytes + offset;
}

int start(operation& op, post_data mine, const std::vector<std::uint64_t>* meta) {
  team& t = *op.t;
  const int slot = static_cast<int>(op.seq % slots);
  op.seen.assign(static_cast<std::size_t>(t.size()), 0);
  wait_slot_free(op);
  post& p = t.post_of(t.rank(), op.seq);
  // Seqlock write: mark the slot as being rewritten before touching the fields
  // or the counts staged for the slot's previous collective.
  seq_of(p).store(0, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  mine.meta = nullptr;
  if (meta && !mine.status) {
    const std::uint64_t bytes = meta->size() * sizeof(std::uint64_t);
    if (char* area = slot_area(t, t.slot_meta[slot], t.slot_meta_bytes[slot], bytes, "upccoll (staged counts)")) {
      std::memcpy(area, meta->data(), bytes);
      mine.meta = reinterpret_cast<const std::uint64_t*>(area);
    } else {
      mine.status = UPCCOLL_ERROR_MALLOC;
    }
  }
  mine.stage_bytes = 0;
  if (op.stage_base >= 0 && (mine.flags & post_in_place) && op.stage_bytes && !mine.status) {
    if (char* area = slot_area(t, t.slot_stage[slot], t.slot_stage_bytes[slot], op.stage_bytes, "upccoll (in-place input)")) {
      mine.send = area;  // the stage task fills it from mine.recv
      mine.stage_bytes = op.stage_bytes;
    } else {
      mine.status = UPCCOLL_ERROR_MALLOC;
    }
  }
  if (mine.status) op.ntasks = t.max_tasks();  // a failed call: every task slot is drained
  t.slot_tasks[slot] = op.ntasks;
  mine.seq = op.seq;
  op.mine = mine;
  // Every field but seq (written last, atomically); the tail only when used.
  const std::size_t upto = uses_tail(mine.kind) ? sizeof(post_data) : post_head_bytes;
  std::memcpy(reinterpret_cast<char*>(&p) + sizeof p.seq, reinterpret_cast<const char*>(&mine) + sizeof p.seq,
              upto - sizeof p.seq);
  seq_of(p).store(op.seq, std::memory_order_seq_cst);
  if (mine.status) {
    fail_collective(op, mine.status, "", false);  // the front-end reports it
    drain(op);
  }
  t.notify();
  return mine.status;
}

// Runs even after our part is complete: until the collective is over for
// everyone, we may be the only member able to run what is left.
bool advance(operation& op, bool help) {
  if (error_of(op)) return drain(op);
  bool any = false;
  const int me = op.t->rank(), P = op.t->size();
  // Our own tasks first (i = me, me + P, ...), then, when asked, the others.
  for (int i = me; i < op.ntasks; i += P) any |= try_task(op, i);
  for (int k = 1; help && k < op.ntasks; ++k) {
    const int i = (me + k) % op.ntasks;
    if (i % P == me) continue;
    any |= try_task(op, i);
  }
  if (error_of(op)) any |= drain(op);
  return any;
}

bool over(operation& op) {
  if (!all_posted(op) || !tasks_done(op, false)) return false;
  op.t->slot_over[op.seq % slots] = op.seq;
  return true;
}

bool complete(operation& op) {
  if (op.finished_local) return true;
  // Every member waits for every post (rule 3 of §2.5 allows it): so every member
  // compares every post with its own, and an error anywhere reaches everyone.
  if (!all_posted(op)) return false;
  bool done;
  if (op.ntasks == 0 || out_allsync(op) || in_allsync(op)) done = over(op);
  else done = tasks_done(op, true);
  if (!done) return false;
  if (int e = error_of(op)) op.status = e;
  op.finished_local = true;
  return true;
}

void wait(operation& op, const char* what) {
  this_thread_progress().wait_until(*op.t, [&] { return complete(op); }, what, &op);
}

int first_unposted(const operation& op) {
  for (int r = 0; r < op.t->size(); ++r)
    if (!reached(seq_of(op.t->post_of(r, op.seq)).load(std::memory_order_acquire), op.seq)) return r;
  return -1;
}

}  // namespace upc::coll::coop
