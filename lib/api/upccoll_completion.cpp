// <upccoll.h>: completing non-blocking collectives (seed 000 §3.3) and the
// handles that name them: upccoll_test and upccoll_wait for one handle, the
// extensions upccoll_waitall and upccoll_testall for an array of them (as
// MPI_Waitall and MPI_Testall: docs/teams-and-collectives-2.md, "Completion"),
// upccoll_fence; and, under --check, a note for every handle that was never
// waited on (§3.3 rule 6: "Non-blocking operations with valid handles must be
// waited on by upccoll_wait"). The work itself is the engine's
// (tasks::test / wait / release / fence).
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "../runtime/call_site.hpp"
#include "upc/runtime.hpp"
#include "upccoll_completion.hpp"

namespace det = upc::detail;
using namespace upccoll_front;
using live_handle = library_state::live_handle;

namespace {

constexpr const char* not_live = "is not a live handle of this thread (already waited on, or never returned)";
constexpr const char* must_wait =
    "a non-blocking collective with a handle is complete only once upccoll_wait, upccoll_waitall or "
    "upccoll_testall has returned for it (seed 000, section 3.3)";

std::uint64_t number_of(upccoll_handle_t h) { return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(h)); }

live_handle* find_handle(upccoll_handle_t h) {
  if (!initialized()) return nullptr;
  library_state& s = state();
  auto it = s.handles.find(number_of(h));
  return it == s.handles.end() ? nullptr : &it->second;
}

// "handle 3 (upccoll_bcast at prog.upc:12)"
std::string describe(std::uint64_t number, const live_handle& h) {
  return "handle " + std::to_string(number) + " (" + tasks::function_of(*h.op) + det::location_text(h.file, h.line) + ")";
}

// The --check note: `which` were never waited on; `context` says where they were found.
void note_never_waited(const std::vector<std::string>& which, const std::string& context) {
  if (which.empty() || !upc::check_enabled()) return;
  std::string list;
  for (const std::string& w : which) list += (list.empty() ? "" : ", ") + w;
  std::fprintf(stderr, "upcemu: note: %s: %s of thread %d %s never waited on: %s\n", context.c_str(), list.c_str(),
               det::tl_mythread, which.size() == 1 ? "was" : "were", must_wait);
}

// A thread that ends with live handles and no upccoll_finalize: the note, from
// the thread's own atexit handlers (lib/runtime/libc_exit.cpp runs them when
// the UPC thread returns from main or calls exit).
void note_at_thread_end() {
  if (!det::g_control || det::tl_mythread < 0) return;
  library_state& s = state();
  std::vector<std::string> which;
  for (const auto& [number, h] : s.handles) which.push_back(describe(number, h));
  note_never_waited(which, "the thread ended, and");
}

// Waits for a live handle, forgets it and gives its record back; its code.
upccoll_return_t complete(const char* fn, std::uint64_t number, const std::string& arg) {
  live_handle& h = state().handles.at(number);
  tasks::pending& op = *h.op;
  const upc::coll::status result = tasks::wait(op);
  const std::string what = describe(number, h);
  state().handles.erase(number);
  tasks::release(op);
  return report(fn, from_status(result), arg + "the collective of " + what + " failed");
}

// The checks of an array of handles: UPCCOLL_INVALID_HANDLE entries are
// skipped (MPI_REQUEST_NULL), every other one must be live and named once.
// On success, `numbers` holds each entry's handle number (0: skipped).
upccoll_return_t check_array(const char* fn, int count, const upccoll_handle_t* handles,
                             std::vector<std::uint64_t>& numbers) {
  if (!initialized()) return report(fn, UPCCOLL_ERROR_UNINITIALIZED, uninitialised);
  if (count < 0) return report(fn, UPCCOLL_ERROR_COUNT, "count is " + std::to_string(count) + ", negative");
  if (count > 0 && !handles) return report(fn, UPCCOLL_ERROR, "handles is a null pointer (count " + std::to_string(count) + ")");
  std::set<std::uint64_t> seen;
  numbers.assign(static_cast<std::size_t>(count), 0);
  for (int i = 0; i < count; ++i) {
    if (handles[i] == UPCCOLL_INVALID_HANDLE) continue;
    const std::string at = "handles[" + std::to_string(i) + "]";
    if (!find_handle(handles[i])) return report(fn, UPCCOLL_ERROR_HANDLE, at + " " + not_live);
    const std::uint64_t n = number_of(handles[i]);
    if (!seen.insert(n).second) {
      int first = 0;
      while (numbers[static_cast<std::size_t>(first)] != n) ++first;
      return report(fn, UPCCOLL_ERROR_HANDLE,
                    at + " repeats handles[" + std::to_string(first) + "] (handle " + std::to_string(n) + ")");
    }
    numbers[static_cast<std::size_t>(i)] = n;
  }
  return UPCCOLL_SUCCESS;
}

