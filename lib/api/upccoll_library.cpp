// <upccoll.h>: initialisation and finalisation, team handles (split, free,
// rank, size), collective handles and completion (test, wait, fence), the
// types and the user operations. Collective work is the engine's
// (lib/coll/engine.hpp); a team is the engine's one team type.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "../runtime/collective_call.hpp"
#include "../runtime/control.hpp"
#include "../runtime/size_parse.hpp"
#include "../runtime/world_barrier.hpp"
#include "upc/runtime.hpp"
#include "upccoll_args.hpp"
#include "upccoll_words.hpp"

namespace det = upc::detail;
using namespace upccoll_front;
using namespace upc::coll::upccoll_types;

namespace upccoll_front {

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

std::string site_text() { return det::location_text(det::tl_c_site.file, det::tl_c_site.line); }

upccoll_return_t report(const char* function, upccoll_return_t code, const char* message) {
  if (code != UPCCOLL_SUCCESS && upc::check_enabled())
    std::fprintf(stderr, "upcemu: %s: %s%s (thread %d): %s\n", function, message, site_text().c_str(), det::tl_mythread,
                 upccoll_error_name(code));
  return code;
}
upccoll_return_t report(const char* function, upccoll_return_t code, const std::string& message) {
  return report(function, code, message.c_str());
}

// ---- team handles ----------------------------------------------------------------
//
// A handle is not the team's address (a new team may get a freed one's address)
// but (id << 16) | (thread + 1): the id is never reused, and the thread part
// tells another thread's handle from a freed one of ours. 0 is UPC_TEAM_ALL and
// all ones UPCCOLL_TEAM_NULL; neither decodes as a handle of a UPC thread.
namespace {
constexpr int handle_thread_bits = 16;
static_assert((1 << handle_thread_bits) > upc::detail::max_threads, "the thread field of a handle is too narrow");

upccoll_team_t encode_handle(std::uint64_t id) {
  return reinterpret_cast<upccoll_team_t>(
      static_cast<std::uintptr_t>((id << handle_thread_bits) | static_cast<std::uint64_t>(det::tl_mythread + 1)));
}
}  // namespace

upc::coll::team* resolve(upccoll_team_t handle, std::string* why) {
  library_state& s = state();
  if (handle == UPC_TEAM_ALL) return &upc::coll::team::world();
  auto say = [&](std::string m) -> upc::coll::team* {
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
  if (it == s.teams.end()) {
    const auto f = s.freed_teams.find(id);
    if (f == s.freed_teams.end()) return say("team was freed; a freed team handle cannot be used again");
    const library_state::freed_at& at = f->second;
    const bool by_finalize = std::string_view(at.by) == "upccoll_finalize";
    return say(std::string("team was ") + (by_finalize ? "released" : "freed") + " by " + at.by +
               det::location_text(at.file, at.line) + "; a freed team handle cannot be used again");
  }
  return it->second.get();
}

// ---- completion ------------------------------------------------------------------

upccoll_return_t finish_start(tasks::pending& op, upc::coll::status posted, upccoll_flag_t flags,
                              upccoll_handle_t* handle, const verdict& local) {
  const char* fn = tasks::function_of(op);
  if (local.bad() || posted != upc::coll::status::ok) {
    // Posted as a failure: the others complete with it; nothing is left to wait for here.
    tasks::release(op);
    if (handle) *handle = UPCCOLL_INVALID_HANDLE;
    return report(fn, local.code, local.message);
  }
  if (flags & UPC_ASYNC_FENCE) {
    tasks::complete_at_fence(op);
    if (handle) *handle = UPCCOLL_INVALID_HANDLE;
    return UPCCOLL_SUCCESS;  // the work happens later: in upccoll calls, or on the progress thread
  }
  if (handle) {
    *handle = remember_handle(op);
    return UPCCOLL_SUCCESS;
  }
  const upc::coll::status result = tasks::wait(op);
  tasks::release(op);
  return result == upc::coll::status::ok ? UPCCOLL_SUCCESS : report(fn, from_status(result), "the collective failed");
}

}  // namespace upccoll_front

const char* const upccoll_front::uninitialised = "upccoll_initialize has not been called on this thread";

// Completion (test, wait, waitall, testall, fence) and the handles: upccoll_completion.cpp.

// ---- initialisation ----------------------------------------------------------------

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
  if (threaded) tasks::start_progress_thread(det::tl_mythread, fn);
  return UPCCOLL_SUCCESS;
}

