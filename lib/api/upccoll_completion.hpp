// <upccoll.h>: what becomes of a started collective (upccoll_completion.cpp):
// its handle, its fence, or the wait of a blocking call; the handles the
// library forgets when a team goes.
#pragma once
#include "upccoll_state.hpp"

namespace upccoll_front {

// Records a started collective's handle (or fence) as the call asks, or waits
// for it (blocking); the call's return value.
upccoll_return_t finish_start(tasks::pending& op, upc::coll::status posted, upccoll_flag_t flags,
                              upccoll_handle_t* handle, const verdict& local);

// The return value of a blocking call run to its end (tasks::run_blocking):
// as finish_start's for a call without handle or fence.
upccoll_return_t finish_blocking(upc::coll::status posted, upc::coll::status result, const char* fn, const verdict& local);

// remember_handle gives op the next handle number; drop_handles forgets the
// handles of collectives on t (nullptr: all), which settling then completes,
// with a --check note for each, named by `function` (upccoll_team_free,
// upccoll_finalize): it was never waited on.
upccoll_handle_t remember_handle(tasks::pending& op);
void drop_handles(upc::coll::team* t, const char* function);

}  // namespace upccoll_front