// Completes every entry of a checked array: its status, the handle made
// UPCCOLL_INVALID_HANDLE; the first failure in array order.
upccoll_return_t complete_all(const char* fn, int count, upccoll_handle_t* handles, upccoll_return_t* statuses,
                              const std::vector<std::uint64_t>& numbers) {
  upccoll_return_t first = UPCCOLL_SUCCESS;
  for (int i = 0; i < count; ++i) {
    upccoll_return_t r = UPCCOLL_SUCCESS;
    if (numbers[static_cast<std::size_t>(i)] != 0) {
      r = complete(fn, numbers[static_cast<std::size_t>(i)], "handles[" + std::to_string(i) + "]: ");
      handles[i] = UPCCOLL_INVALID_HANDLE;
    }
    if (statuses) statuses[i] = r;
    if (first == UPCCOLL_SUCCESS) first = r;
  }
  return first;
}

}  // namespace

namespace upccoll_front {

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

upccoll_return_t finish_blocking(upc::coll::status posted, upc::coll::status result, const char* fn, const verdict& local) {
  if (local.bad() || posted != upc::coll::status::ok) return report(fn, local.code, local.message);
  return result == upc::coll::status::ok ? UPCCOLL_SUCCESS : report(fn, from_status(result), "the collective failed");
}

upccoll_handle_t remember_handle(tasks::pending& op) {
  library_state& s = state();
  const std::uint64_t number = s.next_handle++;
  s.handles[number] = live_handle{&op, det::tl_c_site.file, det::tl_c_site.line};
  if (upc::check_enabled() && !s.end_note_registered) {
    s.end_note_registered = true;
    std::atexit(note_at_thread_end);  // this UPC thread's own handlers (libc_exit.cpp)
  }
  return reinterpret_cast<upccoll_handle_t>(static_cast<std::uintptr_t>(number));
}

void drop_handles(upc::coll::team* t, const char* function) {
  library_state& s = state();
  std::vector<std::string> which;
  for (auto it = s.handles.begin(); it != s.handles.end();)
    if (!t || &tasks::team_of(*it->second.op) == t) {
      which.push_back(describe(it->first, it->second));
      it = s.handles.erase(it);
    } else {
      ++it;
    }
  note_never_waited(which, std::string(function) + " completed them, but");
}

}  // namespace upccoll_front

int upccoll_test(upccoll_handle_t h) {
  live_handle* l = find_handle(h);
  if (!l) {
    report("upccoll_test", initialized() ? UPCCOLL_ERROR_HANDLE : UPCCOLL_ERROR_UNINITIALIZED,
           std::string("the handle ") + not_live);
    return -static_cast<int>(UPCCOLL_ERROR_HANDLE);
  }
  return tasks::test(*l->op) ? 1 : 0;
}

upccoll_return_t upccoll_wait_status(upccoll_handle_t h) {
  const char* fn = "upccoll_wait";
  if (!find_handle(h))
    return report(fn, initialized() ? UPCCOLL_ERROR_HANDLE : UPCCOLL_ERROR_UNINITIALIZED, std::string("the handle ") + not_live);
  return complete(fn, number_of(h), "");
}

void upccoll_wait(upccoll_handle_t h) { (void)upccoll_wait_status(h); }

upccoll_return_t upccoll_waitall(int count, upccoll_handle_t* handles, upccoll_return_t* statuses) {
  const char* fn = "upccoll_waitall";
  std::vector<std::uint64_t> numbers;
  if (const upccoll_return_t bad = check_array(fn, count, handles, numbers); bad != UPCCOLL_SUCCESS) return bad;
  return complete_all(fn, count, handles, statuses, numbers);
}

int upccoll_testall(int count, upccoll_handle_t* handles, upccoll_return_t* statuses) {
  const char* fn = "upccoll_testall";
  std::vector<std::uint64_t> numbers;
  if (const upccoll_return_t bad = check_array(fn, count, handles, numbers); bad != UPCCOLL_SUCCESS)
    return -static_cast<int>(bad);
  bool all = true;
  for (std::uint64_t n : numbers)
    if (n != 0) all = tasks::test(*state().handles.at(n).op) && all;  // every one gets its round of progress
  if (!all) return 0;
  (void)complete_all(fn, count, handles, statuses, numbers);  // each is over: no wait
  return 1;
}

void upccoll_fence(void) {
  if (!initialized()) {
    report("upccoll_fence", UPCCOLL_ERROR_UNINITIALIZED, uninitialised);
    return;
  }
  (void)tasks::fence("upccoll_fence");
}
