// UPC 1.3 non-blocking transfers (<upc_nb.h>): data is right once synced, local
// and remote, with explicit and implicit handles, on both backends; the handle
// discipline (sync once, by the issuing thread, only issued handles) and bad
// arguments give clear errors.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "../support/spmd.hpp"

using spmd::contains;
using spmd::error_of;
using spmd::run_failing;
#include "upc_castable.h"
#include "upc_nb.h"

namespace {




constexpr std::size_t block = 1031;  // bytes per thread: odd on purpose

unsigned char pattern(int from, std::size_t i, int salt) {
  return static_cast<unsigned char>((from * 31 + static_cast<int>(i) * 7 + salt * 13) & 0xff);
}

std::vector<unsigned char> expected(int from, std::size_t n, int salt) {
  std::vector<unsigned char> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = pattern(from, i, salt);
  return v;
}

// Thread t's block of a upc_all_alloc(THREADS, block) array, as shared [] char.
upc::sptr<char, upc::indefinite> block_of(upc::sptr<void> arr, int t) {
  upc::shared_address a = arr.address();
  a.thread = static_cast<std::uint32_t>(t);
  return upc::sptr<char, upc::indefinite>(a);
}

void explicit_handles_body() {
  const int T = THREADS, me = MYTHREAD, right = (me + 1) % T, left = (me + T - 1) % T;
  upc::sptr<void> a = upc_all_alloc(T, block), b = upc_all_alloc(T, block);

  // memput_nb into the right neighbour's block, then sync.
  const std::vector<unsigned char> mine = expected(me, block, 1);
  upc_handle_t h = upc_memput_nb(block_of(a, right), mine.data(), block);
  SPMD_CHECK(h != UPC_COMPLETE_HANDLE);
  upc_sync(h);
  upc_barrier;

  // memget_nb of the own block (local) and of the right block (remote), synced in
  // the reverse order of issue, one by sync_attempt.
  std::vector<unsigned char> own(block), far(block);
  upc_handle_t h1 = upc_memget_nb(own.data(), block_of(a, me), block);
  upc_handle_t h2 = upc_memget_nb(far.data(), block_of(a, right), block);
  SPMD_CHECK(h1 != h2);
  SPMD_CHECK_EQ(upc_sync_attempt(h2), 1);
  upc_sync(h1);
  SPMD_CHECK(own == expected(left, block, 1));
  SPMD_CHECK(far == mine);

  // memcpy_nb shared -> shared: the block of right+1 (remote) into b's right block
  // at an odd offset, then memset_nb over a stretch of it.
  const std::size_t off = 5, n = block - 2 * off;
  upc_handle_t h3 = upc_memcpy_nb(block_of(b, right) + off, block_of(a, (me + 2) % T), n);
  upc_sync(h3);
  upc_handle_t h4 = upc_memset_nb(block_of(b, right) + off + 100, 0xA5, 77);
  for (int done = 0; !done;) done = upc_sync_attempt(h4);
  upc_barrier;
  // Check from the owner's side, through a local pointer.
  // The left neighbour copied a's block of thread me+1, which this thread wrote.
  const auto* got = static_cast<const unsigned char*>(upc_cast(block_of(b, me)));
  const std::vector<unsigned char> data = expected(me, block, 1);
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char want = (i >= 100 && i < 177) ? 0xA5 : data[i];
    if (got[off + i] != want)
      throw spmd::check_failed("byte " + std::to_string(off + i) + " of thread " + std::to_string(me) + "'s block is " +
                               std::to_string(got[off + i]) + ", expected " + std::to_string(want));
  }

  // Zero-length transfers still give handles that sync; the complete handle always syncs.
  upc_handle_t z = upc_memget_nb(nullptr, nullptr, 0);
  upc_sync(z);
  upc_sync(UPC_COMPLETE_HANDLE);
  SPMD_CHECK_EQ(upc_sync_attempt(UPC_COMPLETE_HANDLE), 1);

