// Bad input to the extended collectives: every argument Appendix A constrains
// gives a message naming the function, the argument, its value and the thread,
// and the run stops cleanly on both backends (never a hang or garbage).
#include <functional>
#include <string>
#include <vector>

#include "../support/spmd.hpp"
#include "teamutil.h"
#include "upc_collective_ext.h"

namespace {

using IntArray = upc::sptr<int, 1, upc::relaxed>;
using SizeArray = upc::sptr<size_t, 1, upc::relaxed>;

// Runs body on THREADS T (both backends); the run must fail with every piece of `want`.
void fails_with(int T, const std::vector<std::string>& want, const std::function<void()>& body, bool check = false) {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(T, b)) continue;
    upc::launch_options o = spmd::options(T, b);
    o.check = check;
    o.timeout_seconds = 60;
    const upc::run_result r = upc::run(o, body);
    INFO("backend=", spmd::name(b), " THREADS=", T, " error: ", r.error);
    CHECK_FALSE(r.ok());
    for (const std::string& w : want) {
      INFO("missing: ", w);
      CHECK(r.error.find(w) != std::string::npos);
    }
  }
}

template <class V>
IntArray ints(const std::vector<V>& v) {
  IntArray p(upc_all_alloc(v.size(), sizeof(int)));
  if (MYTHREAD == 0)
    for (std::size_t i = 0; i < v.size(); ++i) p[static_cast<std::ptrdiff_t>(i)] = static_cast<int>(v[i]);
  upc_barrier;
  return p;
}
SizeArray sizes(const std::vector<size_t>& v) {
  SizeArray p(upc_all_alloc(v.size(), sizeof(size_t)));
  if (MYTHREAD == 0)
    for (std::size_t i = 0; i < v.size(); ++i) p[static_cast<std::ptrdiff_t>(i)] = v[i];
  upc_barrier;
  return p;
}

TEST_CASE("extended collectives, bad input: displacements, counts, blocks and overlaps") {
  // a displacement that names another thread's block
  fails_with(2, {"upc_all_broadcast_v", "ddisp[1] = 3", "thread 0's block", "thread 1"}, [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 10 * sizeof(int)), b = upc_all_alloc(THREADS, 10 * sizeof(int));
    IntArray dd = ints(std::vector<int>{0, 3});
    upc_all_broadcast_v(b, a, dd, 2, 10, sizeof(int), 0);
  });
  // a chunk that runs past the end of its block (instead of being truncated)
  fails_with(2, {"upc_all_scatter_v", "ddisp[1] = 18", "run past its end", "dst_blk 10"}, [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 10 * sizeof(int)), b = upc_all_alloc(THREADS, 10 * sizeof(int));
    IntArray dd = ints(std::vector<int>{0, 18});
    SizeArray n = sizes({2, 3});
    upc_all_scatter_v(b, a, dd, n, 10, 10, sizeof(int), 0);
  });
  // negative displacement, and a negative count converted to size_t
  fails_with(2, {"upc_all_gather_v", "sdisp[0] = -1 is negative"}, [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 10 * sizeof(int)), b = upc_all_alloc(THREADS, 10 * sizeof(int));
    IntArray sd = ints(std::vector<int>{-1, 10});
    SizeArray n = sizes({1, 1});
    upc_all_gather_v(b, a, sd, n, 10, 10, sizeof(int), 0);
  });
  fails_with(2, {"upc_all_gather_v", "nelems[1]", "negative value converted to size_t"}, [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 10 * sizeof(int)), b = upc_all_alloc(THREADS, 10 * sizeof(int));
    IntArray sd = ints(std::vector<int>{0, 10});
    SizeArray n = sizes({1, static_cast<size_t>(-2)});
    upc_all_gather_v(b, a, sd, n, 10, 10, sizeof(int), 0);
  });
  // two chunks writing the same destination bytes
  fails_with(2, {"upc_all_vector_copy", "chunks 0 and 1 write the same bytes", "must not overlap"}, [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 10 * sizeof(int)), b = upc_all_alloc(THREADS, 10 * sizeof(int));
    IntArray sd = ints(std::vector<int>{0, 12}), dd = ints(std::vector<int>{2, 4});
    SizeArray n = sizes({3, 3});
    upc_all_vector_copy(b, a, dd, sd, n, 2, 10, 10, sizeof(int), 0);
  });
  // prefix_v chunks that write the same destination elements (the appendix's A.2.8 example)
  fails_with(1, {"upc_all_prefix_reduceI_v", "chunks 0 and 1 write the same destination elements"}, [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 300 * sizeof(int)), b = upc_all_alloc(THREADS, 300 * sizeof(int));
    IntArray sd = ints(std::vector<int>{15, 115}), dd = ints(std::vector<int>{15, 115});
    SizeArray n = sizes({110, 110});
    upc_all_prefix_reduceI_v(b, a, UPC_ADD, dd, sd, n, 2, 300, 300, nullptr, 0);
  });
  // out of place, a source that is also a destination
  fails_with(2, {"upc_all_vector_copy", "overlap", "distinct"}, [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 10 * sizeof(int));
    IntArray sd = ints(std::vector<int>{0}), dd = ints(std::vector<int>{1});
    SizeArray n = sizes({3});
    upc_all_vector_copy(a, a, dd, sd, n, 1, 10, 10, sizeof(int), 0);
  });
  // a chunk across a block boundary of vector_copy's source
  fails_with(1, {"upc_all_vector_copy", "sdisp[0] = 8", "stay inside one block"}, [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 10 * sizeof(int)), b = upc_all_alloc(THREADS, 10 * sizeof(int));
    IntArray sd = ints(std::vector<int>{8}), dd = ints(std::vector<int>{0});
    SizeArray n = sizes({4});
    upc_all_vector_copy(b, a, dd, sd, n, 1, 10, 10, sizeof(int), 0);
  });
  // perm that is not a permutation
  fails_with(3, {"upc_all_permute_v", "perm is not a permutation", "perm[2] = 0 repeats perm[0]"}, [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 8), b = upc_all_alloc(THREADS, 8);
    IntArray perm = ints(std::vector<int>{0, 1, 0}), disp = ints(std::vector<int>{0, 8, 16});
    SizeArray n = sizes({1, 1, 1});
    upc_all_permute_v(b, a, perm, disp, n, 8, 8, 1, 0);
  });
}

