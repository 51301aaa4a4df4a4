// <upccoll.h>: the UPC Collectives 2.0 front-end. Each call checks its
// arguments in a fixed order (the first problem decides the returned code),
// lists the byte areas it reads and writes on this thread (one check refuses
// any overlap, in launch()), takes UPCCOLL_IN_PLACE where MPI's rules put it
// (one table, in_place_rule_of), describes this thread's part as a post, and
// hands it to the cooperative engine (lib/coll/coop/). A call that fails locally on a valid team still posts
// — as a failure — so the other members' calls end with the same code instead
// of waiting forever. Under --check every failure is also printed, naming the
// function, the argument and the thread.
#include "upccoll.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "../coll/coop/areas.hpp"
#include "../coll/coop/decomposition.hpp"
#include "../coll/coop/progress.hpp"
#include "../coll/coop/verify.hpp"
#include "../coll/registry.hpp"
#include "../runtime/collective_call.hpp"
#include "../runtime/control.hpp"
#include "../runtime/world_barrier.hpp"
#include "../runtime/op_names.hpp"
#include "../runtime/size_parse.hpp"
#include "upc/detail/static_object.hpp"
#include "upc/runtime.hpp"
#include "upc/sync.hpp"
#include "upccoll_status.hpp"
#include "upccoll_types.hpp"

using namespace upc::coll::coop;
using namespace upc::coll::upccoll_types;
using upc::coll::collective;
namespace det = upc::detail;