upccoll_return_t upccoll_finalize(const std::source_location& where) {
  const char* fn = "upccoll_finalize";
  if (!initialized()) return report(fn, UPCCOLL_ERROR_UNINITIALIZED, uninitialised);
  det::collective_call call(fn, where);
  library_state& s = state();
  drop_handles(nullptr, fn);
  std::vector<upc::coll::team*> teams;
  for (auto& [id, t] : s.teams) teams.push_back(t.get());
  tasks::finalize(teams, engine_words, fn);
  for (auto& [id, t] : s.teams) s.freed_teams[id] = {fn, det::file_of(where), det::line_of(where)};
  s.teams.clear();  // teams never freed: their shared blocks go with the run
  s.initialized = false;
  return UPCCOLL_SUCCESS;
}

// ---- teams ---------------------------------------------------------------------------------

namespace {
// upccoll_team_rank / upccoll_team_size: one query of a team handle.
upccoll_return_t team_query(const char* fn, upccoll_team_t team_handle, int* out, const char* out_name, bool rank) {
  if (!initialized()) return report(fn, UPCCOLL_ERROR_UNINITIALIZED, uninitialised);
  tasks::progress_here();
  std::string why;
  upc::coll::team* t = resolve(team_handle, &why);
  if (!t) return report(fn, UPCCOLL_ERROR_TEAM, why);
  if (!out) return report(fn, UPCCOLL_ERROR, std::string(out_name) + " is a null pointer");
  *out = rank ? t->rank() : t->size();
  return UPCCOLL_SUCCESS;
}
}  // namespace

upccoll_return_t upccoll_team_rank(upccoll_team_t team_handle, int* rank) {
  return team_query("upccoll_team_rank", team_handle, rank, "rank", true);
}

upccoll_return_t upccoll_team_size(upccoll_team_t team_handle, int* size) {
  return team_query("upccoll_team_size", team_handle, size, "size", false);
}