TEST_CASE("extended collectives, bad input: roots, sizes, pointers, ops") {
  fails_with(2, {"upc_all_broadcast_rooted_in_place", "root is 5", "0..1"}, [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 8);
    upc_all_broadcast_rooted_in_place(a, 8, 5, 0);
  });
  fails_with(2, {"upc_all_scatter_rooted_in_place", "buffer has affinity to thread 1"}, [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 16);
    upc_all_scatter_rooted_in_place(upc::sptr<void>(upc::sptr<char>(a) + 1), 8, 0, 0);
  });
  fails_with(2, {"upc_all_exchange_in_place", "nbytes must be > 0"}, [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 16);
    upc_all_exchange_in_place(a, 0, 0);
  });
  fails_with(2, {"upc_all_gather_priv", "dst is a null pointer"}, [] {
    char buf[8] = {};
    upc_all_gather_priv(nullptr, buf, 4, 0);
  });
  fails_with(2, {"upc_all_broadcast_get", "src is a null pointer-to-shared"}, [] {
    char buf[8] = {};
    upc_all_broadcast_get(buf, nullptr, 4, 0);
  });
  fails_with(2, {"upc_all_exchange_priv", "sync_mode combines more than one of UPC_IN_ALLSYNC"}, [] {
    char a[16] = {}, b[16] = {};
    upc_all_exchange_priv(b, a, 4, UPC_IN_ALLSYNC | UPC_IN_NOSYNC);
  });
  fails_with(2, {"upc_all_reduceD_all_in_place", "UPC_AND is a bitwise operation and needs an integer type"}, [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, sizeof(double));
    upc_all_reduceD_all_in_place(a, UPC_AND, 2, 1, nullptr, 0);
  });
  fails_with(2, {"upc_all_reduceI_v", "UPC_FUNC needs func"}, [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, sizeof(int));
    IntArray sd = ints(std::vector<int>{0});
    SizeArray n = sizes({1});
    upc_all_reduceI_v(a, a, UPC_FUNC, sd, n, 1, 1, nullptr, 0);
  });
  fails_with(2, {"upc_all_reduceI_v", "cyclic order", "chunk 1"}, [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 4 * sizeof(int)), r = upc_all_alloc(THREADS, sizeof(int));
    IntArray sd = ints(std::vector<int>{0, 1});  // both on thread 0 (src_blk 4)
    SizeArray n = sizes({1, 1});
    upc_all_reduceI_v(r, a, UPC_ADD, sd, n, 2 * UPC_EXTCOLLS_VV_CHUNKS, 4, nullptr, 0);
  });
}