  // Many outstanding handles at once, synced in a scrambled order.
  std::vector<upc_handle_t> hs;
  std::vector<std::vector<unsigned char>> bufs(17, std::vector<unsigned char>(61));
  for (std::size_t i = 0; i < bufs.size(); ++i)
    hs.push_back(upc_memget_nb(bufs[i].data(), block_of(a, static_cast<int>(i) % T) + i, 61));
  for (std::size_t k = 0; k < hs.size(); ++k) upc_sync(hs[(k * 5) % hs.size()]);
  for (std::size_t i = 0; i < bufs.size(); ++i) {
    const int owner = static_cast<int>(i) % T;
    const std::vector<unsigned char> whole = expected((owner + T - 1) % T, block, 1);
    SPMD_CHECK(std::memcmp(bufs[i].data(), whole.data() + i, 61) == 0);
  }
  upc_barrier;
  upc_all_free(a);
  upc_all_free(b);
}

void implicit_handles_body() {
  const int T = THREADS, me = MYTHREAD, right = (me + 1) % T, left = (me + T - 1) % T;
  upc::sptr<void> a = upc_all_alloc(T, block), b = upc_all_alloc(T, block);
  SPMD_CHECK_EQ(upc_synci_attempt(), 1);  // nothing outstanding
  upc_synci();
  const std::vector<unsigned char> mine = expected(me, block, 2);
  upc_memput_nbi(block_of(a, right), mine.data(), block);
  upc_memset_nbi(block_of(b, right), 0x3C, block);
  upc_synci();
  upc_barrier;
  std::vector<unsigned char> own(block), copy(block);
  upc_memcpy_nbi(block_of(b, left) + 1, block_of(a, me), block - 1);  // remote <- local
  upc_memget_nbi(own.data(), block_of(a, me), block);
  for (int done = 0; !done;) done = upc_synci_attempt();
  SPMD_CHECK(own == expected(left, block, 2));
  upc_barrier;
  upc_memget_nbi(copy.data(), block_of(b, me), block);
  upc_synci();
  SPMD_CHECK_EQ(static_cast<int>(copy[0]), 0x3C);
  // b[me][1..] came from a's block of the right neighbour, which this thread wrote.
  const std::vector<unsigned char> from_right = expected(me, block, 2);
  SPMD_CHECK(std::memcmp(copy.data() + 1, from_right.data(), block - 1) == 0);
  // Implicit and explicit handles are independent.
  char c = 0;
  upc_handle_t h = upc_memget_nb(&c, block_of(b, me), 1);
  upc_synci();
  upc_sync(h);
  SPMD_CHECK_EQ(static_cast<int>(static_cast<unsigned char>(c)), 0x3C);
  upc_barrier;
  upc_all_free(a);
  upc_all_free(b);
}

}  // namespace

TEST_CASE("nb: explicit-handle transfers hold the right data once synced, local and remote, on both backends") {
  spmd::run_everywhere(explicit_handles_body, {1, 2, 3, 5, 8});
}

TEST_CASE("nb: implicit-handle transfers hold the right data after upc_synci, on both backends") {
  spmd::run_everywhere(implicit_handles_body, {1, 2, 4, 7});
}

TEST_CASE("nb: handles are synced once, by the thread that issued them") {
  spmd::run_ok(2, upc::backend_kind::threads, [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 64);
    upc::sptr<upc_handle_t> mailbox(upc_all_alloc(THREADS, sizeof(upc_handle_t)));
    const std::string me = " (thread " + std::to_string(MYTHREAD) + ")";
    char buf[8];
    upc_handle_t h = upc_memget_nb(buf, block_of(a, MYTHREAD), 8);
    upc_sync(h);
    SPMD_CHECK_ERROR(upc_sync(h), "upc_sync: handle 0x");
    SPMD_CHECK_ERROR(upc_sync(h), " was already synced (each handle may be completed only once)" + me);
    SPMD_CHECK_ERROR(upc_sync_attempt(h), "upc_sync_attempt: handle 0x");
    SPMD_CHECK_ERROR(upc_sync_attempt(h), "was already synced (each handle may be completed only once)" + me);
    upc_handle_t h2 = upc_memput_nb(block_of(a, MYTHREAD), buf, 8);
    SPMD_CHECK_EQ(upc_sync_attempt(h2), 1);
    SPMD_CHECK_ERROR(upc_sync(h2), "was already synced");
    // The next serial of this thread: never issued.
    SPMD_CHECK_ERROR(upc_sync(h2 + 1), "was never issued by this thread" + me);
    SPMD_CHECK_ERROR(upc_sync(h2 + 1000), "was never issued by this thread");
    // Values that are no handle at all.
    SPMD_CHECK_ERROR(upc_sync(12345), "upc_sync: handle 0x3039 is not a handle returned by upc_memcpy_nb, upc_memget_nb, "
                                      "upc_memput_nb or upc_memset_nb" + me);
    SPMD_CHECK_ERROR(upc_sync(~upc_handle_t{0}), "is not a handle returned by");
    // Another thread's handle.
    upc_handle_t theirs = upc_memset_nb(block_of(a, MYTHREAD), 0, 8);
    mailbox[MYTHREAD] = theirs;
    upc_barrier;
    const int other = 1 - MYTHREAD;
    const upc_handle_t foreign = mailbox[other];
    SPMD_CHECK_ERROR(upc_sync(foreign), "was issued by thread " + std::to_string(other) +
                                            "; only the thread that issued a handle may sync it" + me);
    upc_barrier;
    upc_sync(theirs);  // still outstanding for its owner
    upc_barrier;
    upc_all_free(mailbox);
    upc_all_free(a);
  });
}

