// <upccoll.h> front-end: what its files share. The front-end maps the paper's
// names, handles and error codes onto the engine (lib/coll/engine.hpp, its one
// public header) and does nothing else: upccoll.cpp has the collectives,
// upccoll_args.cpp the argument checks, upccoll_library.cpp initialisation,
// teams, handles, completion, types and ops, upccoll_words.cpp the engine's
// findings in the library's words.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "../coll/engine.hpp"
#include "upccoll.h"

namespace upccoll_front {

using upc::coll::collective;
namespace tasks = upc::coll::tasks;

// ---- per-thread library state ----------------------------------------------

struct user_op_entry {
  upccoll_user_fun* fn = nullptr;
  int commute = 0;
  bool live = false;
};

struct library_state {
  bool initialized = false;
  const void* run = nullptr;  // the run it was initialised in
  // Live sub-teams of this thread by id. Ids are never reused in a run (not even
  // across finalize and a new initialize), so a freed handle stays invalid.
  std::map<std::uint64_t, std::unique_ptr<upc::coll::team>> teams;
  std::uint64_t last_team_id = 0;  // the largest id handed out
  // Where each freed team went (upccoll_team_free, or upccoll_finalize for the
  // teams still live then), for the message when its handle is used again.
  struct freed_at {
    const char* by;
    const char* file;
    std::uint32_t line;
  };
  std::map<std::uint64_t, freed_at> freed_teams;
  // Live collective handles by number, with the call's line when it came from
  // UPC source (the --check note on handles never waited on names it).
  struct live_handle {
    tasks::pending* op;
    const char* file;
    std::uint32_t line;
  };
  std::map<std::uint64_t, live_handle> handles;
  std::uint64_t next_handle = 1;
  bool end_note_registered = false;  // the --check note at the thread's end (upccoll_completion.cpp)
  std::vector<user_op_entry> user_ops;
};

library_state& state();
bool initialized();

// Prints a failure under --check ("upcemu: FUNCTION: MESSAGE (thread T):
// UPCCOLL_ERROR_X") and returns the code.
upccoll_return_t report(const char* function, upccoll_return_t code, const char* message);
upccoll_return_t report(const char* function, upccoll_return_t code, const std::string& message);
// " at prog.upc:12" for a call from translated UPC (upcc's <upccoll.h> sets
// the caller's site), else "".
std::string site_text();

// The team of a handle, or nullptr with `why` saying what is wrong with it.
upc::coll::team* resolve(upccoll_team_t handle, std::string* why = nullptr);

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

// UPCCOLL_ERROR_* and the engine's status, both ways (upccoll_status.cpp).
upc::coll::status to_status(upccoll_return_t code) noexcept;
upccoll_return_t from_status(upc::coll::status s) noexcept;

extern const char* const uninitialised;  // "upccoll_initialize has not been called on this thread"

// Handles (upccoll_completion.cpp). remember_handle gives op the next handle
// number; drop_handles forgets the handles of collectives on t (nullptr: all),
// which settling then completes, with a --check note for each, named by
// `function` (upccoll_team_free, upccoll_finalize): it was never waited on.
upccoll_handle_t remember_handle(tasks::pending& op);
void drop_handles(upc::coll::team* t, const char* function);

// Collective over `parent`: the new team of the members that join with the
// same color, ordered by key then parent rank, registered as a handle of this
// thread in *newteam (UPCCOLL_TEAM_NULL when this member does not join). `v`:
// this member's own failure, if any (posted, so every member returns it).
upccoll_return_t split_team(const char* fn, upc::coll::team& parent, bool join, int color, int key,
                            upccoll_team_t* newteam, verdict v);

// Records a started collective's handle (or fence) as the call asks, or waits
// for it (blocking); the call's return value.
upccoll_return_t finish_start(tasks::pending& op, upc::coll::status posted, upccoll_flag_t flags,
                              upccoll_handle_t* handle, const verdict& local);

}  // namespace upccoll_front
