// <upccoll.h> front-end: what its files share. The front-end maps the paper's
// names, handles and error codes onto the engine (lib/coll/tasks/engine.hpp)
// and does nothing else: upccoll.cpp has the collectives, upccoll_args.cpp
// the argument checks, upccoll_library.cpp initialisation, teams, handles,
// completion, types and ops.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "../coll/status.hpp"
#include "../coll/tasks/engine.hpp"
#include "../coll/team.hpp"
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
  std::map<std::uint64_t, tasks::operation*> handles;
  std::uint64_t next_handle = 1;
  std::vector<user_op_entry> user_ops;
};

library_state& state();
bool initialized();

// Prints a failure under --check ("upcemu: FUNCTION: MESSAGE (thread T):
// UPCCOLL_ERROR_X") and returns the code.
upccoll_return_t report(const char* function, upccoll_return_t code, const char* message);
upccoll_return_t report(const char* function, upccoll_return_t code, const std::string& message);
// The same for a failure the engine found (tasks::reporter).
void report_engine(const char* function, upc::coll::status s, const std::string& message, int seen_by_thread);

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

// Records a started collective's handle (or fence) as the call asks, or waits
// for it (blocking); the call's return value.
upccoll_return_t finish_start(tasks::operation& op, upc::coll::status posted, upccoll_flag_t flags,
                              upccoll_handle_t* handle, const verdict& local);

}  // namespace upccoll_front
