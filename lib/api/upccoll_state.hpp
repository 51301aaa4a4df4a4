// <upccoll.h> front-end: what every file of it shares, and the lowest of its
// layers (upccoll_state -> upccoll_completion -> upccoll_args -> upccoll and
// upccoll_library; upccoll_words beside them): the per-thread library state,
// the team handles, the first failed check of a call and how a failure is
// reported. The front-end maps the paper's names, handles and error codes onto
// the engine (lib/coll/engine.hpp, its one public header) and does nothing else.
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

// The team of a handle, or nullptr with `why` saying what is wrong with it;
// the handle of a team of this thread (split_team registers it).
upc::coll::team* resolve(upccoll_team_t handle, std::string* why = nullptr);
upccoll_team_t encode_team(std::uint64_t id);
// The team a call of `fn` names, or nullptr once reported (the library is not
// initialised, the handle is not usable) with the code in `failed`.
upc::coll::team* team_for(const char* fn, upccoll_team_t handle, upccoll_return_t& failed);

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

// UPCCOLL_ERROR_* and the engine's status, both ways, and the codes' names
// (upccoll_status.cpp).
upc::coll::status to_status(upccoll_return_t code) noexcept;
upccoll_return_t from_status(upc::coll::status s) noexcept;

extern const char* const uninitialised;  // "upccoll_initialize has not been called on this thread"

}  // namespace upccoll_front