TEST_CASE("nb: bad arguments name the non-blocking function, the argument and the thread") {
  spmd::run_ok(2, upc::backend_kind::threads, [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 64);
    const std::string me = " (thread " + std::to_string(MYTHREAD) + ")";
    const std::uint64_t end = upc::detail::g_partition_bytes;
    const upc::sptr<void> last10(upc::shared_address{end - 10, 1, 0});
    const upc::sptr<void> nowhere(upc::shared_address{64, 5, 0});
    char buf[16] = {};
    SPMD_CHECK_ERROR(upc_memget_nb(buf, nullptr, 4), "upc_memget_nb: src is a null pointer-to-shared" + me);
    SPMD_CHECK_ERROR(upc_memget_nb(nullptr, a, 4), "upc_memget_nb: dst is a null pointer" + me);
    SPMD_CHECK_ERROR(upc_memput_nb(a, nullptr, 4), "upc_memput_nb: src is a null pointer" + me);
    SPMD_CHECK_ERROR(upc_memput_nb(last10, buf, 11),
                     "upc_memput_nb: dst (thread 1, offset " + std::to_string(end - 10) +
                         ") plus 11 bytes runs past the end of that thread's shared heap (" + std::to_string(end) +
                         " bytes)" + me);
    SPMD_CHECK_ERROR(upc_memcpy_nb(a, last10, 16), "upc_memcpy_nb: src (thread 1, offset");
    SPMD_CHECK_ERROR(upc_memcpy_nb(nullptr, a, 16), "upc_memcpy_nb: dst is a null pointer-to-shared" + me);
    SPMD_CHECK_ERROR(upc_memset_nb(nowhere, 0, 1), "upc_memset_nb: dst has thread 5, but THREADS is 2" + me);
    SPMD_CHECK_ERROR(upc_memget_nbi(buf, last10, 12), "upc_memget_nbi: src (thread 1, offset");
    SPMD_CHECK_ERROR(upc_memput_nbi(nullptr, buf, 1), "upc_memput_nbi: dst is a null pointer-to-shared" + me);
    SPMD_CHECK_ERROR(upc_memcpy_nbi(a, nowhere, 1), "upc_memcpy_nbi: src has thread 5, but THREADS is 2" + me);
    SPMD_CHECK_ERROR(upc_memset_nbi(last10, 1, 100), "upc_memset_nbi: dst (thread 1");
    // Exactly up to the end is fine.
    upc_sync(upc_memget_nb(buf, last10, 10));
    upc_memget_nbi(buf, last10, 10);
    upc_synci();
    upc_barrier;
    upc_all_free(a);
  });
}

TEST_CASE("nb: syncing a handle twice stops the run with a report, on both backends") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(3, b)) continue;
    INFO("backend ", std::string(spmd::name(b)));
    upc::run_result r = spmd::run(spmd::options(3, b), [] {
      upc::sptr<void> a = upc_all_alloc(THREADS, 32);
      char buf[32];
      upc_handle_t h = upc_memget_nb(buf, a, 32);
      upc_sync(h);
      if (MYTHREAD == 1) upc_sync(h);
      upc_barrier;
    });
    CHECK(!r.ok());
    CHECK(r.failed_thread == 1);
    CHECK(contains(r.error, "upc_sync: handle 0x"));
    CHECK(contains(r.error, "was already synced (each handle may be completed only once) (thread 1)"));
  }
}
