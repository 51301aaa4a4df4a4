// The example programs of seed 003's Appendix A, in upcemu's spelling
// (shared [B] T A[N] is upc::shared_array<T, B>), each asserting what the
// appendix says the example does. Where an example passes its arguments in an
// order other than its synopsis, or indexes outside the blocks its text
// describes, the call follows the synopsis and the text
// (docs/extended-collectives.md, "Semantics where Appendix A is silent").
// The examples are written for 4 threads (exchange_v: THREADS = NELEMS/2 = 5).
#include <string>
#include <vector>

#include "../support/spmd.hpp"
#include "teamutil.h"
#include "upc_collective_ext.h"

namespace {

constexpr int NELEMS = 10;
constexpr upc_flag_t SYNC = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;

void run(int T, const std::function<void()>& body) {
  for (upc::backend_kind b : spmd::backends) spmd::run_ok(T, b, body);
}

TEST_CASE("Appendix A examples: in place (A.1.1 - A.1.7)") {
  run(4, [] {
    const int T = THREADS;
    {  // A.1.1: thread 0's block copied to every block, then thread 1's
      upc::shared_array<int, NELEMS> A{upc::per_thread(NELEMS)};
      for (int i = MYTHREAD * NELEMS; i < (MYTHREAD + 1) * NELEMS; i++) A[i] = i;
      upc_all_broadcast_in_place(A, NELEMS * sizeof(int), SYNC);
      for (int i = 0; i < NELEMS * T; ++i) SPMD_CHECK_EQ(A[i].get(), i % NELEMS);
      upc_barrier;
      for (int i = MYTHREAD * NELEMS; i < (MYTHREAD + 1) * NELEMS; i++) A[i] = i;
      upc_all_broadcast_rooted_in_place(A, NELEMS * sizeof(int), 1, SYNC);
      for (int i = 0; i < NELEMS * T; ++i) SPMD_CHECK_EQ(A[i].get(), NELEMS + i % NELEMS);
    }
    {  // A.1.2 - A.1.5: shared [NELEMS*THREADS] int A[NELEMS*THREADS*THREADS]
      const int row = NELEMS * T;
      auto fresh = [&](upc::shared_array<int, upc::dynamic_block>& A) {
        for (int i = MYTHREAD * row; i < (MYTHREAD + 1) * row; i++) A[i] = i;
        upc_barrier;
      };
      upc::shared_array<int, upc::dynamic_block> A(static_cast<std::size_t>(row * T), upc::block(static_cast<std::size_t>(row)));
      // scatter: piece t of thread 0's block to thread t's block, piece t
      fresh(A);
      upc_all_scatter_in_place(A, NELEMS * sizeof(int), SYNC);
      for (int t = 0; t < T; ++t)
        for (int k = 0; k < NELEMS; ++k) SPMD_CHECK_EQ(A[t * row + t * NELEMS + k].get(), t * NELEMS + k);
      upc_barrier;
      fresh(A);
      upc_all_scatter_rooted_in_place(A, NELEMS * sizeof(int), 1, SYNC);  // thread 1's block scattered
      for (int t = 0; t < T; ++t)
        for (int k = 0; k < NELEMS; ++k) SPMD_CHECK_EQ(A[t * row + t * NELEMS + k].get(), row + t * NELEMS + k);
      upc_barrier;
      // gather: piece t of thread t's block to thread 0's block (then thread 1's)
      fresh(A);
      upc_all_gather_in_place(A, NELEMS * sizeof(int), SYNC);
      for (int t = 0; t < T; ++t)
        for (int k = 0; k < NELEMS; ++k) SPMD_CHECK_EQ(A[t * NELEMS + k].get(), t * row + t * NELEMS + k);
      upc_barrier;
      fresh(A);
      upc_all_gather_rooted_in_place(A, NELEMS * sizeof(int), 1, SYNC);
      for (int t = 0; t < T; ++t)
        for (int k = 0; k < NELEMS; ++k) SPMD_CHECK_EQ(A[row + t * NELEMS + k].get(), t * row + t * NELEMS + k);
      upc_barrier;
      // gather_all: piece t of thread t's block to piece t of every block
      fresh(A);
      upc_all_gather_all_in_place(A, NELEMS * sizeof(int), SYNC);
      for (int u = 0; u < T; ++u)
        for (int t = 0; t < T; ++t)
          for (int k = 0; k < NELEMS; ++k) SPMD_CHECK_EQ(A[u * row + t * NELEMS + k].get(), t * row + t * NELEMS + k);
      upc_barrier;
      // exchange: piece j of thread i's block to piece i of thread j's block
      fresh(A);
      upc_all_exchange_in_place(A, NELEMS * sizeof(int), SYNC);
      for (int j = 0; j < T; ++j)
        for (int i = 0; i < T; ++i)
          for (int k = 0; k < NELEMS; ++k) SPMD_CHECK_EQ(A[j * row + i * NELEMS + k].get(), i * row + j * NELEMS + k);
    }
    {  // A.1.6: blocks permuted in place, perm = {3, 2, 0, 1}
      upc::shared_array<int, NELEMS> A{upc::per_thread(NELEMS)};
      upc::shared_array<int> perm{upc::per_thread(1)};
      for (int i = MYTHREAD * NELEMS; i < (MYTHREAD + 1) * NELEMS; i++) A[i] = i;
      const int p[4] = {3, 2, 0, 1};
      perm[MYTHREAD] = p[MYTHREAD];
      upc_barrier;
      upc_all_permute_in_place(A, perm, NELEMS * sizeof(int), SYNC);
      for (int i = 0; i < T; ++i)
        for (int k = 0; k < NELEMS; ++k) SPMD_CHECK_EQ(A[p[i] * NELEMS + k].get(), i * NELEMS + k);
    }
    {  // A.1.7 (NELEMS 1000): sum into thread 0's element; [1000..1999] into thread 1's; first 1000 to all; prefix sums
      constexpr int N = 1000;
      upc::shared_array<int, N> A{upc::per_thread(N)};
      auto fresh = [&] {
        for (int i = MYTHREAD * N; i < (MYTHREAD + 1) * N; i++) A[i] = i;
        upc_barrier;
      };
      fresh();
      upc_all_reduceI_in_place(A, UPC_ADD, N * T, N, nullptr, SYNC);
      SPMD_CHECK_EQ(A[0].get(), (N * T - 1) * N * T / 2);
      upc_barrier;
      fresh();
      // the sum of A[1000..1999] (thread 1's block) to thread 1's first element: the
      // appendix's call passes nelems NELEMS and blk_size THREADS, which is another array;
      // with the block size of A (N) and nelems 2N the root's first element is A[N]
      upc_all_reduceI_rooted_in_place(A, UPC_ADD, 2 * N, N, 1, nullptr, SYNC);
      SPMD_CHECK_EQ(A[N].get(), (2 * N - 1) * 2 * N / 2);
      upc_barrier;
      fresh();
      upc_all_reduceI_all_in_place(A, UPC_ADD, N, N, nullptr, SYNC);  // the first 1000 elements, to all
      for (int t = 0; t < T && t * N < N; ++t) SPMD_CHECK_EQ(A[t * N].get(), (N - 1) * N / 2);
      upc_barrier;
      fresh();
      upc_all_prefix_reduceI_in_place(A, UPC_ADD, N * T, N, nullptr, SYNC);
      for (int i = 0; i < N * T; i += 97) SPMD_CHECK_EQ(A[i].get(), i * (i + 1) / 2);
    }
    {  // Listing 3.3: the maximum of every thread's time, in place
      upc::shared_array<double> times{upc::per_thread(1)};
      times[MYTHREAD] = 1.5 * MYTHREAD;
      upc_barrier;
      upc_all_reduceD_all_in_place(times, UPC_MAX, T, 1, nullptr, SYNC);
      for (int t = 0; t < T; ++t) SPMD_CHECK_EQ(times[t].get(), 1.5 * (T - 1));
    }
  });
}

TEST_CASE("Appendix A examples: vector variants (A.2.1 - A.2.8)") {
  run(4, [] {
    const int T = THREADS;
    upc::shared_array<int, NELEMS> A{upc::per_thread(NELEMS)}, B{upc::per_thread(NELEMS)};
    upc::shared_array<int> ddisp{upc::per_thread(1)}, sdisp{upc::per_thread(1)};
    upc::shared_array<size_t> nelems{upc::per_thread(1)};
    auto fresh = [&] {
      for (int i = MYTHREAD * NELEMS; i < (MYTHREAD + 1) * NELEMS; i++) {
        A[i] = i;
        B[i] = -1;
      }
      upc_barrier;
    };
    // A.2.1: three elements from A[NELEMS+1] to B at ddisp[t] = t*NELEMS + t % 5
    fresh();
    ddisp[MYTHREAD] = MYTHREAD * NELEMS + (MYTHREAD % (NELEMS / 2));
    upc_barrier;
    upc_all_broadcast_v(B, &A[NELEMS + 1], ddisp, 3, NELEMS, sizeof(int), SYNC);
    for (int t = 0; t < T; ++t)
      for (int k = 0; k < 3; ++k) SPMD_CHECK_EQ(B[t * NELEMS + t % 5 + k].get(), NELEMS + 1 + k);
    upc_barrier;
    // A.2.2: thread 1's block scattered: nelems[t] = t % 5 + 1. The appendix starts at
    // A[NELEMS+1], but with 4 threads the chunks (1+2+3+4 = 10 elements) would then run
    // past thread 1's block, which upcemu refuses; we start at A[NELEMS]
    fresh();
    nelems[MYTHREAD] = static_cast<size_t>(MYTHREAD % (NELEMS / 2) + 1);
    upc_barrier;
    upc_all_scatter_v(B, &A[NELEMS], ddisp, nelems, NELEMS, NELEMS, sizeof(int), SYNC);
    int at = NELEMS;
    for (int t = 0; t < T; ++t)
      for (int k = 0; k < t % 5 + 1; ++k) SPMD_CHECK_EQ(B[t * NELEMS + t % 5 + k].get(), at++);
    upc_barrier;
    // A.2.3: the selected elements of A gathered into thread 1's block of B (the
    // appendix's call lists nelems after the block sizes, where the synopsis has it
    // before them, and starts at B[NELEMS+1], where 10 elements overrun the block)
    fresh();
    sdisp[MYTHREAD] = MYTHREAD * NELEMS + (MYTHREAD % (NELEMS / 2));
    upc_barrier;
    upc_all_gather_v(&B[NELEMS], A, sdisp, nelems, NELEMS, NELEMS, sizeof(int), SYNC);
    at = NELEMS;
    for (int t = 0; t < T; ++t)
      for (int k = 0; k < t % 5 + 1; ++k) SPMD_CHECK_EQ(B[at++].get(), t * NELEMS + t % 5 + k);
    upc_barrier;
    // A.2.4: everyone gathers them in its block (the appendix: from the second
    // position, where the 10 elements of 4 threads overrun the block of 10)
    fresh();
    ddisp[MYTHREAD] = MYTHREAD * NELEMS;
    upc_barrier;
    upc_all_gather_all_v(B, A, ddisp, sdisp, nelems, NELEMS, NELEMS, sizeof(int), SYNC);
    for (int j = 0; j < T; ++j) {
      int pos = j * NELEMS;
      for (int t = 0; t < T; ++t)
        for (int k = 0; k < t % 5 + 1; ++k) SPMD_CHECK_EQ(B[pos++].get(), t * NELEMS + t % 5 + k);
    }
    upc_barrier;
    // A.2.6: four 2-element chunks permuted by {3, 2, 0, 1}; disp[i] is an index in
    // thread i's block (the appendix's i*2 points into thread 0's)
    fresh();
    upc::shared_array<int> perm{upc::per_thread(1)}, disp{upc::per_thread(1)};
    const int p[4] = {3, 2, 0, 1};
    perm[MYTHREAD] = p[MYTHREAD];
    disp[MYTHREAD] = MYTHREAD * NELEMS + MYTHREAD * 2;
    nelems[MYTHREAD] = 2;
    upc_barrier;
    upc_all_permute_v(B, A, perm, disp, nelems, NELEMS, NELEMS, sizeof(int), SYNC);
    for (int i = 0; i < T; ++i)
      for (int k = 0; k < 2; ++k) SPMD_CHECK_EQ(B[p[i] * NELEMS + i * 2 + k].get(), i * NELEMS + i * 2 + k);
    upc_barrier;
  });
  run(4, [] {  // A.2.7 (NELEMS 1000, blocks of 1000): four 110-element chunks from i*100+15 to i*200
    constexpr int N = 1000, NCHUNKS = 4;
    upc::shared_array<int, N> A{upc::per_thread(N)}, B{upc::per_thread(N)};
    upc::shared_array<int> sdisp(NCHUNKS), ddisp(NCHUNKS);
    upc::shared_array<size_t> nelems(NCHUNKS);
    for (int i = MYTHREAD * N; i < (MYTHREAD + 1) * N; i++) {
      A[i] = i;
      B[i] = -1;
    }
    if (MYTHREAD == 0)
      for (int i = 0; i < NCHUNKS; i++) {
        sdisp[i] = i * 100 + 15;
        ddisp[i] = i * 200;
        nelems[i] = 110;
      }
    upc_barrier;
    upc_all_vector_copy(B, A, ddisp, sdisp, nelems, NCHUNKS, N, N, sizeof(int), SYNC);
    for (int i = 0; i < NCHUNKS; ++i)
      for (int k = 0; k < 110; ++k) SPMD_CHECK_EQ(B[i * 200 + k].get(), i * 100 + 15 + k);
    SPMD_CHECK_EQ(B[110].get(), -1);
    // Listing 3.5: chunks {3,6,9,12} x {1,2,1,1} of a blocks-of-4 array, cyclic order
    upc::shared_array<int, 4> src{upc::per_thread(4)};
    upc::shared_array<int> dst{upc::per_thread(1)};
    for (int i = MYTHREAD * 4; i < (MYTHREAD + 1) * 4; i++) src[i] = i;
    upc::shared_array<int> sd(4);
    upc::shared_array<size_t> ne(4);
    if (MYTHREAD == 0) {
      const int d[4] = {3, 6, 9, 12};
      const size_t n[4] = {1, 2, 1, 1};
      for (int i = 0; i < 4; ++i) {
        sd[i] = d[i];
        ne[i] = n[i];
      }
    }
    upc_barrier;
    // chunk i must be thread i's: 3 is thread 0's, 6-7 thread 1's, 9 thread 2's, 12 thread 3's
    upc_all_reduceI_v(&dst[2], src, UPC_ADD, sd, ne, UPC_EXTCOLLS_VV_CHUNKS * 4, 4, nullptr, SYNC);
    SPMD_CHECK_EQ(dst[2].get(), 3 + 6 + 7 + 9 + 12);
  });
  run(5, [] {  // A.2.5, THREADS = NELEMS/2: chunks of one or two elements; exchange[i*T+j] in thread i's block
    const int T = THREADS;
    upc::shared_array<int, NELEMS> A{upc::per_thread(NELEMS)}, B{upc::per_thread(NELEMS)};
    upc::shared_array<int, upc::dynamic_block> exchange(static_cast<std::size_t>(T * T), upc::block(1));
    upc::shared_array<size_t> nelems{upc::per_thread(static_cast<std::size_t>(T))};
    for (int i = MYTHREAD * NELEMS; i < (MYTHREAD + 1) * NELEMS; i++) {
      A[i] = i;
      B[i] = -1;
    }
    if (MYTHREAD == 0)
      for (int i = 0; i < T * T; i++) {
        exchange[i] = (i / T) * NELEMS + (i % T) * 2;  // thread i/T's block, slot i%T of two elements
        nelems[i] = static_cast<size_t>(1 + (i % 2));
      }
    upc_barrier;
    upc_all_exchange_v(B, A, upc::sptr<int, 1, upc::relaxed>(exchange.data()), nelems, NELEMS, NELEMS, sizeof(int), SYNC);
    for (int j = 0; j < T; ++j)
      for (int i = 0; i < T; ++i)
        for (int k = 0; k < 1 + (i * T + j) % 2; ++k)
          SPMD_CHECK_EQ(B[j * NELEMS + i * 2 + k].get(), i * NELEMS + j * 2 + k);
  });
  run(4, [] {  // A.2.8: sums of chunks of a blocks-of-THREADS array (chunks of 110 from i*100+15)
    const int T = THREADS;
    constexpr int N = 1000, NCHUNKS = 4;
    upc::shared_array<int, upc::dynamic_block> A(static_cast<std::size_t>(N * T), upc::block(static_cast<std::size_t>(T))),
        B(static_cast<std::size_t>(N * T), upc::block(static_cast<std::size_t>(T)));
    upc::shared_array<int> sdisp(NCHUNKS), ddisp(NCHUNKS), result{upc::per_thread(1)}, res(1);
    upc::shared_array<size_t> nelems(NCHUNKS);
    upc_forall (int i = 0; i < N * T; i++, &A[i]) A[i] = i;
    if (MYTHREAD == 0)
      for (int i = 0; i < NCHUNKS; i++) {
        sdisp[i] = i * 100 + 15;
        ddisp[i] = i * 200 + 15;  // the appendix's i*100+15 makes 110-element chunks overlap in dst
        nelems[i] = 110;
      }
    upc_barrier;
    auto chunk_sum = [](int i) { return 110 * (i * 100 + 15) + 110 * 109 / 2; };
    upc_all_reduceI_v(&res[0], A, UPC_ADD, sdisp, nelems, NCHUNKS, T, nullptr, SYNC);
    SPMD_CHECK_EQ(res[0].get(), chunk_sum(0) + chunk_sum(1) + chunk_sum(2) + chunk_sum(3));
    upc_all_reduceI_all_v(result, A, UPC_ADD, sdisp, nelems, NCHUNKS - 1, T, nullptr, SYNC);
    for (int t = 0; t < T; ++t) SPMD_CHECK_EQ(result[t].get(), chunk_sum(0) + chunk_sum(1) + chunk_sum(2));
    upc_all_prefix_reduceI_v(B, A, UPC_ADD, ddisp, sdisp, nelems, NCHUNKS - 2, T, T, nullptr, SYNC);
    int run_sum = 0;
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 110; ++k) {
        run_sum += j * 100 + 15 + k;
        SPMD_CHECK_EQ(B[j * 200 + 15 + k].get(), run_sum);
      }
  });
}

