#include "collective_call.hpp"

#include <cstring>
#include <string>

#include "call_site.hpp"
#include "failure.hpp"
#include "hosts.hpp"
#include "libc_state.hpp"

namespace upc::detail {

namespace {
thread_local current_call tl_call;

// A stable copy of one record, or valid == false when it is being rewritten
// or holds another call.
struct record_copy {
  bool valid = false;
  std::uint32_t seq = 0;
  const char* function = nullptr;
  const char* file = nullptr;
  std::uint32_t line = 0;
  const char* names[call_record_args] = {};
  std::uint64_t args[call_record_args] = {};
};

// The names (the record's second cache line) are read only for messages.
record_copy read_record(int thread, std::uint32_t seq, bool with_names = false) {
  record_copy c;
  const call_record& r = control().slots[thread].calls[seq % call_records];
  const std::uint32_t s1 = r.seq.load(std::memory_order_acquire);
  if (s1 != seq) return c;
  c.function = r.function.load(std::memory_order_relaxed);
  c.file = r.file.load(std::memory_order_relaxed);
  c.line = r.line.load(std::memory_order_relaxed);
  for (int i = 0; i < call_record_args; ++i) {
    if (with_names) c.names[i] = r.arg_names[i].load(std::memory_order_relaxed);
    c.args[i] = r.args[i].load(std::memory_order_relaxed);
  }
  std::atomic_thread_fence(std::memory_order_acquire);
  c.valid = r.seq.load(std::memory_order_relaxed) == s1;
  c.seq = seq;
  return c;
}

bool same_name(const char* a, const char* b) { return a == b || (a && b && std::strcmp(a, b) == 0); }

std::string ordinal(std::uint32_t zero_based) {
  const std::uint32_t n = zero_based + 1;
  const char* suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
  return std::to_string(n) + suffix;
}

std::string describe(const record_copy& r) { return std::string(r.function ? r.function : "?") + location_text(r.file, r.line); }

[[noreturn]] void fail_mismatch(const record_copy& mine, int thread, const record_copy& theirs) {
  fail(mine.function, "this collective call" + location_text(mine.file, mine.line) + " does not match thread " +
                          std::to_string(thread) + "'s call at the same point, " + describe(theirs) + " (the " +
                          ordinal(mine.seq) +
                          " collective call of each): every thread must make the same collective calls in the same order");
}

void compare(record_copy mine, int thread, record_copy theirs) {
  if (!same_name(mine.function, theirs.function)) fail_mismatch(mine, thread, theirs);
  bool equal = true;
  for (int i = 0; i < call_record_args; ++i) equal &= mine.args[i] == theirs.args[i];
  if (equal) return;  // the same function records the same arguments: the names need no look
  mine = read_record(tl_mythread, mine.seq, true);
  const record_copy named = read_record(thread, theirs.seq, true);
  if (named.valid) theirs = named;
  for (int i = 0; i < call_record_args; ++i) {
    if (!mine.names[i] && !theirs.names[i]) continue;
    if (!same_name(mine.names[i], theirs.names[i])) fail_mismatch(mine, thread, theirs);
    if (mine.args[i] == theirs.args[i]) continue;
    fail(mine.function, std::string("argument ") + mine.names[i] +
                            " must be single-valued (the same on every thread): this thread passed " +
                            std::to_string(mine.args[i]) + location_text(mine.file, mine.line) + ", thread " +
                            std::to_string(thread) + " passed " + std::to_string(theirs.args[i]) +
                            location_text(theirs.file, theirs.line));
  }
}

record_copy my_record() { return read_record(tl_mythread, tl_call.seq); }

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdULL;
}

// Calls are compared where they synchronise, but a UPC_IN_NOSYNC |
// UPC_OUT_NOSYNC call may not synchronise at all: a thread that ended without
// making it would go unnoticed. So each call looks at the threads that have
// ended, and each thread that ends looks at the others' calls. Both sides
// write first (call count; state), then read the other's (a seq_cst fence
// between), so at least one of the two sees the other. Off across hosts,
// where another host's slots are not kept in step.
bool threads_may_have_ended() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  return !several_hosts() && control().exited.load(std::memory_order_relaxed) != 0;
}

bool has_ended(int t) {
  return static_cast<thread_state>(control().slots[t].state.load(std::memory_order_acquire)) == thread_state::finished;
}

// The report of call number `seq` of a thread, which thread `ended` (which has
// ended after fewer calls) will never make; the same words whichever of the
// two finds it.
std::string never_matched(int ended, std::uint32_t seq, const char* file, std::uint32_t line) {
  return "thread " + std::to_string(ended) + " has already " + how_thread_ended(ended) + ", so this collective call" +
         location_text(file, line) + " can never be matched (it is the " + ordinal(seq) +
         " collective call of this thread; thread " + std::to_string(ended) + " made " +
         std::to_string(control().slots[ended].call_seq.load(std::memory_order_acquire)) +
         "): every thread must make the same collective calls in the same order";
}

