// The race detector's reports (race_check.hpp): the detector finds that two
// accesses conflict; here they are named for the user, both sides with their
// place in the program, the object and element, and the fix.
#include <string>

#include "backtrace.hpp"
#include "control.hpp"
#include "heap_index.hpp"
#include "race_check.hpp"
#include "upc/error.hpp"
#include "upc/sptr.hpp"

namespace upc::detail {

namespace {
// file:line as given (upcc's code passes the UPC source's), or for a return
// address the first of its (inlined) frames that is the program's.
std::string site_text(const access_site& s) {
  if (s.file) return std::string(s.file) + ":" + std::to_string(s.line);
  if (s.pc) {
    const frame_description d = look_up_frame(s.pc);
    for (const source_frame& f : d.functions)
      if (is_program_frame(f, d) && !f.file.empty()) return shown_path(f.file) + ":" + std::to_string(f.line);
    if (!d.functions.empty() && !d.functions.front().function.empty())
      return d.functions.front().function + " (build with -g and -O1 or more for the line)";
  }
  return "an unknown place";
}

const char* kind_word(bool write) { return write ? "write" : "read"; }

[[noreturn]] void report_race(const race_conflict& c) {
  const std::uint64_t off = static_cast<std::uint64_t>(c.byte - g_partitions);
  const shared_address a{off % g_partition_bytes, static_cast<std::uint32_t>(off / g_partition_bytes), 0};
  std::string text = "data race on " + describe_element_at(a) + ": thread " + std::to_string(c.thread) + "'s " +
                     kind_word(c.write) + " at " + site_text(c.site) + " and thread " + std::to_string(c.other_thread) +
                     "'s " + kind_word(c.other_write) + " at " + site_text(c.other_site) +
                     " are not ordered by any barrier, lock or strict access";
  if (my_slot().notified)
    text += " (this thread is between upc_notify and upc_wait: its barrier orders nothing before the wait)";
  text += c.other_write && c.write
              ? "; when several threads update shared data, hold one lock around each update (upc_lock, upc_unlock) "
                "or combine the values with a collective such as upc_all_reduce"
              : "; if one thread produces what the other reads, put a upc_barrier between them (or a strict flag); if "
                "both update it, hold one lock around each update (upc_lock, upc_unlock)";
  fail(c.write ? "shared write" : "shared read", text);
}
}  // namespace

void note_shared_access(const void* p, std::size_t bytes, unsigned kind, const access_site& site) {
  if (const std::optional<race_conflict> c = race_check_access(p, bytes, kind, site)) report_race(*c);
}

void note_element_access(const shared_address& a, std::size_t bytes, unsigned kind) {
  note_shared_access(raw_address(a), bytes, kind, access_site{nullptr, 0, __builtin_return_address(0)});
}

}  // namespace upc::detail