// &A[k*N] for an array of one row: the non-rooted in-place forms take thread
// k as the root and look for thread 0's block a row further on. The message
// names the _rooted form the user meant (issue 27.10).
TEST_CASE("extended collectives: in place from a non-zero thread's block names the _rooted form (issue 27.10)") {
  fails_with(3, {"upc_all_broadcast_in_place: buffer points to thread 1's block (the call at ", "test_ext_errors.cpp:",
                 "), so thread 1 is the root and thread 0's block",
                 "outside the object", "the shared_array<int, 4> of 12 elements declared at ",
                 "to upc_all_broadcast_rooted_in_place(buffer, nbytes, 1, sync_mode)"},
             [] {
               upc::shared_array<int, 4> A(upc::per_thread(4));
               upc_all_broadcast_in_place(&A[4], 4 * sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
             });
  fails_with(3, {"upc_all_scatter_in_place: buffer points to thread 2's block", "the blocks of threads 0..1 are",
                 "upc_all_scatter_rooted_in_place(buffer, nbytes, 2, sync_mode)"},
             [] {
               upc::shared_array<char, 24> A(upc::per_thread(24));
               upc_all_scatter_in_place(&A[48], 8, 0);
             });
  // Two rows: the blocks of threads before k are in the array, so the call is good.
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(3, b)) continue;
    const upc::run_result r = upc::run(spmd::options(3, b), [] {
      upc::shared_array<int, 4> A(upc::per_thread(8));
      if (MYTHREAD == 1)
        for (int i = 0; i < 4; ++i) A[4 + i] = 10 + i;
      upc_all_broadcast_in_place(&A[4], 4 * sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
      // thread t's block is the ((t - 1) mod 3)-th block from &A[4]
      for (int t = 0; t < THREADS; ++t)
        for (int i = 0; i < 4; ++i) SPMD_CHECK_EQ(static_cast<int>(A[4 + 4 * ((t + 2) % 3) + i]), 10 + i);
    });
    INFO("backend=", spmd::name(b), " error: ", r.error);
    CHECK(r.ok());
  }
}

TEST_CASE("extended collectives, bad input: teams") {
  // a thread that is not a member calls a team collective
  fails_with(2, {"upc_all_broadcast_team", "thread 1 is not a member of team t", "members: 0"}, [] {
    team t;
    init(&t);
    if (MYTHREAD == 0) insert(0, t);
    upc_barrier;
    upc::sptr<void> a = upc_all_alloc(THREADS, 8), b = upc_all_alloc(THREADS, 8);
    upc_all_broadcast_team(b, a, 8, t, 0);
  });
  // nbytes that the team's members cannot share evenly
  fails_with(3, {"upc_all_scatter_team", "nbytes 10 is not a multiple of the team's 3 members"}, [] {
    team t;
    init(&t);
    if (MYTHREAD == 0)
      for (int i = 0; i < THREADS; ++i) insert(i, t);
    upc_barrier;
    upc::sptr<void> a = upc_all_alloc(THREADS, 30), b = upc_all_alloc(THREADS, 30);
    upc_all_scatter_team(b, a, 10, t, 0);
  });
  // members cannot change once the team is in use
  fails_with(2, {"insert", "team t is in use"}, [] {
    team t;
    init(&t);
    if (MYTHREAD == 0) insert(0, t);
    upc_barrier;
    if (MYTHREAD == 0) {
      teamBarrier(t);
      insert(1, t);
    }
  });
  // a handle init() never made
  fails_with(1, {"numThreads", "t is not a team made by init()"}, [] {
    team t;
    (void)numThreads(t);
  });
  // a team whose members own no element of the array
  fails_with(2, {"upc_all_reduceI_team", "no element of src has affinity to a member"}, [] {
    team t;
    init(&t);
    if (MYTHREAD == 0) insert(1, t);
    upc_barrier;
    upc::sptr<void> a = upc_all_alloc(1, 4 * sizeof(int));  // every element on thread 0
    upc::sptr<void> r = upc_all_alloc(THREADS, sizeof(int));
    if (MYTHREAD == 1) upc_all_reduceI_team(r, a, UPC_ADD, 4, 0, nullptr, t, 0);
  });
}

TEST_CASE("extended collectives, bad input: single-valued arguments that differ (--check and without)") {
  // caught without --check: the call records compare nbytes where the call synchronises
  fails_with(2, {"upc_all_broadcast_in_place", "nbytes"}, [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 16);
    upc_all_broadcast_in_place(a, MYTHREAD == 0 ? 8 : 16, 0);
  });
  // --check: typesize and dst_blk too
  fails_with(2, {"upc_all_broadcast_v", "typesize"}, [] {
    upc::sptr<void> a = upc_all_alloc(THREADS, 64), b = upc_all_alloc(THREADS, 64);
    IntArray dd = ints(std::vector<int>{0, 16});
    upc_all_broadcast_v(b, a, dd, 1, 16, MYTHREAD == 0 ? 4 : 2, 0);
  }, true);
}

}  // namespace
