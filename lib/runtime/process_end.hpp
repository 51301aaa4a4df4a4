// The runtime's own way to end a process: at once, with a status, past every
// check that reports a UPC thread ending the program (exit_calls.cpp). The
// bottom of every path that stops a run by force.
#pragma once

namespace upc::detail {

// Ends the process at once with `status` (exit_group), bypassing the checks on
// _exit/_Exit/quick_exit that report a UPC thread calling them (exit_calls.cpp).
[[noreturn]] void end_process(int status) noexcept;

}  // namespace upc::detail
