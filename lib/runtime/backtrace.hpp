// The backtraces of failure reports. Where a failure happens only return
// addresses are taken (capture_frames, cheap, and safe in a signal handler);
// turning them into lines that name the program's functions, files and lines
// (describe_frames) reads the program's symbols and debug information, which a
// crash handler leaves to a child process (crash_backtrace_text).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "upc/runtime.hpp"

namespace upc::detail {

constexpr int max_backtrace_frames = 64;
// The most frames of the program a report shows (launch_options::backtrace = program).
constexpr int max_program_frames = 10;

// The calling thread's stack, innermost first, without capture_frames itself and
// the `skip` frames above it. Each address is inside the instruction of
// interest: the call (a return address less one), or for the frame a signal
// interrupted, the instruction that faulted. Safe in a signal handler once
// warm_up_backtraces has run.
int capture_frames(void** pcs, int capacity, int skip) noexcept;
void warm_up_backtraces() noexcept;

void set_backtrace_detail(backtrace_detail detail) noexcept;
backtrace_detail backtrace_setting() noexcept;

// One function at an address (several for inlined code, innermost first).
struct source_frame {
  std::string function;  // demangled; "" when unknown
  std::string file;      // whole (frame_lookup.cpp, whole_path); "" without
  int line = 0;
};
// What is known about one address: its functions, and the file it was loaded
// from with its offset there (for code without debug information).
struct frame_description {
  std::vector<source_frame> functions;
  std::string module;
  std::uintptr_t offset = 0;
  bool system_library = false;  // libc, libstdc++, ...: never the program's
  bool runtime_symbol = false;  // its symbol is one of upcemu's functions
};
frame_description look_up_frame(const void* pc);  // frame_lookup.cpp

// A source file's path as reports show it: relative to the working directory
// when inside it.
std::string shown_path(const std::string& file);

// Whether a function belongs to the program, not to upcemu (its namespaces, its
// C interface, its files) or to the system (std::, libc, ...).
bool is_program_frame(const source_frame& function, const frame_description& where);

// The report's lines for these frames, each "    #0 f(int) at prog.cpp:12\n";
// under `program` only the program's frames (at most max_program_frames) and a
// line saying how many are not shown. At most `room` bytes, a closing line
// saying what did not fit. "" under `off`.
std::string describe_frames(void* const* pcs, int count, std::size_t room = 1 << 20);

// For a crash handler: the lines of describe_frames in out (at most size bytes,
// not terminated), returning their length. Reading symbols allocates memory and
// takes the dynamic loader's lock, which a signal handler must not (the crash
// may have happened holding either), so a copy of the process made for it (a
// child) does the reading; if the child does not answer within a few seconds,
// or dies, out gets the raw addresses instead. 0 under `off`.
std::size_t crash_backtrace_text(void* const* pcs, int count, char* out, std::size_t size) noexcept;

}  // namespace upc::detail
