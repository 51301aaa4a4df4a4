// The exit codes a run collects before it returns (in the launcher's process):
// each UPC thread's, stored by the backends, and the launcher's own (124 for a
// timeout, 130 for an interrupt), which a failure's exit status falls back on
// (failure.cpp). Data only, below everything that sets or reads it.
#pragma once
#include <vector>

namespace upc::detail {

void reset_exit_codes(int threads);        // run(): one 0 per thread, no launcher code
void set_exit_code(int thread, int code);  // stored for the launcher
const std::vector<int>& exit_codes() noexcept;
void set_launcher_exit_code(int code);     // 124 timeout, 130 interrupted
int launcher_exit_code();                  // 0 when none was set

}  // namespace upc::detail