namespace {

// ---- per-thread library state ---------------------------------------------------

struct user_op_entry {
  upccoll_user_fun* fn = nullptr;
  int commute = 0;
  bool live = false;
};

struct library_state {
  bool initialized = false;
  const void* run = nullptr;                 // the run it was initialised in
  // Live sub-teams of this thread by id. Ids are never reused in a run (not even
  // across finalize and a new initialize), so a freed handle stays invalid.
  std::map<std::uint64_t, std::unique_ptr<upc::coll::team>> teams;
  std::uint64_t last_team_id = 0;  // the largest id handed out
  std::map<std::uint64_t, operation*> handles;
  std::uint64_t next_handle = 1;
  std::vector<user_op_entry> user_ops;
};

library_state& state() {
  thread_local library_state s;
  if (s.run != det::g_control) {  // a new run (or a forked process): start afresh
    s.~library_state();
    new (&s) library_state();
    s.run = det::g_control;
  }
  return s;
}

bool initialized() { return det::g_control && det::tl_mythread >= 0 && state().initialized; }

// Progress is made inside every upccoll call, queries included (cheap when
// nothing is in flight).
void progress_here() {
  progress& pr = this_thread_progress();
  if (!pr.empty()) pr.advance_all();
}

upccoll_return_t report(const char* function, upccoll_return_t code, const std::string& message) {
  if (code != UPCCOLL_SUCCESS && upc::check_enabled())
    std::fprintf(stderr, "upcemu: %s: %s (thread %d): %s\n", function, message.c_str(), det::tl_mythread,
                 upccoll_error_name(code));
  return code;
}

// ---- team handles ----------------------------------------------------------------
//
// A handle is not the team's address (a new team may get a freed one's address)
// but (id << 16) | (thread + 1): the id is never reused, and the thread part
// tells another thread's handle from a freed one of ours. 0 is UPC_TEAM_ALL and
// all ones UPCCOLL_TEAM_NULL; neither decodes as a handle of a UPC thread.

constexpr int handle_thread_bits = 16;
static_assert((1 << handle_thread_bits) > upc::detail::max_threads, "the thread field of a handle is too narrow");

upccoll_team_t encode_handle(std::uint64_t id) {
  return reinterpret_cast<upccoll_team_t>(static_cast<std::uintptr_t>(
      (id << handle_thread_bits) | static_cast<std::uint64_t>(det::tl_mythread + 1)));
}

// The team of a handle, or nullptr with `why` saying what is wrong with it.
team* resolve(upccoll_team_t handle, std::string* why = nullptr) {
  library_state& s = state();
  if (handle == UPC_TEAM_ALL) return &team::of(upc::coll::team::world());
  auto say = [&](std::string m) {
    if (why) *why = std::move(m);
    return nullptr;
  };
  if (handle == UPCCOLL_TEAM_NULL)
    return say("team is UPCCOLL_TEAM_NULL (what upccoll_team_split gives a thread that passed UPCCOLL_UNDEFINED)");
  const std::uint64_t v = reinterpret_cast<std::uintptr_t>(handle);
  const std::uint64_t thread_part = v & ((std::uint64_t{1} << handle_thread_bits) - 1), id = v >> handle_thread_bits;
  if (thread_part != static_cast<std::uint64_t>(det::tl_mythread + 1) || id == 0 || id > s.last_team_id)
    return say("team is not UPC_TEAM_ALL or a team handle of this thread (handles are local to the thread that "
               "got them from upccoll_team_split)");
  auto it = s.teams.find(id);
  if (it == s.teams.end())
    return say("team is a handle that upccoll_team_free has freed (or upccoll_finalize released); it cannot be used "
               "again");
  return &team::of(*it->second);
}

std::string str(std::uint64_t v) { return std::to_string(v); }

// ---- argument checks --------------------------------------------------------------

// The first failed check of a call: its code and what to say.
struct verdict {
  upccoll_return_t code = UPCCOLL_SUCCESS;
  std::string message;
  bool bad() const { return code != UPCCOLL_SUCCESS; }
  void set(upccoll_return_t c, std::string m) {
    if (!bad()) {
      code = c;
      message = std::move(m);
    }
  }
};

constexpr int in_bits = UPC_IN_ALLSYNC | UPC_IN_MYSYNC | UPC_IN_NOSYNC;
constexpr int out_bits = UPC_OUT_ALLSYNC | UPC_OUT_MYSYNC | UPC_OUT_NOSYNC;

void check_flags(verdict& v, upccoll_flag_t flags) {
  const int known = in_bits | out_bits | UPC_ASYNC_FENCE;
  if (flags & ~known)
    v.set(UPCCOLL_ERROR_FLAGS, "flags has bits " + str(flags & ~known) +
                                   " that are not UPC_{IN,OUT}_{ALL,MY,NO}SYNC or UPC_ASYNC_FENCE (algorithm bits "
                                   "such as UPC_PULL do not apply here; choose algorithms with UPCEMU_COLL)");
  else if (__builtin_popcount(static_cast<unsigned>(flags & in_bits)) > 1)
    v.set(UPCCOLL_ERROR_FLAGS, "flags combines more than one of UPC_IN_ALLSYNC, UPC_IN_MYSYNC, UPC_IN_NOSYNC");
  else if (__builtin_popcount(static_cast<unsigned>(flags & out_bits)) > 1)
    v.set(UPCCOLL_ERROR_FLAGS, "flags combines more than one of UPC_OUT_ALLSYNC, UPC_OUT_MYSYNC, UPC_OUT_NOSYNC");
}

// A missing IN or OUT part means MYSYNC in this API; NOSYNC behaves as MYSYNC.
int normalised(upccoll_flag_t flags) {
  int f = flags & (UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  if (!(f & UPC_IN_ALLSYNC)) f |= UPC_IN_MYSYNC;
  if (!(f & UPC_OUT_ALLSYNC)) f |= UPC_OUT_MYSYNC;
  return f;
}

const dtype_info* check_type(verdict& v, upccoll_dtype_t dt, upccoll_return_t code, const char* arg) {
  const dtype_info* t = find_dtype(dt);
  if (!t) v.set(code, std::string(arg) + " is " + std::to_string(dt) + ", not an upccoll_dtype_t");
  return t;
}

void check_root(verdict& v, int root, const team& t) {
  if (root < 0 || root >= t.size())
    v.set(UPCCOLL_ERROR_ROOT, "root is " + std::to_string(root) + ", but the team has " + std::to_string(t.size()) +
                                  " members (valid roots: 0.." + std::to_string(t.size() - 1) + ")");
}

// count × size, or an error when it overflows.
std::uint64_t bytes_of(verdict& v, std::uint64_t count, std::size_t size, const char* what, upccoll_return_t code) {
  std::uint64_t b;
  if (__builtin_mul_overflow(count, static_cast<std::uint64_t>(size), &b)) {
    v.set(code, std::string(what) + " overflows (" + str(count) + " elements of " + str(size) + " bytes)");
    return 0;
  }
  return b;
}

// What a collective call contributes besides its post.
struct call {
  call(collective k, upccoll_team_t th, upccoll_flag_t f, upccoll_handle_t* h, const char* name = nullptr)
      : kind(k), fn(name ? name : upc::coll::name_of(k)), team_handle(th), flags(f), handle(h) {}
  collective kind;
  const char* fn;  // the function called (upccoll_exscan is collective::member_exclusive_scan)
  upccoll_team_t team_handle;
  upccoll_flag_t flags;
  upccoll_handle_t* handle;
  verdict v;
  post_data mine{};
  std::uint64_t selection_bytes = 0;   // size the algorithm choice looks at
  std::uint64_t count = 0;             // reductions: elements
  upc::coll::element_op eop;
  int root = 0;
  std::vector<std::uint64_t> block_elems;  // reduce_scatter
  std::vector<std::uint64_t> meta;         // v-variants: staged counts
  bool in_place = false;                   // this member passed UPCCOLL_IN_PLACE where allowed
  std::uint64_t stage_bytes = 0;           // in place: bytes of input at the start of recvbuf
  // What the call reads and writes of this member's buffers (the thread's one
  // list, reused: calls of a thread never nest).
  std::vector<area>& areas = fresh_areas();

  static std::vector<area>& fresh_areas() {
    thread_local std::vector<area> v;
    v.clear();
    return v;
  }
};

// ---- buffers: UPCCOLL_IN_PLACE, extents, the areas read and written ----------------

bool is_in_place(upc::sptr<void> p) {
  const upc::shared_address a = p.address(), ip = UPCCOLL_IN_PLACE.address();
  return a.thread == ip.thread && a.offset == ip.offset;
}

// Where a collective takes UPCCOLL_IN_PLACE: MPI's MPI_IN_PLACE rules.
enum class in_place_rule { nowhere, send_everywhere, send_at_root, recv_at_root };

in_place_rule in_place_rule_of(collective k) {
  switch (k) {
    case collective::member_gather_all:
    case collective::member_gather_allv:
    case collective::member_exchange:
    case collective::member_exchangev:
    case collective::member_allreduce:
    case collective::member_reduce_scatter:
    case collective::member_exclusive_scan:
    case collective::member_inclusive_scan: return in_place_rule::send_everywhere;
    case collective::member_gather:
    case collective::member_gatherv:
    case collective::member_reduce: return in_place_rule::send_at_root;
    case collective::member_broadcast:
    case collective::member_scatter:
    case collective::member_scatterv: return in_place_rule::recv_at_root;
    default: return in_place_rule::nowhere;
  }
}

std::string in_place_usage(const call& c) {
  switch (in_place_rule_of(c.kind)) {
    case in_place_rule::send_everywhere: return std::string(c.fn) + " takes it as sendbuf, on every member";
    case in_place_rule::send_at_root: return std::string(c.fn) + " takes it as sendbuf at the root only";
    case in_place_rule::recv_at_root: return std::string(c.fn) + " takes it as recvbuf at the root only";
    default: return std::string(c.fn) + " has no in-place form";
  }
}

// Whether `p` is UPCCOLL_IN_PLACE where this member may pass it (the send side
// or not; at the root or not). A misplaced one is refused by use_buffer, in the
// order of the checks.
bool in_place_here(const call& c, upc::sptr<void> p, bool send_side, bool at_root) {
  if (!is_in_place(p)) return false;
  switch (in_place_rule_of(c.kind)) {
    case in_place_rule::send_everywhere: return send_side;
    case in_place_rule::send_at_root: return send_side && at_root;
    case in_place_rule::recv_at_root: return !send_side && at_root;
    default: return false;
  }
}

char* my_partition() { return det::g_partitions + std::uint64_t(det::tl_mythread) * det::g_partition_bytes; }

// A buffer of `bytes` bytes at `p`: affine to the caller and inside its heap.
// Zero bytes accept any pointer, null included (not a misplaced
// UPCCOLL_IN_PLACE). Returns the machine address.
char* use_buffer(call& c, upc::sptr<void> p, std::uint64_t bytes, const char* arg, upccoll_return_t code) {
  verdict& v = c.v;
  if (v.bad()) return nullptr;
  if (is_in_place(p)) {
    v.set(code, std::string(arg) + " is UPCCOLL_IN_PLACE, which this member cannot pass there: " + in_place_usage(c));
    return nullptr;
  }
  if (bytes == 0) return nullptr;
  const upc::shared_address a = p.address();
  if (a == upc::shared_address{}) {
    v.set(code, std::string(arg) + " is a null pointer-to-shared");
    return nullptr;
  }
  if (a.thread != static_cast<std::uint32_t>(det::tl_mythread)) {
    v.set(code, std::string(arg) + " has affinity to thread " + str(a.thread) +
                    "; upccoll buffers must have affinity to the calling thread");
    return nullptr;
  }
  if (a.offset > det::g_partition_bytes || bytes > det::g_partition_bytes - a.offset) {
    v.set(UPCCOLL_ERROR_COUNT, std::string(arg) + ": " + str(bytes) + " bytes at offset " + str(a.offset) +
                                   " run past the end of this thread's shared heap (" + str(det::g_partition_bytes) +
                                   " bytes)");
    return nullptr;
  }
  return my_partition() + a.offset;
}

// The machine address of a buffer already checked to be ours.
char* local_address(upc::sptr<void> p) { return my_partition() + p.address().offset; }

// Notes that the call reads (or writes) bytes [off, off + n) of the buffer at
// `base` (checked to hold them). `block`: the rank of a v-variant's block.
void note(call& c, bool write, const char* arg, const char* base, std::uint64_t off, std::uint64_t n, int block = -1) {
  if (c.v.bad() || !base || n == 0) return;
  const std::uint64_t lo = static_cast<std::uint64_t>(base - my_partition()) + off;
  c.areas.push_back({lo, lo + n, write, arg, block});
}

// counts[P] and displacements[P] (elements of `size` bytes) into bytes; each
// block must fit in the heap from the buffer's offset, and is noted as read
// (or written) but the block of rank `own`, an in-place member's input, which
// is read. Returns {} on error.
std::vector<std::uint64_t> check_vector(call& c, const size_t* counts, const size_t* displs, int P, std::size_t size,
                                        upc::sptr<void> buf, const char* counts_arg, const char* displs_arg,
                                        upccoll_return_t counts_code, upccoll_return_t displs_code, bool write,
                                        int own = -1) {
  verdict& v = c.v;
  std::vector<std::uint64_t> out;
  if (v.bad()) return out;
  if (!counts) {
    v.set(counts_code, std::string(counts_arg) + " is a null pointer");
    return out;
  }
  if (!displs) {
    v.set(displs_code, std::string(displs_arg) + " is a null pointer");
    return out;
  }
  out.resize(2 * std::size_t(P));
  std::uint64_t need = 0;
  for (int r = 0; r < P; ++r) {
    const std::uint64_t n = bytes_of(v, counts[r], size, counts_arg, counts_code);
    const std::uint64_t d = bytes_of(v, displs[r], size, displs_arg, displs_code);
    if (v.bad()) return {};
    if (n > det::g_partition_bytes || d > det::g_partition_bytes - n) {
      v.set(d > det::g_partition_bytes ? displs_code : counts_code,
            std::string(counts_arg) + "[" + std::to_string(r) + "] = " + str(counts[r]) + " at " + displs_arg + "[" +
                std::to_string(r) + "] = " + str(displs[r]) + " runs past the end of the shared heap");
      return {};
    }
    out[r] = n;
    out[P + r] = d;
    if (n) need = std::max(need, d + n);
  }
  const bool send_side = counts_code == UPCCOLL_ERROR_SENDCNTS;
  const char* arg = send_side ? "sendbuf" : "recvbuf";
  const char* base = use_buffer(c, buf, need, arg, send_side ? UPCCOLL_ERROR_SENDBUF : UPCCOLL_ERROR_RECVBUF);
  if (v.bad()) return {};
  for (int r = 0; r < P; ++r)
    note(c, r == own ? false : write, r == own ? "recvbuf (this member's own block, in place)" : arg, base, out[P + r],
         out[r], r);
  return out;
}

// The bytes a v-variant's blocks span from the buffer's start.
std::uint64_t extent_of(const std::vector<std::uint64_t>& counts_displs, int P) {
  std::uint64_t e = 0;
  for (int r = 0; r < P; ++r)
    if (counts_displs[r]) e = std::max(e, counts_displs[P + r] + counts_displs[r]);
  return e;
}

std::string describe(const area& a) {
  std::string s = a.arg;
  if (a.block >= 0) s += " block " + std::to_string(a.block);
  return s + " (bytes [" + str(a.lo) + ", " + str(a.hi) + "))";
}

// A call must not write what it reads: the first overlap of the noted areas is
// UPCCOLL_ERROR_RECVBUF, naming both and the bytes they share (offsets in this
// thread's shared heap).
void check_overlap(call& c) {
  if (c.v.bad() || c.areas.size() < 2) return;
  const auto hit = first_overlap(c.areas);
  if (!hit) return;
  const auto& [r, w] = *hit;
  std::string m = describe(r) + " is read and " + describe(w) + " written: they overlap in bytes [" +
                  str(std::max(r.lo, w.lo)) + ", " + str(std::min(r.hi, w.hi)) + ") of thread " +
                  std::to_string(det::tl_mythread) + "'s shared heap";
  if (in_place_rule_of(c.kind) != in_place_rule::nowhere) m += "; to compute in place pass UPCCOLL_IN_PLACE (" + in_place_usage(c) + ")";
  c.v.set(UPCCOLL_ERROR_RECVBUF, m);
}

// The reduction of (dt, op): an element operation, or an error.
upc::coll::element_op check_reduction(verdict& v, upccoll_dtype_t dt, upccoll_op_t op, post_data& p) {
  const dtype_info* t = check_type(v, dt, UPCCOLL_ERROR_DATATYPE, "dt");
  if (!t || v.bad()) return {};
  if (op >= UPCCOLL_USER_OP_BASE) {
    library_state& s = state();
    const std::uint64_t i = op - UPCCOLL_USER_OP_BASE;
    if (i >= s.user_ops.size() || !s.user_ops[i].live) {
      v.set(UPCCOLL_ERROR_UPC_OP, "op " + str(op) + " is not a live operation made by upccoll_op_create on this thread");
      return {};
    }
    p.user_fn = reinterpret_cast<void (*)(void*, void*, std::size_t, int)>(s.user_ops[i].fn);
    return user_op(s.user_ops[i].fn, *t);
  }
  const upc::coll::element_op e = predefined_op(op, *t);
  if (!e.valid()) {
    const char* name = op_name(op);
    v.set(UPCCOLL_ERROR_UPC_OP, std::string("op ") + (name ? name : str(op).c_str()) +
                                    (name ? " is not defined on " : " is not an upccoll_op_t; dt is ") + t->name);
    return {};
  }
  return e;
}

// ---- the common path of every collective ------------------------------------------

upccoll_return_t launch(call& c, team* t) {
  const char* fn = c.fn;
  progress& pr = this_thread_progress();
  auto op = pr.make();
  op->t = t;
  op->kind = c.kind;
  op->function = c.fn;
  op->flags = c.v.bad() ? 0 : normalised(c.flags);
  op->count = c.count;
  op->eop = c.eop;
  op->root = c.root;
  op->block_elems = std::move(c.block_elems);
  check_overlap(c);
  if (!c.v.bad()) {
    const upc::coll::algorithm_entry& e = upc::coll::select(upc::coll::selection{c.kind, c.fn, c.selection_bytes, t->size(), 0, 0});
    upc::coll::note_last_algorithm(e.name);
    op->dec = e.tasks;
    op->ntasks = op->dec->tasks(*op);
    // In place on a decomposition that needs the inputs intact: stage tasks copy
    // them aside first (every member is in place, or the posts disagree).
    if (c.in_place && !op->dec->in_place_direct && in_place_rule_of(c.kind) == in_place_rule::send_everywhere) {
      op->stage_base = op->ntasks;
      op->ntasks += t->size();
      op->stage_bytes = c.stage_bytes;
    }
  }
  op->seq = t->next_seq();
  c.mine.kind = c.kind;
  c.mine.status = c.v.code;
  c.mine.flags = op->flags | (c.in_place && !c.v.bad() ? post_in_place : 0);
  c.mine.count = c.count;
  c.mine.root = c.root;
  if (const int code = start(*op, c.mine, c.meta.empty() ? nullptr : &c.meta)) {
    if (!c.v.bad()) c.v.set(static_cast<upccoll_return_t>(code), "no shared heap left to stage the counts or the in-place input");
    return report(fn, c.v.code, c.v.message);
  }

  const bool fence = c.flags & UPC_ASYNC_FENCE;
  // Collectives already in flight advance here too; the new one waits for the
  // next upccoll call (its work done now would not overlap anything).
  if (c.handle || fence) progress_here();
  operation& o = pr.add(std::move(op));
  if (fence) {
    o.fence = true;
    if (c.handle) *c.handle = UPCCOLL_INVALID_HANDLE;
    return UPCCOLL_SUCCESS;  // the work happens later: in upccoll calls, or on the progress thread
  }
  if (c.handle) {
    library_state& s = state();
    o.handle = s.next_handle++;
    s.handles[o.handle] = &o;
    *c.handle = reinterpret_cast<upccoll_handle_t>(static_cast<std::uintptr_t>(o.handle));
    return UPCCOLL_SUCCESS;
  }
  wait(o, fn);
  const int status = o.status;
  pr.release(o);
  return report(fn, static_cast<upccoll_return_t>(status), "the collective failed");
}

// Runs the checks shared by every collective; false (with the code to return)
// when the call cannot even be posted (uninitialised library, bad team).
bool begin(call& c, team*& t, upccoll_return_t& early) {
  const char* fn = c.fn;
  if (!initialized()) {
    early = report(fn, UPCCOLL_ERROR_UNINITIALIZED, "upccoll_initialize has not been called on this thread");
    return false;
  }
  std::string why;
  t = resolve(c.team_handle, &why);
  if (!t) {
    early = report(fn, UPCCOLL_ERROR_TEAM, why);
    return false;
  }
  check_flags(c.v, c.flags);
  return true;
}

#define UPCCOLL_BEGIN(kind_, team_, flags_, handle_, ...) \
  call c{kind_, team_, flags_, handle_, ##__VA_ARGS__};   \
  upc::coll::coop::team* t = nullptr;               \
  upccoll_return_t early;                           \
  if (!begin(c, t, early)) return early;            \
  const int P = t->size();                          \
  const int me = t->rank();                         \
  (void)P;                                          \
  (void)me

}  // namespace

// ---- names, types, ops ----------------------------------------------------------------

const char* upccoll_error_name(upccoll_return_t code) {
  static const char* names[] = {"UPCCOLL_SUCCESS",        "UPCCOLL_ERROR",          "UPCCOLL_ERROR_TEAM",
                                "UPCCOLL_ERROR_SIZE",     "UPCCOLL_ERROR_RANK",     "UPCCOLL_ERROR_HANDLE",
                                "UPCCOLL_ERROR_SENDBUF",  "UPCCOLL_ERROR_RECVBUF",  "UPCCOLL_ERROR_COUNT",
                                "UPCCOLL_ERROR_DATATYPE", "UPCCOLL_ERROR_UPC_OP",   "UPCCOLL_ERROR_FLAGS",
                                "UPCCOLL_ERROR_ROOT",     "UPCCOLL_ERROR_SENDTYPE", "UPCCOLL_ERROR_RECVTYPE",
                                "UPCCOLL_ERROR_SENDCNTS", "UPCCOLL_ERROR_RECVCNTS", "UPCCOLL_ERROR_SDISPLS",
                                "UPCCOLL_ERROR_RDISPLS",  "UPCCOLL_ERROR_MALLOC",   "UPCCOLL_ERROR_UNINITIALIZED"};
  const int i = static_cast<int>(code);
  return i >= 0 && i < static_cast<int>(sizeof names / sizeof *names) ? names[i] : "(not an upccoll_return_t)";
}

upccoll_return_t upccoll_type_size(upccoll_dtype_t dt, size_t* nbytes) {
  if (!initialized())
    return report("upccoll_type_size", UPCCOLL_ERROR_UNINITIALIZED, "upccoll_initialize has not been called on this thread");
  progress_here();
  const dtype_info* t = find_dtype(dt);
  if (!t) return report("upccoll_type_size", UPCCOLL_ERROR_DATATYPE, "dt is " + std::to_string(dt) + ", not an upccoll_dtype_t");
  if (!nbytes) return report("upccoll_type_size", UPCCOLL_ERROR, "nbytes is a null pointer");
  *nbytes = t->size;
  return UPCCOLL_SUCCESS;
}

upccoll_return_t upccoll_op_create(upccoll_user_fun* function, int commute, upccoll_op_t* op) {
  const char* fn = "upccoll_op_create";
  if (!initialized()) return report(fn, UPCCOLL_ERROR_UNINITIALIZED, "upccoll_initialize has not been called on this thread");
  progress_here();
  if (!function) return report(fn, UPCCOLL_ERROR_UPC_OP, "function is a null pointer");
  if (!op) return report(fn, UPCCOLL_ERROR, "op is a null pointer");
  library_state& s = state();
  s.user_ops.push_back({function, commute, true});
  *op = UPCCOLL_USER_OP_BASE + (s.user_ops.size() - 1);
  return UPCCOLL_SUCCESS;
}

upccoll_return_t upccoll_op_free(upccoll_op_t op) {
  const char* fn = "upccoll_op_free";
  if (!initialized()) return report(fn, UPCCOLL_ERROR_UNINITIALIZED, "upccoll_initialize has not been called on this thread");
  progress_here();
  library_state& s = state();
  const std::uint64_t i = op - UPCCOLL_USER_OP_BASE;
  if (op < UPCCOLL_USER_OP_BASE || i >= s.user_ops.size() || !s.user_ops[i].live)
    return report(fn, UPCCOLL_ERROR_UPC_OP, "op " + std::to_string(op) + " is not a live user operation of this thread");
  s.user_ops[i].live = false;
  return UPCCOLL_SUCCESS;
}

upccoll_return_t upccoll_op_commutative(upccoll_op_t op, int* commute) {
  const char* fn = "upccoll_op_commutative";
  if (!initialized()) return report(fn, UPCCOLL_ERROR_UNINITIALIZED, "upccoll_initialize has not been called on this thread");
  progress_here();
  if (!commute) return report(fn, UPCCOLL_ERROR, "commute is a null pointer");
  if (predefined(op)) {
    *commute = 1;
    return UPCCOLL_SUCCESS;
  }
  library_state& s = state();
  const std::uint64_t i = op - UPCCOLL_USER_OP_BASE;
  if (op < UPCCOLL_USER_OP_BASE || i >= s.user_ops.size() || !s.user_ops[i].live)
    return report(fn, UPCCOLL_ERROR_UPC_OP,
                  "op " + std::to_string(op) + " is not a predefined op or a live user operation of this thread");
  *commute = s.user_ops[i].commute ? 1 : 0;
  return UPCCOLL_SUCCESS;
}

// MPI_Reduce_local: inout = in op inout, through a copy of `in` in sub-blocks
// (the element operations compute acc = acc op x with acc the left operand).
upccoll_return_t upccoll_reduce_local(const void* inbuf, void* inoutbuf, size_t count, upccoll_dtype_t dt,
                                      upccoll_op_t op) {
  const char* fn = "upccoll_reduce_local";
  if (!initialized()) return report(fn, UPCCOLL_ERROR_UNINITIALIZED, "upccoll_initialize has not been called on this thread");
  progress_here();
  verdict v;
  post_data unused{};
  const upc::coll::element_op e = check_reduction(v, dt, op, unused);
  const std::uint64_t bytes = v.bad() ? 0 : bytes_of(v, count, e.size, "count", UPCCOLL_ERROR_COUNT);
  if (v.bad() || bytes == 0) return report(fn, v.code, v.message);
  const auto in = reinterpret_cast<std::uintptr_t>(inbuf), io = reinterpret_cast<std::uintptr_t>(inoutbuf);
  if (!inbuf) return report(fn, UPCCOLL_ERROR_SENDBUF, "inbuf is a null pointer");
  if (!inoutbuf) return report(fn, UPCCOLL_ERROR_RECVBUF, "inoutbuf is a null pointer");
  std::uintptr_t in_end, io_end;
  if (__builtin_add_overflow(in, bytes, &in_end) || __builtin_add_overflow(io, bytes, &io_end))
    return report(fn, UPCCOLL_ERROR_COUNT, "count x size(dt) = " + str(bytes) + " bytes run past the end of the address space");
  if (in < io_end && io < in_end)
    return report(fn, UPCCOLL_ERROR_RECVBUF,
                  "inbuf [" + str(in) + ", " + str(in_end) + ") and inoutbuf [" + str(io) + ", " + str(io_end) +
                      ") overlap in bytes [" + str(std::max(in, io)) + ", " + str(std::min(in_end, io_end)) +
                      ") (of " + str(bytes) + " each)");
  const std::uint64_t step = std::max<std::uint64_t>(1, (16u << 10) / e.size);
  std::vector<char> acc(std::min(count, step) * e.size);
  for (std::uint64_t s = 0; s < count; s += step) {
    const std::uint64_t n = std::min(step, count - s);
    char* dst = static_cast<char*>(inoutbuf) + s * e.size;
    std::memcpy(acc.data(), static_cast<const char*>(inbuf) + s * e.size, n * e.size);
    e.combine(acc.data(), dst, n);
    std::memcpy(dst, acc.data(), n * e.size);
  }
  return UPCCOLL_SUCCESS;
}

// ---- initialisation --------------------------------------------------------------------

namespace {
// --upccoll-progress=inline|thread, else UPCEMU_UPCCOLL_PROGRESS; removed from argv.
bool want_progress_thread(int* argc, char*** argv, verdict& v) {
  std::string choice;
  if (const char* e = std::getenv("UPCEMU_UPCCOLL_PROGRESS")) choice = e;
  if (argc && argv && *argv) {
    const std::string prefix = "--upccoll-progress=";
    int out = 0;
    for (int i = 0; i < *argc; ++i) {
      const char* a = (*argv)[i];
      if (a && std::strncmp(a, prefix.c_str(), prefix.size()) == 0) choice = a + prefix.size();
      else (*argv)[out++] = (*argv)[i];
    }
    if (out < *argc) (*argv)[out] = nullptr;
    *argc = out;
  }
  if (choice.empty() || choice == "inline") return false;
  if (choice == "thread") return true;
  v.set(UPCCOLL_ERROR, "progress mode '" + choice + "' is not 'inline' or 'thread' (--upccoll-progress / UPCEMU_UPCCOLL_PROGRESS)");
  return false;
}
}  // namespace

upccoll_return_t upccoll_initialize(int* argc, char*** argv, const std::source_location& where) {
  const char* fn = "upccoll_initialize";
  if (!det::g_control || det::tl_mythread < 0) return UPCCOLL_ERROR;  // not inside a UPC program
  det::collective_call call(fn, where);
  library_state& s = state();
  if (s.initialized) return report(fn, UPCCOLL_ERROR, "the library is already initialised on this thread");
  verdict v;
  const bool threaded = want_progress_thread(argc, argv, v);
  // Every thread makes the same calls below, so a progress-mode error is the
  // same everywhere and no thread is left waiting.
  if (v.bad()) return report(fn, v.code, v.message);
  det::world_barrier(fn);  // never the user's upc_barrier
  s.initialized = true;
  if (threaded) this_thread_progress().start_thread(det::tl_mythread);
  return UPCCOLL_SUCCESS;
}

namespace {
// Completes every collective of this thread on `t` (or all teams) and waits
// until each is over for everyone, so the team's memory can go.
void settle(team* t) {
  progress& pr = this_thread_progress();
  library_state& s = state();
  for (;;) {
    operation* pending = nullptr;
    {
      auto l = pr.lock();
      for (auto& op : pr.live())
        if (!t || op->t == t) {
          pending = op.get();
          break;
        }
    }
    if (!pending) return;
    if (pending->handle) s.handles.erase(pending->handle);
    pr.release(*pending);
    // Released records are dropped once over for everyone: wait for that.
    auto dropped = [&] {
      for (auto& op : pr.live())
        if (op.get() == pending) return false;
      return true;
    };
    pr.wait_until(*pending->t, dropped, "upccoll (completing what is in flight)", nullptr);
  }
}

// Our counts and in-place inputs still staged for the team's last collectives
// (nobody reads them once every member has settled).
void free_staged(team& t, const char* fn) {
  auto release = [&](std::uint64_t& offset, std::uint64_t& size) {
    if (offset) det::heap_free(upc::shared_address{offset, static_cast<std::uint32_t>(det::tl_mythread), 0}, fn);
    offset = 0;
    size = 0;
  };
  for (int i = 0; i < slots; ++i) {
    release(t.slot_meta[i], t.slot_meta_bytes[i]);
    release(t.slot_stage[i], t.slot_stage_bytes[i]);
  }
}

// Frees a team's memory once every member is past its last use of it.
void dismantle(team& t, const char* fn) {
  t.members().barrier(fn);
  free_staged(t, fn);
  t.members().release(fn);
}
}  // namespace

upccoll_return_t upccoll_finalize(const std::source_location& where) {
  const char* fn = "upccoll_finalize";
  if (!initialized()) return report(fn, UPCCOLL_ERROR_UNINITIALIZED, "upccoll_initialize has not been called on this thread");
  det::collective_call call(fn, where);
  library_state& s = state();
  settle(nullptr);
  this_thread_progress().stop_thread();
  team& world = team::of(upc::coll::team::world());
  world.members().barrier(fn);
  free_staged(world, fn);
  for (auto& [id, t] : s.teams) free_staged(team::of(*t), fn);
  s.teams.clear();  // teams never freed: their shared blocks go with the run
  s.handles.clear();
  s.initialized = false;
  return UPCCOLL_SUCCESS;
}

// ---- completion ----------------------------------------------------------------------------

namespace {
operation* find_handle(upccoll_handle_t h) {
  if (!initialized()) return nullptr;
  library_state& s = state();
  auto it = s.handles.find(static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(h)));
  return it == s.handles.end() ? nullptr : it->second;
}
}  // namespace

int upccoll_test(upccoll_handle_t h) {
  operation* op = find_handle(h);
  if (!op) {
    report("upccoll_test", initialized() ? UPCCOLL_ERROR_HANDLE : UPCCOLL_ERROR_UNINITIALIZED,
           "the handle is not a live handle of this thread (already waited on, or never returned)");
    return -static_cast<int>(UPCCOLL_ERROR_HANDLE);
  }
  progress& pr = this_thread_progress();
  pr.advance_all();
  auto l = pr.lock();
  return complete(*op) ? 1 : 0;
}

upccoll_return_t upccoll_wait_status(upccoll_handle_t h) {
  const char* fn = "upccoll_wait";
  operation* op = find_handle(h);
  if (!op)
    return report(fn, initialized() ? UPCCOLL_ERROR_HANDLE : UPCCOLL_ERROR_UNINITIALIZED,
                  "the handle is not a live handle of this thread (already waited on, or never returned)");
  wait(*op, fn);
  const int status = op->status;
  state().handles.erase(op->handle);
  this_thread_progress().release(*op);
  return report(fn, static_cast<upccoll_return_t>(status), "the collective failed");
}

void upccoll_wait(upccoll_handle_t h) { (void)upccoll_wait_status(h); }

void upccoll_fence(void) {
  if (!initialized()) {
    report("upccoll_fence", UPCCOLL_ERROR_UNINITIALIZED, "upccoll_initialize has not been called on this thread");
    return;
  }
  progress& pr = this_thread_progress();
  for (;;) {
    operation* pending = nullptr;
    {
      auto l = pr.lock();
      for (auto& op : pr.live())
        if (op->fence && !op->released) {
          pending = op.get();
          break;
        }
    }
    if (!pending) return;
    wait(*pending, "upccoll_fence");
    if (pending->status) report("upccoll_fence", upccoll_return_t(pending->status), "a fence-completed collective failed");
    pr.release(*pending);
  }
}

// ---- teams ---------------------------------------------------------------------------------

namespace {
// upccoll_team_rank / upccoll_team_size: one query of a team handle.
upccoll_return_t team_query(const char* fn, upccoll_team_t team_handle, int* out, const char* out_name,
                            int (team::*what)() const noexcept) {
  if (!initialized()) return report(fn, UPCCOLL_ERROR_UNINITIALIZED, "upccoll_initialize has not been called on this thread");
  progress_here();
  std::string why;
  team* t = resolve(team_handle, &why);
  if (!t) return report(fn, UPCCOLL_ERROR_TEAM, why);
  if (!out) return report(fn, UPCCOLL_ERROR, std::string(out_name) + " is a null pointer");
  *out = (t->*what)();
  return UPCCOLL_SUCCESS;
}
}  // namespace

upccoll_return_t upccoll_team_rank(upccoll_team_t team_handle, int* rank) {
  return team_query("upccoll_team_rank", team_handle, rank, "rank", &team::rank);
}

upccoll_return_t upccoll_team_size(upccoll_team_t team_handle, int* size) {
  return team_query("upccoll_team_size", team_handle, size, "size", &team::size);
}

// Split: every member posts (color, key, its new block) on the parent team as a
// collective with no tasks; once all have posted, each reads every post, orders
// the members of its color by key and parent rank, and builds its handle. A
// barrier on the parent then keeps the posts alive until everyone has read them.
// A member passing UPCCOLL_UNDEFINED posts no block and gets UPCCOLL_TEAM_NULL.
upccoll_return_t upccoll_team_split(upccoll_team_t team_handle, int color, int key, upccoll_team_t* newteam) {
  const char* fn = "upccoll_team_split";
  call c{collective::barrier, team_handle, 0, nullptr, fn};
  team* t = nullptr;
  upccoll_return_t early;
  if (!begin(c, t, early)) return early;
  if (!newteam) c.v.set(UPCCOLL_ERROR, "newteam is a null pointer");
  std::unique_ptr<upc::coll::team> made;
  const bool join = color != UPCCOLL_UNDEFINED;
  const upc::coll::status st =
      upc::coll::team::split(t->members(), join, color, key, to_status(c.v.code), made, fn);
  // Every member's verdict is the same: the first failure among the members.
  verdict v = c.v;
  if (!v.bad() && st != upc::coll::status::ok) {
    if (st == upc::coll::status::no_memory)
      v.set(UPCCOLL_ERROR_MALLOC, "no shared heap left for the new team's block on some member");
    else
      v.set(from_status(st), "another member's call failed");
  }
  if (v.bad()) return report(fn, v.code, v.message);
  if (!join) {  // this thread joins no team (MPI_UNDEFINED -> MPI_COMM_NULL)
    *newteam = UPCCOLL_TEAM_NULL;
    return UPCCOLL_SUCCESS;
  }
  library_state& s = state();
  const std::uint64_t id = made->id();
  s.last_team_id = std::max(s.last_team_id, id);
  s.teams[id] = std::move(made);
  *newteam = encode_handle(id);
  return UPCCOLL_SUCCESS;
}

void upccoll_team_free(upccoll_team_t team_handle) {
  const char* fn = "upccoll_team_free";
  if (!initialized()) {
    report(fn, UPCCOLL_ERROR_UNINITIALIZED, "upccoll_initialize has not been called on this thread");
    return;
  }
  library_state& s = state();
  std::string why;
  team* t = resolve(team_handle, &why);
  if (!t || t->is_world()) {
    report(fn, UPCCOLL_ERROR_TEAM, t ? "UPC_TEAM_ALL cannot be freed (upccoll_finalize releases it)" : why);
    return;
  }
  settle(t);
  dismantle(*t, fn);
  s.teams.erase(reinterpret_cast<std::uintptr_t>(team_handle) >> handle_thread_bits);  // the team goes with its handle
}

// ---- the collectives ------------------------------------------------------------------------

upccoll_return_t upccoll_barrier(upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) {
  UPCCOLL_BEGIN(collective::barrier, team, flags, handle);
  if (handle || (flags & UPC_ASYNC_FENCE) || c.v.bad()) return launch(c, t);
  // Blocking: a barrier has no tasks, so no one will ever need our record to
  // help with it; it lives on the stack (no list entry, no recycling).
  operation op;
  op.t = t;
  op.kind = collective::barrier;
  op.flags = normalised(flags);
  const upc::coll::algorithm_entry& e =
      upc::coll::select(upc::coll::selection{upc::coll::collective::barrier, "upccoll_barrier", 0, t->size(), 0, 0});
  upc::coll::note_last_algorithm(e.name);
  op.dec = e.tasks;
  op.seq = t->next_seq();
  post_data mine{};
  mine.kind = collective::barrier;
  mine.flags = op.flags;
  start(op, mine, nullptr);
  wait(op, "upccoll_barrier");
  return report("upccoll_barrier", static_cast<upccoll_return_t>(op.status), "the barrier failed");
}

namespace {
// bcast / scatter / gather: the fixed-size rooted collectives. In place at the
// root: gather's sendbuf (the root's block is already in recvbuf), bcast's and
// scatter's recvbuf (the root's part stays in sendbuf).
upccoll_return_t rooted(call& c, team* t, upc::sptr<void> sendbuf, size_t sendcnt, upccoll_dtype_t sendtype,
                        upc::sptr<void> recvbuf, size_t recvcnt, upccoll_dtype_t recvtype, int root, bool gather) {
  verdict& v = c.v;
  check_root(v, root, *t);
  const bool at_root = !v.bad() && root == t->rank();
  c.root = v.bad() ? 0 : root;
  const int P = t->size();
  c.in_place = gather ? in_place_here(c, sendbuf, true, at_root) : in_place_here(c, recvbuf, false, at_root);
  const bool uses_send = gather ? !c.in_place : at_root, uses_recv = gather ? at_root : !c.in_place;
  const dtype_info* st = uses_send ? check_type(v, sendtype, UPCCOLL_ERROR_SENDTYPE, "sendtype") : nullptr;
  const dtype_info* rt = uses_recv ? check_type(v, recvtype, UPCCOLL_ERROR_RECVTYPE, "recvtype") : nullptr;
  if (v.bad()) return launch(c, t);
  const std::uint64_t sblocks = c.kind == collective::member_scatter ? P : 1;
  const std::uint64_t rblocks = gather ? P : 1;
  if (uses_send) {
    c.mine.send_bytes = bytes_of(v, sendcnt, st->size, "sendcnt", UPCCOLL_ERROR_COUNT);
    const std::uint64_t all = bytes_of(v, c.mine.send_bytes, sblocks, "sendcnt", UPCCOLL_ERROR_COUNT);
    c.mine.send = use_buffer(c, sendbuf, all, "sendbuf", UPCCOLL_ERROR_SENDBUF);
    note(c, false, "sendbuf", c.mine.send, 0, all);
  }
  if (uses_recv) {
    c.mine.recv_bytes = bytes_of(v, recvcnt, rt->size, "recvcnt", UPCCOLL_ERROR_COUNT);
    const std::uint64_t all = bytes_of(v, c.mine.recv_bytes, rblocks, "recvcnt", UPCCOLL_ERROR_COUNT);
    c.mine.recv = use_buffer(c, recvbuf, all, "recvbuf", UPCCOLL_ERROR_RECVBUF);
    note(c, true, "recvbuf", c.mine.recv, 0, all);
  }
  if (c.in_place && !v.bad()) {
    if (gather) {  // the root sends its block of recvbuf to itself (the task skips it)
      c.mine.send_bytes = c.mine.recv_bytes;
      c.mine.send = c.mine.recv ? c.mine.recv + std::uint64_t(c.root) * c.mine.recv_bytes : nullptr;
    } else {  // the root receives its own part of sendbuf where it is
      c.mine.recv_bytes = c.mine.send_bytes;
      const std::uint64_t at = c.kind == collective::member_scatter ? std::uint64_t(c.root) * c.mine.send_bytes : 0;
      c.mine.recv = c.mine.send ? c.mine.send + at : nullptr;
    }
  }
  c.selection_bytes = gather ? c.mine.send_bytes : c.mine.recv_bytes;
  return launch(c, t);
}
}  // namespace

upccoll_return_t upccoll_bcast(upc::sptr<void> sendbuf, size_t sendcount, upccoll_dtype_t sendtype,
                               upc::sptr<void> recvbuf, size_t recvcount, upccoll_dtype_t recvtype, int root,
                               upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) {
  UPCCOLL_BEGIN(collective::member_broadcast, team, flags, handle);
  return rooted(c, t, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, false);
}

upccoll_return_t upccoll_scatter(upc::sptr<void> sendbuf, size_t sendcnt, upccoll_dtype_t sendtype,
                                 upc::sptr<void> recvbuf, size_t recvcnt, upccoll_dtype_t recvtype, int root,
                                 upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) {
  UPCCOLL_BEGIN(collective::member_scatter, team, flags, handle);
  return rooted(c, t, sendbuf, sendcnt, sendtype, recvbuf, recvcnt, recvtype, root, false);
}

upccoll_return_t upccoll_gather(upc::sptr<void> sendbuf, size_t sendcnt, upccoll_dtype_t sendtype,
                                upc::sptr<void> recvbuf, size_t recvcnt, upccoll_dtype_t recvtype, int root,
                                upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) {
  UPCCOLL_BEGIN(collective::member_gather, team, flags, handle);
  return rooted(c, t, sendbuf, sendcnt, sendtype, recvbuf, recvcnt, recvtype, root, true);
}

upccoll_return_t upccoll_scatterv(upc::sptr<void> sendbuf, size_t* sendcnts, size_t* sdispls,
                                  upccoll_dtype_t sendtype, upc::sptr<void> recvbuf, size_t recvcnt,
                                  upccoll_dtype_t recvtype, int root, upccoll_team_t team, upccoll_flag_t flags,
                                  upccoll_handle_t* handle) {
  UPCCOLL_BEGIN(collective::member_scatterv, team, flags, handle);
  check_root(c.v, root, *t);
  c.root = c.v.bad() ? 0 : root;
  const bool at_root = !c.v.bad() && root == me;
  c.in_place = in_place_here(c, recvbuf, false, at_root);  // the root's block stays in sendbuf
  const dtype_info* st = at_root ? check_type(c.v, sendtype, UPCCOLL_ERROR_SENDTYPE, "sendtype") : nullptr;
  const dtype_info* rt = c.in_place ? nullptr : check_type(c.v, recvtype, UPCCOLL_ERROR_RECVTYPE, "recvtype");
  if (at_root && st)
    c.meta = check_vector(c, sendcnts, sdispls, P, st->size, sendbuf, "sendcnts", "sdispls", UPCCOLL_ERROR_SENDCNTS,
                          UPCCOLL_ERROR_SDISPLS, false);
  if (at_root && !c.v.bad()) c.mine.send = local_address(sendbuf);
  if (rt) {
    c.mine.recv_bytes = bytes_of(c.v, recvcnt, rt->size, "recvcnt", UPCCOLL_ERROR_COUNT);
    c.mine.recv = use_buffer(c, recvbuf, c.mine.recv_bytes, "recvbuf", UPCCOLL_ERROR_RECVBUF);
    note(c, true, "recvbuf", c.mine.recv, 0, c.mine.recv_bytes);
  }
  if (c.in_place && !c.v.bad()) {
    c.mine.recv_bytes = c.meta[me];
    c.mine.recv = c.mine.send + c.meta[P + me];
  }
  c.selection_bytes = c.mine.recv_bytes;
  return launch(c, t);
}

upccoll_return_t upccoll_gatherv(upc::sptr<void> sendbuf, size_t sendcnt, upccoll_dtype_t sendtype,
                                 upc::sptr<void> recvbuf, size_t* recvcnts, size_t* rdispls,
                                 upccoll_dtype_t recvtype, int root, upccoll_team_t team, upccoll_flag_t flags,
                                 upccoll_handle_t* handle) {
  UPCCOLL_BEGIN(collective::member_gatherv, team, flags, handle);
  check_root(c.v, root, *t);
  c.root = c.v.bad() ? 0 : root;
  const bool at_root = !c.v.bad() && root == me;
  c.in_place = in_place_here(c, sendbuf, true, at_root);  // the root's block is already in recvbuf
  const dtype_info* st = c.in_place ? nullptr : check_type(c.v, sendtype, UPCCOLL_ERROR_SENDTYPE, "sendtype");
  const dtype_info* rt = at_root ? check_type(c.v, recvtype, UPCCOLL_ERROR_RECVTYPE, "recvtype") : nullptr;
  if (st) {
    c.mine.send_bytes = bytes_of(c.v, sendcnt, st->size, "sendcnt", UPCCOLL_ERROR_COUNT);
    c.mine.send = use_buffer(c, sendbuf, c.mine.send_bytes, "sendbuf", UPCCOLL_ERROR_SENDBUF);
    note(c, false, "sendbuf", c.mine.send, 0, c.mine.send_bytes);
  }
  if (at_root && rt) {
    c.meta = check_vector(c, recvcnts, rdispls, P, rt->size, recvbuf, "recvcnts", "rdispls", UPCCOLL_ERROR_RECVCNTS,
                          UPCCOLL_ERROR_RDISPLS, true, c.in_place ? me : -1);
    if (!c.v.bad()) c.mine.recv = local_address(recvbuf);
  }
  if (c.in_place && !c.v.bad()) {
    c.mine.send_bytes = c.meta[me];
    c.mine.send = c.mine.recv + c.meta[P + me];
  }
  c.selection_bytes = c.mine.send_bytes;
  return launch(c, t);
}

namespace {
// allgather / alltoall: fixed blocks from and to every member. In place (every
// member): allgather's input is the member's own block of recvbuf, alltoall's
// the whole recvbuf (staged by the engine before it is overwritten).
upccoll_return_t all_to_all(call& c, team* t, upc::sptr<void> sendbuf, size_t sendcnt, upccoll_dtype_t sendtype,
                            upc::sptr<void> recvbuf, size_t recvcnt, upccoll_dtype_t recvtype, bool personalised) {
  verdict& v = c.v;
  const int P = t->size(), me = t->rank();
  c.in_place = in_place_here(c, sendbuf, true, false);
  const dtype_info* st = c.in_place ? nullptr : check_type(v, sendtype, UPCCOLL_ERROR_SENDTYPE, "sendtype");
  const dtype_info* rt = check_type(v, recvtype, UPCCOLL_ERROR_RECVTYPE, "recvtype");
  if (v.bad()) return launch(c, t);
  if (!c.in_place) {
    c.mine.send_bytes = bytes_of(v, sendcnt, st->size, "sendcnt", UPCCOLL_ERROR_COUNT);
    const std::uint64_t all = bytes_of(v, c.mine.send_bytes, personalised ? P : 1, "sendcnt", UPCCOLL_ERROR_COUNT);
    c.mine.send = use_buffer(c, sendbuf, all, "sendbuf", UPCCOLL_ERROR_SENDBUF);
    note(c, false, "sendbuf", c.mine.send, 0, all);
  }
  c.mine.recv_bytes = bytes_of(v, recvcnt, rt->size, "recvcnt", UPCCOLL_ERROR_COUNT);
  const std::uint64_t all = bytes_of(v, c.mine.recv_bytes, P, "recvcnt", UPCCOLL_ERROR_COUNT);
  c.mine.recv = use_buffer(c, recvbuf, all, "recvbuf", UPCCOLL_ERROR_RECVBUF);
  note(c, true, "recvbuf", c.mine.recv, 0, all);
  if (c.in_place && !v.bad()) {
    c.mine.send_bytes = c.mine.recv_bytes;
    if (personalised) {
      c.mine.send = c.mine.recv;
      c.stage_bytes = all;
    } else {
      c.mine.send = c.mine.recv ? c.mine.recv + std::uint64_t(me) * c.mine.recv_bytes : nullptr;
    }
  }
  if (!v.bad() && c.mine.send_bytes != c.mine.recv_bytes)
    v.set(UPCCOLL_ERROR_COUNT, "sendcnt x size(sendtype) = " + str(c.mine.send_bytes) + " bytes but recvcnt x size(recvtype) = " +
                                   str(c.mine.recv_bytes) + " (every member sends and receives blocks of one size)");
  c.selection_bytes = c.mine.send_bytes;
  return launch(c, t);
}
}  // namespace

upccoll_return_t upccoll_allgather(upc::sptr<void> sendbuf, size_t sendcnt, upccoll_dtype_t sendtype,
                                   upc::sptr<void> recvbuf, size_t recvcnt, upccoll_dtype_t recvtype,
                                   upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) {
  UPCCOLL_BEGIN(collective::member_gather_all, team, flags, handle);
  return all_to_all(c, t, sendbuf, sendcnt, sendtype, recvbuf, recvcnt, recvtype, false);
}

upccoll_return_t upccoll_alltoall(upc::sptr<void> sendbuf, size_t sendcnt, upccoll_dtype_t sendtype,
                                  upc::sptr<void> recvbuf, size_t recvcnt, upccoll_dtype_t recvtype,
                                  upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) {
  UPCCOLL_BEGIN(collective::member_exchange, team, flags, handle);
  return all_to_all(c, t, sendbuf, sendcnt, sendtype, recvbuf, recvcnt, recvtype, true);
}

upccoll_return_t upccoll_allgatherv(upc::sptr<void> sendbuf, size_t sendcnt, upccoll_dtype_t sendtype,
                                    upc::sptr<void> recvbuf, size_t* recvcnts, size_t* displs,
                                    upccoll_dtype_t recvtype, upccoll_team_t team, upccoll_flag_t flags,
                                    upccoll_handle_t* handle) {
  UPCCOLL_BEGIN(collective::member_gather_allv, team, flags, handle);
  c.in_place = in_place_here(c, sendbuf, true, false);  // the member's block is already in recvbuf
  const dtype_info* st = c.in_place ? nullptr : check_type(c.v, sendtype, UPCCOLL_ERROR_SENDTYPE, "sendtype");
  const dtype_info* rt = check_type(c.v, recvtype, UPCCOLL_ERROR_RECVTYPE, "recvtype");
  if (st) {
    c.mine.send_bytes = bytes_of(c.v, sendcnt, st->size, "sendcnt", UPCCOLL_ERROR_COUNT);
    c.mine.send = use_buffer(c, sendbuf, c.mine.send_bytes, "sendbuf", UPCCOLL_ERROR_SENDBUF);
    note(c, false, "sendbuf", c.mine.send, 0, c.mine.send_bytes);
  }
  if (rt) c.meta = check_vector(c, recvcnts, displs, P, rt->size, recvbuf, "recvcnts", "displs", UPCCOLL_ERROR_RECVCNTS,
                                UPCCOLL_ERROR_RDISPLS, true, c.in_place ? me : -1);
  if (!c.v.bad()) c.mine.recv = local_address(recvbuf);
  if (c.in_place && !c.v.bad()) {
    c.mine.send_bytes = c.meta[me];
    c.mine.send = c.mine.recv + c.meta[P + me];
  }
  c.selection_bytes = c.mine.send_bytes;
  return launch(c, t);
}

upccoll_return_t upccoll_alltoallv(upc::sptr<void> sendbuf, size_t* sendcnts, size_t* sdispls,
                                   upccoll_dtype_t sendtype, upc::sptr<void> recvbuf, size_t* recvcnts,
                                   size_t* rdispls, upccoll_dtype_t recvtype, upccoll_team_t team,
                                   upccoll_flag_t flags, upccoll_handle_t* handle) {
  UPCCOLL_BEGIN(collective::member_exchangev, team, flags, handle);
  // In place (every member): sendcnts, sdispls and sendtype are ignored; the
  // receive blocks are sent too, so block k goes to member k and comes back from it.
  c.in_place = in_place_here(c, sendbuf, true, false);
  const dtype_info* st = c.in_place ? nullptr : check_type(c.v, sendtype, UPCCOLL_ERROR_SENDTYPE, "sendtype");
  const dtype_info* rt = check_type(c.v, recvtype, UPCCOLL_ERROR_RECVTYPE, "recvtype");
  std::vector<std::uint64_t> s, r;
  if (st) s = check_vector(c, sendcnts, sdispls, P, st->size, sendbuf, "sendcnts", "sdispls", UPCCOLL_ERROR_SENDCNTS,
                           UPCCOLL_ERROR_SDISPLS, false);
  if (rt) r = check_vector(c, recvcnts, rdispls, P, rt->size, recvbuf, "recvcnts", "rdispls", UPCCOLL_ERROR_RECVCNTS,
                           UPCCOLL_ERROR_RDISPLS, true);
  if (!c.v.bad()) {
    if (c.in_place) {
      s = r;
      c.stage_bytes = extent_of(r, P);
    }
    c.meta = std::move(s);
    c.meta.insert(c.meta.end(), r.begin(), r.end());
    c.mine.recv = local_address(recvbuf);
    c.mine.send = c.in_place ? c.mine.recv : local_address(sendbuf);
    for (int k = 0; k < P; ++k) c.selection_bytes = std::max(c.selection_bytes, c.meta[k]);
  }
  return launch(c, t);
}

namespace {
// reduce / allreduce / scans: `count` elements in and out (the root's receive
// buffer only, for reduce). In place (every member; reduce: the root): the
// input is recvbuf, which the result replaces.
upccoll_return_t reduction(call& c, team* t, upc::sptr<void> sendbuf, upc::sptr<void> recvbuf, size_t count,
                           upccoll_dtype_t dt, upccoll_op_t op, bool recv_here) {
  verdict& v = c.v;
  c.in_place = in_place_here(c, sendbuf, true, recv_here);
  c.eop = check_reduction(v, dt, op, c.mine);
  c.count = count;
  c.mine.op = op;
  c.mine.dtype = dt;
  if (v.bad()) return launch(c, t);
  const std::uint64_t bytes = bytes_of(v, count, c.eop.size, "count", UPCCOLL_ERROR_COUNT);
  if (!c.in_place) {
    c.mine.send = use_buffer(c, sendbuf, bytes, "sendbuf", UPCCOLL_ERROR_SENDBUF);
    note(c, false, "sendbuf", c.mine.send, 0, bytes);
  }
  if (recv_here) {
    c.mine.recv = use_buffer(c, recvbuf, bytes, "recvbuf", UPCCOLL_ERROR_RECVBUF);
    const bool writes = !(c.kind == collective::member_exclusive_scan && t->rank() == 0);  // the exclusive scan leaves rank 0's alone
    if (writes) note(c, true, "recvbuf", c.mine.recv, 0, bytes);
  }
  if (c.in_place && !v.bad()) {
    c.mine.send = c.mine.recv;
    c.stage_bytes = bytes;
  }
  c.selection_bytes = bytes;
  return launch(c, t);
}
}  // namespace

upccoll_return_t upccoll_reduce(upc::sptr<void> sendbuf, upc::sptr<void> recvbuf, size_t count, upccoll_dtype_t dt,
                                upccoll_op_t op, int root, upccoll_team_t team, upccoll_flag_t flags,
                                upccoll_handle_t* handle) {
  UPCCOLL_BEGIN(collective::member_reduce, team, flags, handle);
  check_root(c.v, root, *t);
  c.root = c.v.bad() ? 0 : root;
  return reduction(c, t, sendbuf, recvbuf, count, dt, op, !c.v.bad() && root == me);
}

upccoll_return_t upccoll_allreduce(upc::sptr<void> sendbuf, upc::sptr<void> recvbuf, size_t count,
                                   upccoll_dtype_t dt, upccoll_op_t op, upccoll_team_t team, upccoll_flag_t flags,
                                   upccoll_handle_t* handle) {
  UPCCOLL_BEGIN(collective::member_allreduce, team, flags, handle);
  return reduction(c, t, sendbuf, recvbuf, count, dt, op, true);
}

upccoll_return_t upccoll_scan(upc::sptr<void> sendbuf, upc::sptr<void> recvbuf, size_t count, upccoll_dtype_t dt,
                              upccoll_op_t op, upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) {
  UPCCOLL_BEGIN(collective::member_exclusive_scan, team, flags, handle);
  return reduction(c, t, sendbuf, recvbuf, count, dt, op, true);
}

upccoll_return_t upccoll_exscan(upc::sptr<void> sendbuf, upc::sptr<void> recvbuf, size_t count, upccoll_dtype_t dt,
                                upccoll_op_t op, upccoll_team_t team, upccoll_flag_t flags, upccoll_handle_t* handle) {
  UPCCOLL_BEGIN(collective::member_exclusive_scan, team, flags, handle, "upccoll_exscan");
  return reduction(c, t, sendbuf, recvbuf, count, dt, op, true);
}

upccoll_return_t upccoll_scan_inclusive(upc::sptr<void> sendbuf, upc::sptr<void> recvbuf, size_t count,
                                        upccoll_dtype_t dt, upccoll_op_t op, upccoll_team_t team,
                                        upccoll_flag_t flags, upccoll_handle_t* handle) {
  UPCCOLL_BEGIN(collective::member_inclusive_scan, team, flags, handle);
  return reduction(c, t, sendbuf, recvbuf, count, dt, op, true);
}

upccoll_return_t upccoll_reduce_scatter(upc::sptr<void> sendbuf, upc::sptr<void> recvbuf, size_t* recvcounts,
                                        upccoll_dtype_t dt, upccoll_op_t op, upccoll_team_t team,
                                        upccoll_flag_t flags, upccoll_handle_t* handle) {
  UPCCOLL_BEGIN(collective::member_reduce_scatter, team, flags, handle);
  verdict& v = c.v;
  // In place (every member): recvbuf holds the whole input vector; member t's
  // block of the result replaces its start.
  c.in_place = in_place_here(c, sendbuf, true, false);
  c.eop = check_reduction(v, dt, op, c.mine);
  c.mine.op = op;
  c.mine.dtype = dt;
  if (!v.bad() && !recvcounts) v.set(UPCCOLL_ERROR_RECVCNTS, "recvcounts is a null pointer");
  if (!v.bad()) {
    c.block_elems.assign(std::size_t(P) + 1, 0);
    for (int r = 0; r < P; ++r)
      if (__builtin_add_overflow(c.block_elems[r], recvcounts[r], &c.block_elems[r + 1]))
        v.set(UPCCOLL_ERROR_RECVCNTS, "recvcounts sum overflows");
  }
  if (!v.bad()) {
    c.count = c.block_elems[P];
    const std::uint64_t total = bytes_of(v, c.count, c.eop.size, "recvcounts (sum)", UPCCOLL_ERROR_RECVCNTS);
    const std::uint64_t mine = bytes_of(v, recvcounts[me], c.eop.size, "recvcounts", UPCCOLL_ERROR_RECVCNTS);
    if (!c.in_place) {
      c.mine.send = use_buffer(c, sendbuf, total, "sendbuf", UPCCOLL_ERROR_SENDBUF);
      note(c, false, "sendbuf", c.mine.send, 0, total);
    }
    c.mine.recv = use_buffer(c, recvbuf, c.in_place ? total : mine, "recvbuf", UPCCOLL_ERROR_RECVBUF);
    note(c, true, "recvbuf", c.mine.recv, 0, mine);
    if (c.in_place && !v.bad()) {
      c.mine.send = c.mine.recv;
      c.stage_bytes = total;
    }
    c.mine.recv_bytes = fingerprint(c.block_elems.data(), c.block_elems.size());  // compared between members
    c.selection_bytes = total;
  }
  return launch(c, t);
}
