// UPC 1.3 non-blocking transfers (<upc_nb.h>). Transfers complete eagerly: each
// is one memcpy/memset straight into or out of the owning partition, done before
// the call returns (the segment is mapped at the same address everywhere, so no
// agent is needed to finish it later). What remains asynchronous is the handle
// discipline, which is checked: each UPC thread keeps the set of its explicit
// handles that are issued and not yet synced.
//
// A handle is (issuing thread + 1) << 40 | serial, serial counting from 1 per
// thread, so it is never UPC_COMPLETE_HANDLE (0) and errors can say who issued it.
// The table is thread_local: every UPC thread is a fresh OS thread (threads
// backend) or a fresh process (processes backend), so it starts empty each run.
//
// Under --check=races a transfer's shared side is an access at its start and
// again when it is synced (upc_sync, a upc_sync_attempt that returns 1,
// upc_synci, upc_synci_attempt): by the language its bytes may move at any
// moment in between, so an access by another thread that is ordered neither
// before the start nor after the sync races with it, although the eager copy
// here gives the right bytes. Both notes carry the start's place. The ranges
// wait in the handle's entry (explicit handles), in the thread's implicit list,
// or in an open Berkeley access region's list (nb_region.hpp).
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "call_site.hpp"
#include "control.hpp"
#include "copy_bytes.hpp"
#include "nb_region.hpp"
#include "race_range.hpp"
#include "traffic.hpp"
#include "upc_nb.h"

namespace {

using namespace upc::detail;
using upc::shared_address;

constexpr int serial_bits = 40;
constexpr std::uint64_t serial_mask = (std::uint64_t{1} << serial_bits) - 1;

// A transfer's shared side, noted again at its sync (--check=races only).
struct pending_range {
  const void* p;
  std::size_t n;
  unsigned kind;
  access_site site;
};
using pending_ranges = std::vector<pending_range>;

struct nb_table {
  std::uint64_t next_serial = 1;
  std::unordered_map<std::uint64_t, pending_ranges> outstanding;  // serials issued and not yet synced
  pending_ranges implicit;  // the implicit-handle transfers not yet synced
  bool in_region = false;   // a Berkeley access region is open: implicit transfers go to `region`
  pending_ranges region;
};
thread_local nb_table tl_nb;

// The ranges of the transfer being started (filled by the do_* functions
// below, taken by issue() or by the implicit form).
thread_local pending_ranges tl_started;

// Notes a transfer's shared side at its start and keeps it for its sync.
void started(const char* function, const void* p, std::size_t n, unsigned kind, const void* return_address) {
  if (!g_races) return;
  access_site site = caller_site(return_address);
  site.transfer = function;
  const pending_range r{p, n, kind, site};
  note_range(r.p, r.n, r.kind, r.site);
  tl_started.push_back(r);
}
// The ranges a successful sync completes, noted again now.
void synced(const pending_ranges& ranges) {
  for (const pending_range& r : ranges) note_range(r.p, r.n, r.kind, r.site);
}

std::string handle_text(upc_handle_t h) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%#llx", static_cast<unsigned long long>(h));
  return buf;
}

// The local address of n bytes at p, which must lie inside one partition.
char* shared_bytes(const char* function, const char* arg, const upc::sptr<void>& p, std::size_t n) {
  const shared_address& a = p.address();
  if (p.is_null()) fail(function, std::string(arg) + " is a null pointer-to-shared");
  if (a.thread >= static_cast<std::uint32_t>(g_threads))
    fail(function, std::string(arg) + " has thread " + std::to_string(a.thread) + ", but THREADS is " +
                       std::to_string(g_threads));
  if (a.offset > g_partition_bytes || n > g_partition_bytes - a.offset)
    fail(function, std::string(arg) + " (thread " + std::to_string(a.thread) + ", offset " + std::to_string(a.offset) +
                       ") plus " + std::to_string(n) + " bytes runs past the end of that thread's shared heap (" +
                       std::to_string(g_partition_bytes) + " bytes)");
  return raw_address(a);
}

void private_bytes(const char* function, const char* arg, const void* p, std::size_t n) {
  if (!p && n) fail(function, std::string(arg) + " is a null pointer");
}

// The transfers themselves: validated, then done at once.
void do_memcpy(const char* function, const upc::sptr<void>& dst, const upc::sptr<void>& src, std::size_t n,
               const void* caller) {
  require_upc_thread(function);
  if (n == 0) return;
  char* d = shared_bytes(function, "dst", dst, n);
  char* s = shared_bytes(function, "src", src, n);
  started(function, s, n, access_read, caller);
  started(function, d, n, access_write, caller);
  if (traffic::g_active) traffic::copied(d, s, n, -1, "", function);
  if (d + n <= s || s + n <= d) copy_bytes(d, s, n);
  else std::memmove(d, s, n);
}
void do_memget(const char* function, void* dst, const upc::sptr<void>& src, std::size_t n, const void* caller) {
  require_upc_thread(function);
  if (n == 0) return;
  private_bytes(function, "dst", dst, n);
  const char* from = shared_bytes(function, "src", src, n);
  started(function, from, n, access_read, caller);
  if (traffic::g_active) traffic::copied(dst, from, n, -1, "", function);
  copy_bytes(dst, from, n);
}
void do_memput(const char* function, const upc::sptr<void>& dst, const void* src, std::size_t n, const void* caller) {
  require_upc_thread(function);
  if (n == 0) return;
  private_bytes(function, "src", src, n);
  char* to = shared_bytes(function, "dst", dst, n);
  started(function, to, n, access_write, caller);
  if (traffic::g_active) traffic::copied(to, src, n, -1, "", function);
  copy_bytes(to, src, n);
}
void do_memset(const char* function, const upc::sptr<void>& dst, int c, std::size_t n, const void* caller) {
  require_upc_thread(function);
  if (n == 0) return;
  char* to = shared_bytes(function, "dst", dst, n);
  started(function, to, n, access_write, caller);
  std::memset(to, c, n);
}

