// <upccoll.h>: initialisation and finalisation, teams (split, free, rank,
// size), the types and the user operations, reduce_local. Collective work is
// the engine's (lib/coll/engine.hpp); a team is the engine's one team type.
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
#include "upccoll_completion.hpp"
#include "upccoll_library.hpp"
#include "upccoll_words.hpp"

namespace det = upc::detail;
using namespace upccoll_front;
using namespace upc::coll::upccoll_types;

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
  forget_calls();
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
  *newteam = encode_team(id);
  return UPCCOLL_SUCCESS;
}

upccoll_return_t upccoll_team_split(upccoll_team_t team_handle, int color, int key, upccoll_team_t* newteam) {
  const char* fn = "upccoll_team_split";
  upccoll_return_t failed;
  upc::coll::team* t = team_for(fn, team_handle, failed);
  if (!t) return failed;
  return split_team(fn, *t, color != UPCCOLL_UNDEFINED, color, key, newteam, verdict{});
}

// MPI_Comm_split_type with MPI_COMM_TYPE_SHARED: the members that share an
// emulated node (upcrun --nodes, docs/topology.md) form one team. The color is
// the node's number, which every member of the node computes alike.
upccoll_return_t upccoll_team_split_type(upccoll_team_t team_handle, int split_type, int key, upccoll_team_t* newteam) {
  const char* fn = "upccoll_team_split_type";
  upccoll_return_t failed;
  upc::coll::team* t = team_for(fn, team_handle, failed);
  if (!t) return failed;
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
  forget_calls();  // its handle must not run a remembered call
  tasks::free_team(*t, engine_words, fn);
  const std::uint64_t id = t->id();
  state().teams.erase(id);  // the handle goes with the team
  state().freed_teams[id] = {fn, det::file_of(where), det::line_of(where)};
}

// ---- types, ops ----------------------------------------------------------------------

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