// This thread has just entered its call number `seq`: a thread that has ended
// after fewer calls will never make it.
void check_ended_threads(std::uint32_t seq, const char* function, const char* file, std::uint32_t line) {
  if (!threads_may_have_ended()) return;
  const control_block& c = control();
  for (int t = 0; t < c.threads; ++t) {
    if (t == tl_mythread || !has_ended(t)) continue;
    if (c.slots[t].call_seq.load(std::memory_order_acquire) > seq) continue;
    fail(function, never_matched(t, seq, file, line));
  }
}

}  // namespace

const current_call& this_call() noexcept { return tl_call; }

collective_call::collective_call(const char* function, const char* file, std::uint32_t line,
                                 std::initializer_list<collective_arg> args) {
  require_upc_thread(function);
  outer_ = tl_call.function == nullptr;
  if (!outer_) return;
  thread_slot& s = my_slot();
  if (s.notified)
    fail(function, "called between upc_notify and its upc_wait" + location_text(file, line) +
                       ": a collective call must not be made inside a split-phase barrier (finish it with upc_wait "
                       "first)");
  note_call(function, file, line);
  const std::uint32_t seq = s.call_seq.load(std::memory_order_relaxed);
  call_record& r = s.calls[seq % call_records];
  r.seq.store(no_call, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  r.function.store(function, std::memory_order_relaxed);
  r.file.store(file, std::memory_order_relaxed);
  r.line.store(line, std::memory_order_relaxed);
  int i = 0;
  for (const collective_arg& a : args) {
    if (i == call_record_args) break;
    r.arg_names[i].store(a.name, std::memory_order_relaxed);
    r.args[i].store(a.value, std::memory_order_relaxed);
    ++i;
  }
  for (; i < call_record_args; ++i) {
    r.arg_names[i].store(nullptr, std::memory_order_relaxed);
    r.args[i].store(0, std::memory_order_relaxed);
  }
  r.seq.store(seq, std::memory_order_release);
  s.call_seq.store(seq + 1, std::memory_order_release);
  std::atomic<std::uint32_t>& most = control().most_calls;
  for (std::uint32_t m = most.load(std::memory_order_seq_cst); m < seq + 1;)
    if (most.compare_exchange_weak(m, seq + 1, std::memory_order_seq_cst)) break;
  check_ended_threads(seq, function, file, line);
  // The function's address stands for its name: one string literal per entry
  // point (a different address for the same name only costs a look at the records).
  std::uint64_t h = mix(seq + 1, reinterpret_cast<std::uintptr_t>(function));
  for (const collective_arg& a : args) h = mix(h, a.value);
  tl_call = current_call{function, file, line, seq, false, h | 1};  // never 0: 0 means "no call"
}

collective_call::~collective_call() {
  if (outer_) tl_call = current_call{};
}

void match_call_with(int thread) {
  if (!tl_call.function || thread == tl_mythread) return;
  const record_copy theirs = read_record(thread, tl_call.seq);
  if (!theirs.valid) return;  // not there yet, or long gone: nothing to say
  compare(my_record(), thread, theirs);
}

void match_call_with(int thread, std::uint64_t their_hash) {
  if (!tl_call.function || their_hash == tl_call.hash) return;
  match_call_with(thread);
}

void match_after_world_barrier(std::uint64_t thread0_hash) {
  if (!tl_call.function || tl_call.matched) return;
  tl_call.matched = true;
  if (tl_mythread == 0 || thread0_hash == tl_call.hash) return;
  const record_copy theirs = read_record(0, tl_call.seq);
  if (theirs.valid) {
    compare(my_record(), 0, theirs);
    return;
  }
  // Thread 0 passed the same world barrier without having entered this call:
  // it was in an earlier one, so the threads' calls differ.
  const std::uint32_t made = control().slots[0].call_seq.load(std::memory_order_acquire);
  if (made > tl_call.seq) return;  // it has moved on (records are reused): nothing to say
  const record_copy mine = my_record();
  const record_copy last = made ? read_record(0, made - 1) : record_copy{};
  fail(mine.function, "thread 0 reached the same synchronisation in its " + (made ? ordinal(made - 1) : std::string("first")) +
                          " collective call" + (last.valid ? " (" + describe(last) + ")" : std::string()) +
                          ", while this is this thread's " + ordinal(tl_call.seq) + " (" + describe(mine) +
                          "): every thread must make the same collective calls in the same order");
}

void check_calls_at_end() {
  if (!threads_may_have_ended()) return;
  const control_block& c = control();
  const std::uint32_t mine = c.slots[tl_mythread].call_seq.load(std::memory_order_relaxed);
  if (c.most_calls.load(std::memory_order_seq_cst) <= mine) return;  // no thread made more
  for (int t = 0; t < c.threads; ++t) {
    if (t == tl_mythread) continue;
    if (c.slots[t].call_seq.load(std::memory_order_acquire) <= mine) continue;
    // Thread t has made call number `mine`, which this thread never will: the
    // failure is thread t's, in the words it would use itself.
    const record_copy theirs = read_record(t, mine);
    const std::string text = std::string("upcemu: ") + (theirs.valid ? theirs.function : "collective call") + ": " +
                             never_matched(tl_mythread, mine, theirs.valid ? theirs.file : nullptr, theirs.line) +
                             " (thread " + std::to_string(t) + ")\n";
    record_failure(t, text.c_str());
    return;
  }
}

}  // namespace upc::detail
