// The race detector's reports (race_check.hpp): the detector finds that two
// accesses conflict; here they are named for the user, both sides with their
// place in the program, the object and element, and the fix.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <functional>
#include <string>

#include "backtrace.hpp"
#include "control.hpp"
#include "failure.hpp"
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

// One side: a thread's access, or a collective's data movement on a thread's
// data (its line is the call's).
std::string side_text(int thread, bool write, const access_site& s) {
  if (s.collective)
    return std::string(s.collective) + "'s " + kind_word(write) + " of thread " + std::to_string(thread) +
           "'s data at " + site_text(s);
  if (s.transfer)
    return "thread " + std::to_string(thread) + "'s " + kind_word(write) + " by the non-blocking " + s.transfer +
           " at " + site_text(s) + " (its bytes may move until it is synced)";
  return "thread " + std::to_string(thread) + "'s " + kind_word(write) + " at " + site_text(s);
}

std::string race_text(const race_conflict& c) {
  const std::uint64_t off = static_cast<std::uint64_t>(c.byte - g_partitions);
  const shared_address a{off % g_partition_bytes, static_cast<std::uint32_t>(off / g_partition_bytes), 0};
  std::string text = "data race on " + describe_element_at(a) + ": " + side_text(c.thread, c.write, c.site) + " and " +
                     side_text(c.other_thread, c.other_write, c.other_site) +
                     " are not ordered by any barrier, lock or strict access";
  if (my_slot().notified && !c.site.collective)
    text += " (this thread is between upc_notify and upc_wait: its barrier orders nothing before the wait)";
  if (c.site.collective || c.other_site.collective)
    return text + "; a collective's data movement is ordered by its sync flags: UPC_IN_NOSYNC does not order what "
                  "was written before the call, UPC_OUT_NOSYNC (and, for other threads' data, UPC_OUT_MYSYNC) not "
                  "what is read after it, and a non-blocking <upccoll.h> collective owns its buffers until "
                  "upccoll_wait; put a upc_barrier between them, or use UPC_IN_ALLSYNC / UPC_OUT_ALLSYNC";
  if (c.site.transfer || c.other_site.transfer)
    return text + "; a non-blocking transfer (upc_mem*_nb, upc_mem*_nbi, bupc_mem*_async) reads or writes its "
                  "memory until its sync (upc_sync, upc_synci, bupc_waitsync): sync it before the barrier, lock or "
                  "strict access that is to order it with the other access";
  text += c.other_write && c.write
              ? "; when several threads update shared data, hold one lock around each update (upc_lock, upc_unlock) "
                "or combine the values with a collective such as upc_all_reduce"
              : "; if one thread produces what the other reads, put a upc_barrier between them (or a strict flag); if "
                "both update it, hold one lock around each update (upc_lock, upc_unlock)";
  return text;
}

// --check=all-races: each race once, by the pair of places in the program
// (whichever thread and element, in either order), and the run goes on. A pair
// is known first by its raw places (cheap: the file and line pointers upcc
// passes, or return addresses), then by its text, so that two return addresses
// on the same lines count once; both keys live in the control block, which
// every process of the run shares.
std::uint64_t mix(std::uint64_t h) noexcept {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return h | 1;  // never 0, the empty slot
}
std::uint64_t site_key(const access_site& s) noexcept {
  return s.file ? mix(reinterpret_cast<std::uintptr_t>(s.file) * 31 + s.line) : mix(reinterpret_cast<std::uintptr_t>(s.pc));
}
// True the first time `key` is seen in the run (false also once the table is full).
bool first_time(std::uint64_t key) noexcept {
  control_block& c = control();
  for (int probe = 0; probe < race_key_slots; ++probe) {
    std::atomic<std::uint64_t>& slot = c.race_keys[(key + static_cast<std::uint64_t>(probe)) % race_key_slots];
    std::uint64_t seen = slot.load(std::memory_order_acquire);
    if (seen == key) return false;
    if (seen == 0 && slot.compare_exchange_strong(seen, key, std::memory_order_acq_rel)) return true;
    if (seen == key) return false;
  }
  return false;
}
constexpr std::uint32_t races_shown = 100;

void report_and_go_on(const race_conflict& c) {
  const std::uint64_t a = site_key(c.site), b = site_key(c.other_site);
  if (!first_time(mix(std::min(a, b) * 0x9e3779b97f4a7c15ULL + std::max(a, b)))) return;
  std::string mine = site_text(c.site), theirs = site_text(c.other_site);
  if (theirs < mine) std::swap(mine, theirs);
  if (!first_time(mix(std::hash<std::string>{}(mine + "|" + theirs)))) return;
  const std::uint32_t n = control().races_reported.fetch_add(1) + 1;
  if (quiet_reports() || n > races_shown) return;
  std::string line = std::string("upcemu: ") + (c.write ? "shared write" : "shared read") + ": " + race_text(c) +
                     " (thread " + std::to_string(c.thread) + ")\n";
  if (n == races_shown) line += "upcemu: (further races are counted, not shown)\n";
  std::fflush(stdout);
  for (std::size_t done = 0; done < line.size();) {  // one line at a time, not interleaved with another thread's
    const ssize_t w = ::write(2, line.data() + done, line.size() - done);
    if (w <= 0) break;
    done += static_cast<std::size_t>(w);
  }
}

void report_race(const race_conflict& c) {
  if (control().races_keep_going.load(std::memory_order_relaxed)) return report_and_go_on(c);
  fail(c.write ? "shared write" : "shared read", race_text(c));
}
}  // namespace

void note_shared_access(const void* p, std::size_t bytes, unsigned kind, const access_site& site) {
  if (const std::optional<race_conflict> c = race_check_access(p, bytes, kind, site)) report_race(*c);
}

void note_element_access(const shared_address& a, std::size_t bytes, unsigned kind) {
  note_shared_access(raw_address(a), bytes, kind, access_site{nullptr, 0, __builtin_return_address(0)});
}

}  // namespace upc::detail