// Split is the engine's (MPI_Comm_split's rule): synchronising, so
// a collective on the new team can never reach a member that does not know it.
upccoll_return_t upccoll_front::split_team(const char* fn, upc::coll::team& parent, bool join, int color, int key,
                                           upccoll_team_t* newteam, verdict v) {
  tasks::progress_here();
  if (!newteam) v.set(UPCCOLL_ERROR, "newteam is a null pointer");
  std::unique_ptr<upc::coll::team> made;
  const upc::coll::status st = tasks::split_team(parent, join && !v.bad(), color, key, to_status(v.code), made, fn);
  // Every member's verdict is the same: the first failure among the members.
  if (!v.bad() && st != upc::coll::status::ok) {
    if (st == upc::coll::status::no_memory) v.set(UPCCOLL_ERROR_MALLOC, "no shared heap left for the new team on some member");
    else v.set(from_status(st), "another member's call failed");
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

upccoll_return_t upccoll_team_split(upccoll_team_t team_handle, int color, int key, upccoll_team_t* newteam) {
  const char* fn = "upccoll_team_split";
  if (!initialized()) return report(fn, UPCCOLL_ERROR_UNINITIALIZED, uninitialised);
  std::string why;
  upc::coll::team* t = resolve(team_handle, &why);
  if (!t) return report(fn, UPCCOLL_ERROR_TEAM, why);
  return split_team(fn, *t, color != UPCCOLL_UNDEFINED, color, key, newteam, verdict{});
}

// MPI_Comm_split_type with MPI_COMM_TYPE_SHARED: the members that share an
// emulated node (upcrun --nodes, docs/topology.md) form one team. The color is
// the node's number, which every member of the node computes alike.
upccoll_return_t upccoll_team_split_type(upccoll_team_t team_handle, int split_type, int key, upccoll_team_t* newteam) {
  const char* fn = "upccoll_team_split_type";
  if (!initialized()) return report(fn, UPCCOLL_ERROR_UNINITIALIZED, uninitialised);
  std::string why;
  upc::coll::team* t = resolve(team_handle, &why);
  if (!t) return report(fn, UPCCOLL_ERROR_TEAM, why);
  verdict v;
  if (split_type != UPCCOLL_TEAM_TYPE_SHARED && split_type != UPCCOLL_UNDEFINED)
    v.set(UPCCOLL_ERROR, "split_type is " + std::to_string(split_type) +
                             ", not UPCCOLL_TEAM_TYPE_SHARED or UPCCOLL_UNDEFINED");
  return split_team(fn, *t, split_type != UPCCOLL_UNDEFINED, upc::node_of(det::tl_mythread), key, newteam, v);
}

void upccoll_team_free(upccoll_team_t team_handle, const std::source_location& where) {
  const char* fn = "upccoll_team_free";
  if (!initialized()) {
    report(fn, UPCCOLL_ERROR_UNINITIALIZED, uninitialised);
    return;
  }
  std::string why;
  upc::coll::team* t = resolve(team_handle, &why);
  if (!t || t->is_world()) {
    report(fn, UPCCOLL_ERROR_TEAM, t ? "UPC_TEAM_ALL cannot be freed (upccoll_finalize releases it)" : why);
    return;
  }
  drop_handles(t, fn);
  tasks::free_team(*t, engine_words, fn);
  const std::uint64_t id = t->id();
  state().teams.erase(id);  // the handle goes with the team
  state().freed_teams[id] = {fn, det::file_of(where), det::line_of(where)};
}

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
  if (!initialized()) return report("upccoll_type_size", UPCCOLL_ERROR_UNINITIALIZED, uninitialised);
  tasks::progress_here();
  const dtype_info* t = find_dtype(dt);
  if (!t) return report("upccoll_type_size", UPCCOLL_ERROR_DATATYPE, "dt is " + std::to_string(dt) + ", not an upccoll_dtype_t");
  if (!nbytes) return report("upccoll_type_size", UPCCOLL_ERROR, "nbytes is a null pointer");
  *nbytes = t->size;
  return UPCCOLL_SUCCESS;
}

upccoll_return_t upccoll_op_create(upccoll_user_fun* function, int commute, upccoll_op_t* op) {
  const char* fn = "upccoll_op_create";
  if (!initialized()) return report(fn, UPCCOLL_ERROR_UNINITIALIZED, uninitialised);
  tasks::progress_here();
  if (!function) return report(fn, UPCCOLL_ERROR_UPC_OP, "function is a null pointer");
  if (!op) return report(fn, UPCCOLL_ERROR, "op is a null pointer");
  library_state& s = state();
  s.user_ops.push_back({function, commute, true});
  *op = UPCCOLL_USER_OP_BASE + (s.user_ops.size() - 1);
  return UPCCOLL_SUCCESS;
}

namespace {
bool live_user_op(upccoll_op_t op) {
  library_state& s = state();
  const std::uint64_t i = op - UPCCOLL_USER_OP_BASE;
  return op >= UPCCOLL_USER_OP_BASE && i < s.user_ops.size() && s.user_ops[i].live;
}
}  // namespace

upccoll_return_t upccoll_op_free(upccoll_op_t op) {
  const char* fn = "upccoll_op_free";
  if (!initialized()) return report(fn, UPCCOLL_ERROR_UNINITIALIZED, uninitialised);
  tasks::progress_here();
  if (!live_user_op(op))
    return report(fn, UPCCOLL_ERROR_UPC_OP, "op " + std::to_string(op) + " is not a live user operation of this thread");
  state().user_ops[op - UPCCOLL_USER_OP_BASE].live = false;
  return UPCCOLL_SUCCESS;
}

upccoll_return_t upccoll_op_commutative(upccoll_op_t op, int* commute) {
  const char* fn = "upccoll_op_commutative";
  if (!initialized()) return report(fn, UPCCOLL_ERROR_UNINITIALIZED, uninitialised);
  tasks::progress_here();
  if (!commute) return report(fn, UPCCOLL_ERROR, "commute is a null pointer");
  if (predefined(op)) {
    *commute = 1;
    return UPCCOLL_SUCCESS;
  }
  if (!live_user_op(op))
    return report(fn, UPCCOLL_ERROR_UPC_OP,
                  "op " + std::to_string(op) + " is not a predefined op or a live user operation of this thread");
  *commute = state().user_ops[op - UPCCOLL_USER_OP_BASE].commute ? 1 : 0;
  return UPCCOLL_SUCCESS;
}

// MPI_Reduce_local: inout = in op inout, through a copy of `in` in sub-blocks
// (the element operations compute acc = acc op x with acc the left operand).
upccoll_return_t upccoll_reduce_local(const void* inbuf, void* inoutbuf, size_t count, upccoll_dtype_t dt,
                                      upccoll_op_t op) {
  const char* fn = "upccoll_reduce_local";
  if (!initialized()) return report(fn, UPCCOLL_ERROR_UNINITIALIZED, uninitialised);
  tasks::progress_here();
  call_args a{collective::member_allreduce, fn, UPC_TEAM_ALL, 0, nullptr};
  const upc::coll::element_op e = check_reduction(a, dt, op);
  verdict& v = a.v;
  const std::uint64_t bytes = v.bad() ? 0 : bytes_of(v, count, e.size, "count", UPCCOLL_ERROR_COUNT);
  if (v.bad() || bytes == 0) return report(fn, v.code, v.message);
  const auto in = reinterpret_cast<std::uintptr_t>(inbuf), io = reinterpret_cast<std::uintptr_t>(inoutbuf);
  if (!inbuf) return report(fn, UPCCOLL_ERROR_SENDBUF, "inbuf is a null pointer");
  if (!inoutbuf) return report(fn, UPCCOLL_ERROR_RECVBUF, "inoutbuf is a null pointer");
  std::uintptr_t in_end, io_end;
  auto s = [](std::uint64_t x) { return std::to_string(x); };
  if (__builtin_add_overflow(in, bytes, &in_end) || __builtin_add_overflow(io, bytes, &io_end))
    return report(fn, UPCCOLL_ERROR_COUNT, "count x size(dt) = " + s(bytes) + " bytes run past the end of the address space");
  if (in < io_end && io < in_end)
    return report(fn, UPCCOLL_ERROR_RECVBUF,
                  "inbuf [" + s(in) + ", " + s(in_end) + ") and inoutbuf [" + s(io) + ", " + s(io_end) +
                      ") overlap in bytes [" + s(std::max(in, io)) + ", " + s(std::min(in_end, io_end)) + ") (of " +
                      s(bytes) + " each)");
  const std::uint64_t step = std::max<std::uint64_t>(1, (16u << 10) / e.size);
  std::vector<char> acc(std::min<std::uint64_t>(count, step) * e.size);
  for (std::uint64_t k = 0; k < count; k += step) {
    const std::uint64_t n = std::min(step, count - k);
    char* dst = static_cast<char*>(inoutbuf) + k * e.size;
    std::memcpy(acc.data(), static_cast<const char*>(inbuf) + k * e.size, n * e.size);
    e.combine(acc.data(), dst, n);
    std::memcpy(dst, acc.data(), n * e.size);
  }
  return UPCCOLL_SUCCESS;
}
