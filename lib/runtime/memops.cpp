// upc_memcpy / upc_memget / upc_memput / upc_memset: one memcpy straight into or
// out of the owning partition (single copy; the processes backend maps the segment
// at the same address in every process). Each shared side must stay inside one
// partition, as for shared [] char. Under --check=races a copy's shared side is
// an access of all its bytes, at the caller's place (race_range.hpp).
#include <cstring>
#include <string>

#include "call_site.hpp"
#include "control.hpp"
#include "copy_bytes.hpp"
#include "heap_index.hpp"
#include "locality.hpp"
#include "race_range.hpp"
#include "traffic.hpp"
#include "upc/memops.hpp"

namespace upc {

namespace {
void check_object(const char* function, const char* arg, const shared_address& a, std::size_t n);
char* resolve(const char* function, const char* arg, const sptr<void>& p, std::size_t n) {
  const shared_address& a = p.address();
  if (p.is_null()) detail::fail(function, std::string(arg) + " is a null pointer-to-shared");
  if (a.thread >= static_cast<std::uint32_t>(detail::g_threads))
    detail::fail(function, std::string(arg) + " (thread " + std::to_string(a.thread) + ", offset " + std::to_string(a.offset) +
                               ") names a thread that does not exist (THREADS is " + std::to_string(detail::g_threads) + ")");
  if (a.offset > detail::g_partition_bytes || n > detail::g_partition_bytes - a.offset)
    detail::fail(function, std::string(arg) + " (thread " + std::to_string(a.thread) + ", offset " + std::to_string(a.offset) +
                               ") plus " + std::to_string(n) + (n == 1 ? " byte" : " bytes") +
                               " runs past the end of that thread's shared heap (" + std::to_string(detail::g_partition_bytes) +
                               " bytes per thread)");
  if (detail::g_check) check_object(function, arg, a, n);
  return detail::raw_address(a);
}
// Under --check a shared side must also stay inside the part of one live object
// that its first byte's thread holds: a range that runs on into the next object,
// into free space, or (a classic mistake) past the end of that thread's block
// reads or writes bytes that are not the ones the program means.
void check_object(const char* function, const char* arg, const shared_address& a, std::size_t n) {
  const std::optional<detail::allocation> obj = detail::find_allocation(a.thread, a.offset);
  const std::string where = std::string(arg) + " (thread " + std::to_string(a.thread) + ", offset " + std::to_string(a.offset) + ")";
  if (!obj) detail::fail(function, where + " is not inside any live shared object (freed or never allocated)");
  if (obj->contains(a, n)) return;
  const std::uint64_t left = obj->bytes_from(a);
  detail::fail(function, where + " plus " + std::to_string(n) + (n == 1 ? " byte" : " bytes") + " runs past the end of " +
                             obj->describe() + " on thread " + std::to_string(a.thread) + " (" + std::to_string(left) +
                             (left == 1 ? " byte" : " bytes") +
                             " of it from there): a upc_mem* copy reaches only the part of an object that one thread "
                             "holds; copy each thread's block separately");
}
void check_local(const char* function, const char* arg, const void* p, std::size_t n) {
  if (!p && n) detail::fail(function, std::string(arg) + " is a null pointer");
}
}  // namespace

void memcpy(sptr<void> dst, sptr<void> src, std::size_t n) {
  detail::require_upc_thread("upc_memcpy");
  if (n == 0) return;
  char* d = resolve("upc_memcpy", "dst", dst, n);
  char* s = resolve("upc_memcpy", "src", src, n);
  detail::note_range(s, n, detail::access_read, __builtin_return_address(0));
  detail::note_range(d, n, detail::access_write, __builtin_return_address(0));
  // Overlap (possible only within one partition) is allowed, as with memmove.
  if (detail::traffic::g_active) detail::traffic::copied(d, s, n, -1, "", "upc_memcpy");
  if (detail::g_locality) detail::locality::note_copy(dst.address().thread, src.address().thread, n,
                                                      __builtin_return_address(0));
  if (d + n <= s || s + n <= d) detail::copy_bytes(d, s, n);
  else std::memmove(d, s, n);
}

void memget(void* dst, sptr<void> src, std::size_t n) {
  detail::require_upc_thread("upc_memget");
  if (n == 0) return;
  check_local("upc_memget", "dst", dst, n);
  const char* from = resolve("upc_memget", "src", src, n);
  detail::note_range(from, n, detail::access_read, __builtin_return_address(0));
  detail::note_private_range(dst, n, detail::access_write, __builtin_return_address(0));
  if (detail::traffic::g_active) detail::traffic::copied(dst, from, n, -1, "", "upc_memget");
  if (detail::g_locality) detail::locality::note_copy(src.address().thread, n, __builtin_return_address(0));
  detail::copy_bytes(dst, from, n);
}

void memput(sptr<void> dst, const void* src, std::size_t n) {
  detail::require_upc_thread("upc_memput");
  if (n == 0) return;
  check_local("upc_memput", "src", src, n);
  char* to = resolve("upc_memput", "dst", dst, n);
  detail::note_range(to, n, detail::access_write, __builtin_return_address(0));
  detail::note_private_range(src, n, detail::access_read, __builtin_return_address(0));
  if (detail::traffic::g_active) detail::traffic::copied(to, src, n, -1, "", "upc_memput");
  if (detail::g_locality) detail::locality::note_copy(dst.address().thread, n, __builtin_return_address(0));
  detail::copy_bytes(to, src, n);
}

void memset(sptr<void> dst, int c, std::size_t n) {
  detail::require_upc_thread("upc_memset");
  if (n == 0) return;
  char* to = resolve("upc_memset", "dst", dst, n);
  detail::note_range(to, n, detail::access_write, __builtin_return_address(0));
  if (detail::g_locality) detail::locality::note_copy(dst.address().thread, n, __builtin_return_address(0));
  std::memset(to, c, n);
}

}  // namespace upc
