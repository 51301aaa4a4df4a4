#include "upccoll_args.hpp"

#include <algorithm>

#include "../runtime/call_site.hpp"
#include "../runtime/control.hpp"
#include "upc/runtime.hpp"
#include "upccoll_words.hpp"

namespace upccoll_front {

namespace det = upc::detail;
using namespace upc::coll::upccoll_types;

namespace {

std::string str(std::uint64_t v) { return std::to_string(v); }

constexpr int in_bits = UPC_IN_ALLSYNC | UPC_IN_MYSYNC | UPC_IN_NOSYNC;
constexpr int out_bits = UPC_OUT_ALLSYNC | UPC_OUT_MYSYNC | UPC_OUT_NOSYNC;

bool more_than_one(int bits) { return (bits & (bits - 1)) != 0; }

void check_flags(verdict& v, upccoll_flag_t flags) {
  const int known = in_bits | out_bits | UPC_ASYNC_FENCE;
  if (flags & ~known)
    v.set(UPCCOLL_ERROR_FLAGS, "flags has bits " + str(flags & ~known) +
                                   " that are not UPC_{IN,OUT}_{ALL,MY,NO}SYNC or UPC_ASYNC_FENCE (algorithm bits "
                                   "such as UPC_PULL do not apply here; choose algorithms with UPCEMU_COLL)");
  else if (more_than_one(flags & in_bits))
    v.set(UPCCOLL_ERROR_FLAGS, "flags combines more than one of UPC_IN_ALLSYNC, UPC_IN_MYSYNC, UPC_IN_NOSYNC");
  else if (more_than_one(flags & out_bits))
    v.set(UPCCOLL_ERROR_FLAGS, "flags combines more than one of UPC_OUT_ALLSYNC, UPC_OUT_MYSYNC, UPC_OUT_NOSYNC");
}

// A missing IN or OUT part means MYSYNC in this API; NOSYNC behaves as MYSYNC.
int normalised(upccoll_flag_t flags) {
  int f = flags & (UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  if (!(f & UPC_IN_ALLSYNC)) f |= UPC_IN_MYSYNC;
  if (!(f & UPC_OUT_ALLSYNC)) f |= UPC_OUT_MYSYNC;
  return f;
}

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

char* my_partition() { return det::g_partitions + std::uint64_t(det::tl_mythread) * det::g_partition_bytes; }

thread_local std::vector<upc::coll::area> tl_areas;

}  // namespace

call_args::call_args(collective k, const char* fn, upccoll_team_t team, upccoll_flag_t f, upccoll_handle_t* h)
    : team_handle(team), flags(f), handle(h), areas(tl_areas) {
  c.kind = k;
  c.function = fn;
  c.library = &engine_words;
  areas.clear();
}

bool begin(call_args& a, upccoll_return_t& early) {
  a.t = team_for(a.c.function, a.team_handle, early);
  if (!a.t) return false;
  tasks::progress_here();  // every call makes progress
  a.P = a.t->size();
  a.me = a.t->rank();
  check_flags(a.v, a.flags);
  return true;
}

// A call must not write what it reads: the first overlap of the noted areas is
// UPCCOLL_ERROR_RECVBUF, naming both and the bytes they share.
void check_overlap(call_args& a) {
  if (a.v.bad() || a.areas.size() < 2) return;
  const upc::coll::area_fault f = upc::coll::first_overlap(a.areas);
  if (!f) return;
  std::string m = upc::coll::area_fault::describe(f.a) + " is read and " + upc::coll::area_fault::describe(f.b) +
                  " written: they overlap in bytes [" + str(std::max(f.a.lo, f.b.lo)) + ", " + str(std::min(f.a.hi, f.b.hi)) +
                  ") of thread " + std::to_string(det::tl_mythread) + "'s shared heap";
  if (in_place_rule_of(a.c.kind) != in_place_rule::nowhere)
    m += "; to compute in place pass UPCCOLL_IN_PLACE (" + in_place_usage(a) + ")";
  a.v.set(UPCCOLL_ERROR_RECVBUF, m);
}

namespace {
struct remembered_call {
  bool valid = false;
  const void* run = nullptr;
  std::uint64_t generation = 0;
  upccoll_team_t team = nullptr;
  upc::coll::team* t = nullptr;  // what the handle named when it was remembered
  raw_args raw;
  tasks::call c;
  std::vector<upc::coll::area> areas;
};
thread_local remembered_call tl_remembered[upc::coll::collective_count];

std::uint64_t heap_generation() { return det::control().heap_generation.load(std::memory_order_acquire); }
}  // namespace

bool repeat(call_args& a, const raw_args& raw) {
  remembered_call& r = tl_remembered[static_cast<int>(a.c.kind)];
  if (!r.valid || a.v.bad() || r.run != det::g_control || r.team != a.team_handle || !(r.raw == raw) ||
      r.generation != heap_generation())
    return false;
  r.c.function = a.c.function;  // upccoll_exscan shares upccoll_scan's kind
  a.repeated = &r.c;            // no copy: the engine only reads it
  if (det::g_races) a.areas = r.areas;
  return true;
}

void forget_calls() {
  for (remembered_call& r : tl_remembered) r.valid = false;
}

void remember(const call_args& a) {
  if (!a.raw || a.v.bad()) return;
  remembered_call& r = tl_remembered[static_cast<int>(a.c.kind)];
  r.valid = true;
  r.run = det::g_control;
  r.generation = heap_generation();
  r.team = a.team_handle;
  r.t = a.t;
  r.raw = *a.raw;
  r.c = a.c;
  thread_local std::uint64_t stamps = 0;
  r.c.stamp = ++stamps;  // a new description: the engine derives it again
  if (det::g_races) r.areas = a.areas;
}

namespace {
// --check=races: what the call reads and writes of this member's buffers, and
// where in the program it was made (the UPC line upcc passed, else the return
// address into the C++ caller).
void describe_for_races(call_args& a) {
  if (!det::g_races) return;
  tasks::call& c = a.sent();
  c.areas = &a.areas;
  c.site = det::tl_c_site.file ? det::access_site{det::tl_c_site.file, det::tl_c_site.line, nullptr, c.function}
                               : det::access_site{nullptr, 0, a.caller, c.function};
}
}  // namespace

namespace {
const char* const no_heap_to_stage = "no shared heap left to stage the counts or the input";
}  // namespace

bool run_remembered(collective kind, const char* function, upccoll_team_t team, upccoll_flag_t flags,
                    upccoll_handle_t* handle, const raw_args& raw, upccoll_return_t& result) {
  remembered_call& r = tl_remembered[static_cast<int>(kind)];
  // The raw arguments include the flags, so they are the good ones remembered.
  if (!r.valid || handle || (flags & UPC_ASYNC_FENCE) || det::g_races || r.team != team || !(r.raw == raw) ||
      r.run != det::g_control || r.generation != heap_generation())
    return false;
  r.c.function = function;  // upccoll_exscan shares upccoll_scan's kind
  upc::coll::status posted;
  const upc::coll::status outcome = tasks::run_blocking(*r.t, r.c, posted);
  if (posted == upc::coll::status::ok && outcome == upc::coll::status::ok) [[likely]] {
    result = UPCCOLL_SUCCESS;
  } else {
    verdict v;
    if (posted != upc::coll::status::ok) v.set(from_status(posted), no_heap_to_stage);
    result = finish_blocking(posted, outcome, function, v);
  }
  return true;
}

// The engine's part: a blocking call run to its end at once, the others
// started and left to their handle or fence.
upccoll_return_t to_engine(call_args& a) {
  describe_for_races(a);
  upc::coll::status posted;
  auto say_no_memory = [&] {
    if (posted != upc::coll::status::ok && !a.v.bad())
      a.v.set(from_status(posted), no_heap_to_stage);
  };
  if (!a.handle && !(a.flags & UPC_ASYNC_FENCE)) {
    const upc::coll::status result = tasks::run_blocking(*a.t, a.sent(), posted);
    say_no_memory();
    return finish_blocking(posted, result, a.c.function, a.v);
  }
  tasks::pending& op = tasks::start_collective(*a.t, a.sent(), posted);
  say_no_memory();
  return finish_start(op, posted, a.flags, a.handle, a.v);
}

upccoll_return_t launch_repeat(call_args& a) { return to_engine(a); }

upccoll_return_t launch(call_args& a) {
  check_overlap(a);
  a.c.flags = normalised(a.flags);
  a.c.failed = to_status(a.v.code);
  remember(a);
  return to_engine(a);
}

// ---- single arguments ----------------------------------------------------------

const dtype_info* check_type(verdict& v, upccoll_dtype_t dt, upccoll_return_t code, const char* arg) {
  const dtype_info* t = find_dtype(dt);
  if (!t) v.set(code, std::string(arg) + " is " + std::to_string(dt) + ", not an upccoll_dtype_t");
  return t;
}

void check_root(verdict& v, int root, int team_size) {
  if (root < 0 || root >= team_size)
    v.set(UPCCOLL_ERROR_ROOT, "root is " + std::to_string(root) + ", but the team has " + std::to_string(team_size) +
                                  " members (valid roots: 0.." + std::to_string(team_size - 1) + ")");
}

std::uint64_t bytes_of(verdict& v, std::uint64_t count, std::size_t size, const char* what, upccoll_return_t code) {
  std::uint64_t b;
  if (__builtin_mul_overflow(count, static_cast<std::uint64_t>(size), &b)) {
    v.set(code, std::string(what) + " overflows (" + str(count) + " elements of " + str(size) + " bytes)");
    return 0;
  }
  return b;
}

upc::coll::element_op check_reduction(call_args& a, upccoll_dtype_t dt, upccoll_op_t op) {
  verdict& v = a.v;
  a.c.op_arg = op;
  a.c.type_arg = dt;
  const dtype_info* t = check_type(v, dt, UPCCOLL_ERROR_DATATYPE, "dt");
  if (!t || v.bad()) return {};
  if (op >= UPCCOLL_USER_OP_BASE) {
    library_state& s = state();
    const std::uint64_t i = op - UPCCOLL_USER_OP_BASE;
    if (i >= s.user_ops.size() || !s.user_ops[i].live) {
      v.set(UPCCOLL_ERROR_UPC_OP, "op " + str(op) + " is not a live operation made by upccoll_op_create on this thread");
      return {};
    }
    a.c.user_fn = reinterpret_cast<const void*>(s.user_ops[i].fn);
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

// ---- buffers ---------------------------------------------------------------------

std::string in_place_usage(const call_args& a) {
  const std::string fn = a.c.function;
  switch (in_place_rule_of(a.c.kind)) {
    case in_place_rule::send_everywhere: return fn + " takes it as sendbuf, on every member";
    case in_place_rule::send_at_root: return fn + " takes it as sendbuf at the root only";
    case in_place_rule::recv_at_root: return fn + " takes it as recvbuf at the root only";
    default: return fn + " has no in-place form";
  }
}

bool in_place_here(const call_args& a, upc::sptr<void> p, bool send_side, bool at_root) {
  if (!is_in_place(p)) return false;
  switch (in_place_rule_of(a.c.kind)) {
    case in_place_rule::send_everywhere: return send_side;
    case in_place_rule::send_at_root: return send_side && at_root;
    case in_place_rule::recv_at_root: return !send_side && at_root;
    default: return false;
  }
}

char* use_buffer(call_args& a, upc::sptr<void> p, std::uint64_t bytes, const char* arg, upccoll_return_t code) {
  verdict& v = a.v;
  if (v.bad()) return nullptr;
  if (is_in_place(p)) {
    v.set(code, std::string(arg) + " is UPCCOLL_IN_PLACE, which this member cannot pass there: " + in_place_usage(a));
    return nullptr;
  }
  if (bytes == 0) return nullptr;
  const upc::shared_address at = p.address();
  if (at == upc::shared_address{}) {
    v.set(code, std::string(arg) + " is a null pointer-to-shared");
    return nullptr;
  }
  if (at.thread != static_cast<std::uint32_t>(det::tl_mythread)) {
    v.set(code, std::string(arg) + " has affinity to thread " + str(at.thread) +
                    "; upccoll buffers must have affinity to the calling thread");
    return nullptr;
  }
  // The one validator: inside this thread's heap, inside one live object.
  const upc::coll::area area{det::tl_mythread, at.offset, at.offset + bytes, false, arg, -1};
  if (at.offset > det::g_partition_bytes || bytes > det::g_partition_bytes - at.offset) {
    v.set(UPCCOLL_ERROR_COUNT, upc::coll::area_fault{upc::coll::area_fault::outside_heap, area, {}, {}, 0}.message());
    return nullptr;
  }
  if (const upc::coll::area_fault f = upc::coll::check_placement(area)) {
    v.set(f.kind == upc::coll::area_fault::past_object ? UPCCOLL_ERROR_COUNT : code, f.message());
    return nullptr;
  }
  return my_partition() + at.offset;
}

char* local_address(upc::sptr<void> p) { return my_partition() + p.address().offset; }

void note(call_args& a, bool write, const char* arg, const char* base, std::uint64_t off, std::uint64_t n, int block) {
  if (a.v.bad() || !base || n == 0) return;
  const std::uint64_t lo = static_cast<std::uint64_t>(base - my_partition()) + off;
  a.areas.push_back({det::tl_mythread, lo, lo + n, write, arg, block});
}

std::vector<std::uint64_t> check_vector(call_args& a, const size_t* counts, const size_t* displs, std::size_t size,
                                        upc::sptr<void> buf, const char* counts_arg, const char* displs_arg,
                                        upccoll_return_t counts_code, upccoll_return_t displs_code, bool write, int own) {
  verdict& v = a.v;
  const int P = a.P;
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
    out[std::size_t(r)] = n;
    out[std::size_t(P + r)] = d;
    if (n) need = std::max(need, d + n);
  }
  const bool send_side = counts_code == UPCCOLL_ERROR_SENDCNTS;
  const char* arg = send_side ? "sendbuf" : "recvbuf";
  const char* base = use_buffer(a, buf, need, arg, send_side ? UPCCOLL_ERROR_SENDBUF : UPCCOLL_ERROR_RECVBUF);
  if (v.bad()) return {};
  for (int r = 0; r < P; ++r)
    note(a, r == own ? false : write, r == own ? "recvbuf (this member's own block, in place)" : arg, base,
         out[std::size_t(P + r)], out[std::size_t(r)], r);
  return out;
}

}  // namespace upccoll_front