TEST_CASE("Appendix A examples: team-based (A.3.1 - A.3.7) and Listing 3.11") {
  run(4, [] {
    const int T = THREADS;
    team t;
    init(&t);
    if (MYTHREAD == 0) {  // threads 0, 1 and 3 (the team of Figure 3.6)
      insert(0, t);
      insert(1, t);
      insert(3, t);
    }
    upc_barrier;
    const bool in = isThreadInTeam(MYTHREAD, t);
    const int P = numThreads(t);
    SPMD_CHECK_EQ(P, 3);
    upc::shared_array<int, NELEMS * 4> A{upc::per_thread(NELEMS * 4)}, B{upc::per_thread(NELEMS * 4)};
    const int row = NELEMS * 4;
    auto fresh = [&] {
      for (int i = MYTHREAD * row; i < (MYTHREAD + 1) * row; i++) {
        A[i] = i;
        B[i] = -1;
      }
      upc_barrier;
    };
    // A.3.1: thread 1's block of A to the members' blocks of B
    fresh();
    if (in) upc_all_broadcast_team(B, &A[row], NELEMS * sizeof(int), t, SYNC);
    upc_barrier;
    for (int m = 0; m < P; ++m)
      for (int k = 0; k < NELEMS; ++k) SPMD_CHECK_EQ(B[getThreadID(m, t) * row + k].get(), row + k);
    SPMD_CHECK_EQ(B[2 * row].get(), -1);  // thread 2 is not a member
    upc_barrier;
    // A.3.2: thread 1's block scattered; 12 elements: 4 per member, in team-id order
    fresh();
    if (in) upc_all_scatter_team(B, &A[row], 12 * sizeof(int), t, SYNC);
    upc_barrier;
    for (int m = 0; m < P; ++m)
      for (int k = 0; k < 4; ++k) SPMD_CHECK_EQ(B[getThreadID(m, t) * row + k].get(), row + m * 4 + k);
    upc_barrier;
    // Figure 3.6, _allthr: 12 elements over THREADS: 3 per thread, piece = thread number
    fresh();
    if (in) upc_all_scatter_team_allthr(B, &A[row], 12 * sizeof(int), t, SYNC);
    upc_barrier;
    for (int m = 0; m < P; ++m) {
      const int th = getThreadID(m, t);
      for (int k = 0; k < 3; ++k) SPMD_CHECK_EQ(B[th * row + k].get(), row + th * 3 + k);
    }
    upc_barrier;
    // A.3.3: two integers per member gathered into thread 1's block (nbytes: the total)
    fresh();
    if (in) upc_all_gather_team(&B[row], A, 2 * P * sizeof(int), t, SYNC);
    upc_barrier;
    for (int m = 0; m < P; ++m)
      for (int k = 0; k < 2; ++k) SPMD_CHECK_EQ(B[row + m * 2 + k].get(), getThreadID(m, t) * row + k);
    upc_barrier;
    // A.3.4 and A.3.5: two integers per member to every member, and exchanged
    fresh();
    if (in) upc_all_gather_all_team(B, A, 2 * P * sizeof(int), t, SYNC);
    upc_barrier;
    for (int u = 0; u < P; ++u)
      for (int m = 0; m < P; ++m)
        for (int k = 0; k < 2; ++k) SPMD_CHECK_EQ(B[getThreadID(u, t) * row + m * 2 + k].get(), getThreadID(m, t) * row + k);
    upc_barrier;
    fresh();
    if (in) upc_all_exchange_team(B, A, 2 * P * sizeof(int), t, SYNC);
    upc_barrier;
    for (int u = 0; u < P; ++u)
      for (int m = 0; m < P; ++m)
        for (int k = 0; k < 2; ++k)
          SPMD_CHECK_EQ(B[getThreadID(u, t) * row + m * 2 + k].get(), getThreadID(m, t) * row + u * 2 + k);
    upc_barrier;
    // A.3.6: the members' blocks permuted (team ids: 0 -> 1 -> 2 -> 0)
    fresh();
    upc::shared_array<int> perm{upc::per_thread(1)};
    perm[MYTHREAD] = (MYTHREAD + 1) % P;
    upc_barrier;
    if (in) upc_all_permute_team(B, A, perm, row * sizeof(int), t, SYNC);
    upc_barrier;
    for (int m = 0; m < P; ++m)
      SPMD_CHECK_EQ(B[getThreadID((m + 1) % P, t) * row].get(), getThreadID(m, t) * row);
    upc_barrier;
    // A.3.7: prefix sums over the members' elements (blocks of 40 here), then their sum
    fresh();
    upc::shared_array<int> c(1);
    if (in) {
      upc_all_prefix_reduceI_team(B, A, UPC_ADD, row * T, row, nullptr, t, SYNC);
      upc_all_reduceI_team(&c[0], A, UPC_ADD, row * T, row, nullptr, t, SYNC);
    }
    upc_barrier;
    long long run_sum = 0, total = 0;
    for (int i = 0; i < row * T; ++i)
      if (i / row != 2) total += i;
    for (int i = 0; i < row * T; ++i) {
      if (i / row == 2) {
        SPMD_CHECK_EQ(B[i].get(), -1);
        continue;
      }
      run_sum += i;
      SPMD_CHECK_EQ(B[i].get(), static_cast<int>(run_sum));
    }
    SPMD_CHECK_EQ(c[0].get(), static_cast<int>(total));
  });
  run(4, [] {  // Listing 3.11: two disjoint teams reduce in parallel
    team t1, t2;
    init(&t1);
    init(&t2);
    if (MYTHREAD == 0)
      for (int i = 0; i < THREADS; ++i) insert(i, i % 2 ? t2 : t1);
    upc_barrier;
    upc::shared_array<int> local_hits{upc::per_thread(1)}, hits1{upc::per_thread(1)}, hits2{upc::per_thread(1)};
    local_hits[MYTHREAD] = 10 + MYTHREAD;
    upc_barrier;
    team& mine = MYTHREAD % 2 ? t2 : t1;
    const int nth = getNumThreads(mine);
    // the thesis passes nth as nelems; the elements of local_hits on other threads take no part
    upc_all_reduceI_all_team(MYTHREAD % 2 ? hits2 : hits1, local_hits, UPC_ADD, static_cast<size_t>(THREADS), 1, nullptr,
                             mine, SYNC);
    upc_barrier;
    SPMD_CHECK_EQ(nth, 2);
    for (int m = 0; m < 2; ++m) {
      SPMD_CHECK_EQ(hits1[m].get(), 10 + 12);  // threads 0 and 2
      SPMD_CHECK_EQ(hits2[m].get(), 11 + 13);  // threads 1 and 3
    }
  });
}

TEST_CASE("Listing 3.13: image filtering with get/put/priv collectives") {
  run(4, [] {
    constexpr int N = 8;
    const int T = THREADS, rows = N / T;
    std::vector<double> img(N * N), aux(static_cast<std::size_t>(rows * N)), filtered(N * N, -1), filter(9);
    if (MYTHREAD == 0) {
      for (int i = 0; i < N * N; ++i) img[static_cast<std::size_t>(i)] = i;
      for (int i = 0; i < 9; ++i) filter[static_cast<std::size_t>(i)] = i == 4 ? 2.0 : 0.0;
    }
    upc_all_scatter_priv(aux.data(), img.data(), static_cast<size_t>(rows * N) * sizeof(double), SYNC);
    upc_all_broadcast_in_place_priv(filter.data(), 9 * sizeof(double), SYNC);
    for (double& x : aux) x *= filter[4];  // the centre of the filter only
    upc_all_gather_priv(filtered.data(), aux.data(), static_cast<size_t>(rows * N) * sizeof(double), SYNC);
    if (MYTHREAD == 0)
      for (int i = 0; i < N * N; ++i) SPMD_CHECK_EQ(filtered[static_cast<std::size_t>(i)], 2.0 * i);
  });
}

}  // namespace
