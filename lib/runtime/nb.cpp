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
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_set>

#include "call_site.hpp"
#include "control.hpp"
#include "copy_bytes.hpp"
#include "traffic.hpp"
#include "upc_nb.h"

namespace {

using namespace upc::detail;
using upc::shared_address;

constexpr int serial_bits = 40;
constexpr std::uint64_t serial_mask = (std::uint64_t{1} << serial_bits) - 1;

struct nb_table {
  std::uint64_t next_serial = 1;
  std::unordered_set<std::uint64_t> outstanding;  // serials issued and not yet synced
};
thread_local nb_table tl_nb;

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
void do_memcpy(const char* function, const upc::sptr<void>& dst, const upc::sptr<void>& src, std::size_t n) {
  require_upc_thread(function);
  if (n == 0) return;
  char* d = shared_bytes(function, "dst", dst, n);
  char* s = shared_bytes(function, "src", src, n);
  if (traffic::g_active) traffic::copied(d, s, n, -1, "", function);
  if (d + n <= s || s + n <= d) copy_bytes(d, s, n);
  else std::memmove(d, s, n);
}
void do_memget(const char* function, void* dst, const upc::sptr<void>& src, std::size_t n) {
  require_upc_thread(function);
  if (n == 0) return;
  private_bytes(function, "dst", dst, n);
  const char* from = shared_bytes(function, "src", src, n);
  if (traffic::g_active) traffic::copied(dst, from, n, -1, "", function);
  copy_bytes(dst, from, n);
}
void do_memput(const char* function, const upc::sptr<void>& dst, const void* src, std::size_t n) {
  require_upc_thread(function);
  if (n == 0) return;
  private_bytes(function, "src", src, n);
  char* to = shared_bytes(function, "dst", dst, n);
  if (traffic::g_active) traffic::copied(to, src, n, -1, "", function);
  copy_bytes(to, src, n);
}
void do_memset(const char* function, const upc::sptr<void>& dst, int c, std::size_t n) {
  require_upc_thread(function);
  if (n == 0) return;
  std::memset(shared_bytes(function, "dst", dst, n), c, n);
}

upc_handle_t issue() {
  const auto me = static_cast<std::uint64_t>(upc::mythread());
  nb_table& t = tl_nb;
  const std::uint64_t serial = t.next_serial++;
  t.outstanding.insert(serial);
  return ((me + 1) << serial_bits) | serial;
}

// Retires `h` for the calling thread, or fails saying why it cannot.
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
  if (t.outstanding.erase(serial) == 0)
    fail(function, "handle " + handle_text(h) + " was already synced (each handle may be completed only once)");
}

}  // namespace

upc_handle_t upc_memcpy_nb(upc::sptr<void> dst, upc::sptr<void> src, std::size_t n) {
  do_memcpy("upc_memcpy_nb", dst, src, n);
  return issue();
}
upc_handle_t upc_memget_nb(void* dst, upc::sptr<void> src, std::size_t n) {
  do_memget("upc_memget_nb", dst, src, n);
  return issue();
}
upc_handle_t upc_memput_nb(upc::sptr<void> dst, const void* src, std::size_t n) {
  do_memput("upc_memput_nb", dst, src, n);
  return issue();
}
upc_handle_t upc_memset_nb(upc::sptr<void> dst, int c, std::size_t n) {
  do_memset("upc_memset_nb", dst, c, n);
  return issue();
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

// Implicit handles: nothing to track, every operation is already complete.
void upc_memcpy_nbi(upc::sptr<void> dst, upc::sptr<void> src, std::size_t n) { do_memcpy("upc_memcpy_nbi", dst, src, n); }
void upc_memget_nbi(void* dst, upc::sptr<void> src, std::size_t n) { do_memget("upc_memget_nbi", dst, src, n); }
void upc_memput_nbi(upc::sptr<void> dst, const void* src, std::size_t n) { do_memput("upc_memput_nbi", dst, src, n); }
void upc_memset_nbi(upc::sptr<void> dst, int c, std::size_t n) { do_memset("upc_memset_nbi", dst, c, n); }

void upc_synci(void) { require_upc_thread("upc_synci"); }  // only a UPC thread may call it
int upc_synci_attempt(void) {
  require_upc_thread("upc_synci_attempt");
  return 1;
}
