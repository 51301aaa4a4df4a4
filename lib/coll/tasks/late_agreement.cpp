#include "late_agreement.hpp"

#include <cstdlib>
#include <string>

#include "../../runtime/failure.hpp"
#include "agreement.hpp"
#include "upc/error.hpp"
#include "upc/runtime.hpp"
#include "upc_types.h"

namespace upc::coll::tasks {

namespace {

thread_local bool tl_progress_thread = false;

// The report that ends the run: the front-end's words for the disagreement,
// who had left, and why nobody is told by a return code. Throws on a UPC
// thread; a progress thread records the failure (which stops every thread) and
// goes on until it is stopped.
void end_run(const char* function, const front_end* library, const failure& f, const std::string& when) {
  std::string text = (library && library->words ? library->words(f) : std::string("the members' arguments disagree")) +
                     "; " + when +
                     " (a call without UPC_IN_ALLSYNC or UPC_OUT_ALLSYNC completes once its own part is done, "
                     "without waiting for every member's arguments; under upcrun --check every member waits and "
                     "returns the error code: docs/teams-and-collectives-2.md, \"Errors\"), so the run ends";
  if (tl_progress_thread) {
    // Not the UPC thread: record the failure, which stops every thread.
    detail::record_failure(detail::tl_mythread, (std::string(function) + ": " + text).c_str());
    return;
  }
  detail::fail(function, text);
}

// UPCEMU_TUNE_EAGER_COMPLETION=0 makes every member wait for every post, as
// under --check, without --check's other checks: what the eager completion
// buys is measured against it (docs/benchmarks.md).
bool eager_completion_tuned_off() {
  static const bool off = [] {
    const char* v = std::getenv("UPCEMU_TUNE_EAGER_COMPLETION");
    return v && std::string(v) == "0";
  }();
  return off;
}

// Whether every post of the slot's collective still there carries this
// member's agreement key: one word each, read as a seqlock (a post being
// replaced is that member's next one, and it compared ours before).
bool keys_agree(const team_view& t, std::uint32_t seq) {
  const std::uint64_t mine = t.post_of(t.rank(), seq).key;  // this thread's own post
  for (int r = 0; r < t.size(); ++r) {
    if (r == t.rank()) continue;
    const post& p = t.post_of(r, seq);
    if (across::load_seq(p) != seq) continue;
    const std::uint64_t key = std::atomic_ref<const std::uint64_t>(p.key).load(std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    if (key != mine && across::load_seq(p) == seq) return false;
  }
  return true;
}

}  // namespace

void mark_progress_thread() noexcept { tl_progress_thread = true; }

bool may_leave_early(const operation& op) {
  return op.dec && op.ntasks > 0 && !op.handoff && !(op.flags & (UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC)) &&
         !upc::check_enabled() && !detail::g_races && !detail::g_several_hosts && !eager_completion_tuned_off();
}

void note_left_early(const operation& op) {
  op.t->left(op.t->rank(), op.seq).store(op.seq, std::memory_order_seq_cst);
  std::atomic_thread_fence(std::memory_order_seq_cst);  // then the error word (late_agreement.hpp)
}

void end_run_if_someone_left(const operation& op, const failure& f) {
  if (f.diff.what == difference::field::failed_call) return;  // a member's own mistake: it has its code
  std::atomic_thread_fence(std::memory_order_seq_cst);      // the error word, then the left words
  const team_view& t = *op.t;
  for (int r = 0; r < t.size(); ++r) {
    if (r == t.rank() || t.left(r, op.seq).load(std::memory_order_seq_cst) != op.seq) continue;
    end_run(op.function, op.library, f,
            "thread " + std::to_string(t.thread_of(r)) + " had already completed its call");
    return;
  }
}

void check_late(team_view& t, int slot) {
  team_view::slot_state& s = t.slot[slot];
  if (!s.left_clean) return;
  s.left_clean = false;
  const collective kind = t.post_of(t.rank(), s.seq).kind;  // written by this thread
  if (keys_agree(t, s.seq) && !is_vector(kind)) return;  // the common case: one word a member
  // A difference (or a v-variant's counts): compared field by field, as check_post does.
  // This member's own post is still in the slot (it reuses the slot only after
  // this): the arguments it completed with.
  operation mine;
  mine.t = &t;
  mine.seq = s.seq;
  mine.function = s.function;
  mine.library = s.library;
  mine.kind = kind;  // which part of the posts to read
  if (!snapshot(mine, t.rank(), mine.mine)) return;
  mine.root = mine.mine.root;
  mine.flags = mine.mine.flags;
  mine.count = mine.mine.count;
  const std::string when = "found by thread " + std::to_string(t.thread_of(t.rank())) + " after its call had completed";
  for (int r = 0; r < t.size(); ++r) {
    post_data d;
    // A post already replaced is that member's next one: it compared ours before.
    if (r == t.rank() || !snapshot(mine, r, d) || d.key == mine.mine.key) continue;
    difference diff;
    const status st = compare_posts(mine, r, d, diff);
    if (st != status::ok && diff.what != difference::field::failed_call) end_run(s.function, s.library, failure{st, diff, {}}, when);
  }
  if (is_vector(mine.kind))
    if (const failure f = verify_pairs(mine); f.code != status::ok) end_run(s.function, s.library, f, when);
}

}  // namespace upc::coll::tasks