// A new explicit handle, holding the ranges to note at its sync.
upc_handle_t issue(pending_ranges ranges) {
  const auto me = static_cast<std::uint64_t>(upc::mythread());
  nb_table& t = tl_nb;
  const std::uint64_t serial = t.next_serial++;
  t.outstanding.emplace(serial, std::move(ranges));
  return ((me + 1) << serial_bits) | serial;
}
upc_handle_t issue_started() { return issue(std::exchange(tl_started, {})); }

// An implicit-handle transfer just started: its ranges wait for upc_synci (or
// for the handle of the access region it is in).
void keep_implicit() {
  if (tl_started.empty()) return;
  nb_table& t = tl_nb;
  pending_ranges& to = t.in_region ? t.region : t.implicit;
  to.insert(to.end(), tl_started.begin(), tl_started.end());
  tl_started.clear();
}

// Retires `h` for the calling thread (noting its ranges again), or fails
// saying why it cannot.
void retire(const char* function, upc_handle_t h) {
  const int me = upc::mythread();
  const std::uint64_t owner_plus_one = h >> serial_bits;
  const std::uint64_t serial = h & serial_mask;
  if (owner_plus_one == 0 || owner_plus_one > static_cast<std::uint64_t>(g_threads) || serial == 0)
    fail(function, "handle " + handle_text(h) + " is not a handle returned by upc_memcpy_nb, upc_memget_nb, "
                                                "upc_memput_nb or upc_memset_nb");
  if (owner_plus_one - 1 != static_cast<std::uint64_t>(me))
    fail(function, "handle " + handle_text(h) + " was issued by thread " + std::to_string(owner_plus_one - 1) +
                       "; only the thread that issued a handle may sync it");
  nb_table& t = tl_nb;
  if (serial >= t.next_serial)
    fail(function, "handle " + handle_text(h) + " was never issued by this thread");
  const auto entry = t.outstanding.find(serial);
  if (entry == t.outstanding.end())
    fail(function, "handle " + handle_text(h) + " was already synced (each handle may be completed only once)");
  const pending_ranges ranges = std::move(entry->second);
  t.outstanding.erase(entry);
  synced(ranges);
}

void retire_implicit() {
  synced(tl_nb.implicit);
  tl_nb.implicit.clear();
}

}  // namespace

upc_handle_t upc_memcpy_nb(upc::sptr<void> dst, upc::sptr<void> src, std::size_t n) {
  do_memcpy("upc_memcpy_nb", dst, src, n, __builtin_return_address(0));
  return issue_started();
}
upc_handle_t upc_memget_nb(void* dst, upc::sptr<void> src, std::size_t n) {
  do_memget("upc_memget_nb", dst, src, n, __builtin_return_address(0));
  return issue_started();
}
upc_handle_t upc_memput_nb(upc::sptr<void> dst, const void* src, std::size_t n) {
  do_memput("upc_memput_nb", dst, src, n, __builtin_return_address(0));
  return issue_started();
}
upc_handle_t upc_memset_nb(upc::sptr<void> dst, int c, std::size_t n) {
  do_memset("upc_memset_nb", dst, c, n, __builtin_return_address(0));
  return issue_started();
}

void upc_sync(upc_handle_t handle) {
  require_upc_thread("upc_sync");
  if (handle == UPC_COMPLETE_HANDLE) return;
  retire("upc_sync", handle);
}

int upc_sync_attempt(upc_handle_t handle) {
  require_upc_thread("upc_sync_attempt");
  if (handle == UPC_COMPLETE_HANDLE) return 1;
  retire("upc_sync_attempt", handle);
  return 1;  // eager completion: always done
}

// Implicit handles: the operations are already complete; under --check=races
// their ranges wait for upc_synci.
void upc_memcpy_nbi(upc::sptr<void> dst, upc::sptr<void> src, std::size_t n) {
  do_memcpy("upc_memcpy_nbi", dst, src, n, __builtin_return_address(0));
  keep_implicit();
}
void upc_memget_nbi(void* dst, upc::sptr<void> src, std::size_t n) {
  do_memget("upc_memget_nbi", dst, src, n, __builtin_return_address(0));
  keep_implicit();
}
void upc_memput_nbi(upc::sptr<void> dst, const void* src, std::size_t n) {
  do_memput("upc_memput_nbi", dst, src, n, __builtin_return_address(0));
  keep_implicit();
}
void upc_memset_nbi(upc::sptr<void> dst, int c, std::size_t n) {
  do_memset("upc_memset_nbi", dst, c, n, __builtin_return_address(0));
  keep_implicit();
}

void upc_synci(void) {
  require_upc_thread("upc_synci");
  retire_implicit();
}
int upc_synci_attempt(void) {
  require_upc_thread("upc_synci_attempt");
  retire_implicit();
  return 1;  // eager completion: always done
}

namespace upc::detail {

void nb_region_begin() noexcept { tl_nb.in_region = true; }

upc_handle_t nb_region_end() {
  nb_table& t = tl_nb;
  t.in_region = false;
  if (t.region.empty()) return UPC_COMPLETE_HANDLE;
  return issue(std::exchange(t.region, {}));
}

}  // namespace upc::detail
