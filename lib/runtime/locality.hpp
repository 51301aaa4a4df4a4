// The locality report (upcrun --report=locality, issue 29): for each source line,
// how many of the shared accesses made there were local (to the accessing
// thread's own partition) and how many remote (another thread's partition; with
// --nodes, split into the same node and another node), printed at exit most
// remote first, so that an affinity that sends every iteration to the wrong
// thread shows up as a number; and a note for each upc_forall whose affinity is
// empty (or continue), so that every thread runs every iteration.
//
// What counts as one access: an element read or write of a pointer-to-shared
// (UPC through upcc: each upcemu_addr, so `a[i] += x` is one; the C++ API: each
// shared_ref read or write, so `a[i] += x` is two), and one upc_memcpy /
// upc_memget / upc_memput / upc_memset call (its bytes counted at once).
//
// The hooks run only while g_locality is set (the per-access path tests
// g_access_hooks, which is g_check || g_locality: one branch when both are off).
// Each thread counts into a table of its own keyed by the place (UPC: file and
// line as upcc passed them; C++: the return address, turned into file:line only
// when the report is made); at its end it hands the table to the launcher.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "upc/runtime.hpp"

namespace upc::detail::locality {

struct settings {
  bool report = false;
  std::string report_file;     // --report-file: JSON lines instead of the table
  bool append_to_file = false;  // the traffic report writes the same file first
};
// The mpi backend's ranks: every rank's text to the leader (empty elsewhere).
using gather_function = std::function<std::vector<std::string>(const std::string&)>;

// The launcher, before the threads start / after they all ended. gather: set on
// the mpi backend (each rank has its own table; the leader prints), leader:
// whether this process prints.
void start_counting(const settings& s, backend_kind backend);
void report_at_exit(bool print, const gather_function& gather, bool leader);
// At the end of a UPC thread: hand its counts to the launcher.
void hand_over_counts();

// One shared access of `bytes` at thread `owner`'s partition, at a UPC line.
void note_access(std::uint32_t owner, std::size_t bytes, const char* file, unsigned line);
// A upc_mem* call whose shared side is in thread `owner`'s partition (upc_memcpy:
// both sides, a and b; it counts as remote as its farther side): at the UPC
// line of the call when it came from UPC source (tl_c_site), else at `caller`,
// the return address into the program.
void note_copy(std::uint32_t owner, std::size_t bytes, const void* caller);
void note_copy(std::uint32_t a, std::uint32_t b, std::size_t bytes, const void* caller);
// A translated upc_forall with an empty affinity, entered outside any
// controlling upc_forall.
void note_forall_every_thread(const char* file, unsigned line);

}  // namespace upc::detail::locality
