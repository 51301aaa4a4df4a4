#include "upccoll_state.hpp"

#include <cstdio>
#include <string_view>

#include "../runtime/call_site.hpp"
#include "../runtime/control.hpp"
#include "../runtime/size_parse.hpp"
#include "upc/runtime.hpp"

namespace det = upc::detail;

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
}  // namespace

upccoll_team_t encode_team(std::uint64_t id) {
  return reinterpret_cast<upccoll_team_t>(
      static_cast<std::uintptr_t>((id << handle_thread_bits) | static_cast<std::uint64_t>(det::tl_mythread + 1)));
}

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

upc::coll::team* team_for(const char* fn, upccoll_team_t handle, upccoll_return_t& failed) {
  if (!initialized()) {
    failed = report(fn, UPCCOLL_ERROR_UNINITIALIZED, uninitialised);
    return nullptr;
  }
  if (handle == UPC_TEAM_ALL) return &upc::coll::team::world();  // most calls: no words to prepare
  std::string why;
  upc::coll::team* t = resolve(handle, &why);
  if (!t) failed = report(fn, UPCCOLL_ERROR_TEAM, why);
  return t;
}

const char* const uninitialised = "upccoll_initialize has not been called on this thread";

}  // namespace upccoll_front
