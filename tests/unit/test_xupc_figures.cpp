// Seed 001's Figures 3-9 as worked examples: three threads, th0 and th1 on one
// node and th2 on another (the figures' scenario), each call's expected
// contents written out by hand from the figure's description (the seed's text
// gives the operations and the scenario; the figures' exact numbers are
// images, so the values here are ours), and for Figures 3 and 4 what crosses
// between the nodes.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "../support/spmd.hpp"
#include "upc.h"
#include "xupc_collective.h"

namespace {

// th0, th1 on node 0; th2 on node 1 (3 threads on 2 balanced block nodes).
// Returns whether this process holds the last run's report file (under
// mpirun: rank 0, when THREADS 3 ran here).
bool figure(const std::function<void()>& body, const char* report = nullptr) {
  bool ran = false;
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(3, b)) continue;
    ran = true;
    upc::launch_options o = spmd::options(3, b);
    o.nodes = 2;
    if (report) o.report_file = report;
    upc::run_result r = upc::run(o, body);
    INFO("backend=", spmd::name(b), " ", r.error);
    REQUIRE(r.ok());
  }
  return ran && spmd::launcher_process();
}

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

template <class T>
std::vector<T> block_of(upc::sptr<void> base, int thread, std::size_t n) {  // n elements of `thread`'s part, by upc_memget
  std::vector<T> v(n);
  upc::shared_address a = base.address();
  a.thread = static_cast<std::uint32_t>(thread);
  a.phase = 0;
  upc_memget(v.data(), upc::sptr<void>(a), n * sizeof(T));
  return v;
}

}  // namespace

TEST_CASE("seed 001 Figure 3: multicore broadcast, th2's node root fetches once, th1 copies within node 0") {
  const std::string path = spmd::tmp_path("fig3.jsonl");
  const bool report_here = figure([] {
    upc::sptr<int> src = upc::sptr<int>(upc_all_alloc(1, 4 * sizeof(int)));  // on th0
    upc::sptr<void> dst = upc_all_alloc(THREADS, 4 * sizeof(int));
    if (MYTHREAD == 0)
      for (int i = 0; i < 4; ++i) upc::sptr<int, upc::indefinite>(upc::sptr<void>(src)).local()[i] = 10 + i;
    upc_barrier;
    xupc_all_broadcast(dst, src, 4 * sizeof(int), UPC_MULTICORE);
    if (MYTHREAD == 0)
      for (int t = 0; t < 3; ++t) SPMD_CHECK(block_of<int>(dst, t, 4) == (std::vector<int>{10, 11, 12, 13}));
  }, path.c_str());
  if (!report_here) return;
  const std::string rows = read_all(path);
  CHECK(spmd::contains(rows, "\"function\":\"xupc_all_broadcast\",\"algorithm\":\"multicore\""));
  CHECK(spmd::contains(rows, "\"bytes_inter\":16,"));  // th2's one copy between the nodes
  CHECK(spmd::contains(rows, "\"copies_inter\":1,"));
  std::remove(path.c_str());
}

TEST_CASE("seed 001 Figure 4: multicore gather, th2's block crosses once into th0's dst") {
  const std::string path = spmd::tmp_path("fig4.jsonl");
  const bool report_here = figure([] {
    upc::sptr<int> src = upc::sptr<int>(upc_all_alloc(THREADS, 2 * sizeof(int)));
    upc::sptr<void> dst = upc_all_alloc(1, 6 * sizeof(int));
    int* mine = upc::sptr<int, upc::indefinite>(upc::sptr<void>(src + MYTHREAD)).local();
    mine[0] = 100 * MYTHREAD;
    mine[1] = 100 * MYTHREAD + 1;
    upc_barrier;
    xupc_all_gather(dst, src, 2 * sizeof(int), UPC_MULTICORE);
    if (MYTHREAD == 0) SPMD_CHECK(block_of<int>(dst, 0, 6) == (std::vector<int>{0, 1, 100, 101, 200, 201}));
  }, path.c_str());
  if (!report_here) return;
  const std::string rows = read_all(path);
  CHECK(spmd::contains(rows, "\"bytes_inter\":8,"));
  CHECK(spmd::contains(rows, "\"copies_inter\":1,"));
  std::remove(path.c_str());
}

TEST_CASE("seed 001 Figure 5: xupc_all_reduceI_mpi adds the threads' arrays element by element") {
  figure([] {
    upc::sptr<int> src = upc::sptr<int>(upc_all_alloc(THREADS, 3 * sizeof(int)));  // [1 2 3 | 4 5 6 | 7 8 9]
    upc::sptr<void> dst = upc_all_alloc(1, 3 * sizeof(int));
    int* mine = upc::sptr<int, upc::indefinite>(upc::sptr<void>(src + MYTHREAD)).local();
    for (int k = 0; k < 3; ++k) mine[k] = 3 * MYTHREAD + k + 1;
    upc_barrier;
    xupc_all_reduceI_mpi(dst, upc::sptr<void>(src), UPC_ADD, 9, 3, nullptr, 0);
    if (MYTHREAD == 0) SPMD_CHECK(block_of<int>(dst, 0, 3) == (std::vector<int>{12, 15, 18}));
  });
}

TEST_CASE("seed 001 Figure 6: xupc_all_suffix_reduceI, each element the sum of itself and all after it") {
  figure([] {
    upc::sptr<void> src = upc_all_alloc(THREADS, 2 * sizeof(int));  // shared [2] int[6] = 1 .. 6
    upc::sptr<void> dst = upc_all_alloc(THREADS, 2 * sizeof(int));
    int* mine = upc::sptr<int, upc::indefinite>(upc::sptr<void>(upc::sptr<char>(src) + MYTHREAD)).local();
    mine[0] = 2 * MYTHREAD + 1;
    mine[1] = 2 * MYTHREAD + 2;
    upc_barrier;
    xupc_all_suffix_reduceI(dst, src, UPC_ADD, 6, 2, nullptr, 0);
    if (MYTHREAD == 0) {
      SPMD_CHECK(block_of<int>(dst, 0, 2) == (std::vector<int>{21, 20}));
      SPMD_CHECK(block_of<int>(dst, 1, 2) == (std::vector<int>{18, 15}));
      SPMD_CHECK(block_of<int>(dst, 2, 2) == (std::vector<int>{11, 6}));
    }
  });
}

TEST_CASE("seed 001 Figure 7: xupc_all_broadcast_in_place copies th0's block over the others, in one array") {
  figure([] {
    upc::sptr<void> buf = upc_all_alloc(THREADS, 2 * sizeof(int));
    int* mine = upc::sptr<int, upc::indefinite>(upc::sptr<void>(upc::sptr<char>(buf) + MYTHREAD)).local();
    mine[0] = 7 + MYTHREAD;
    mine[1] = 70 + MYTHREAD;
    upc_barrier;
    xupc_all_broadcast_in_place(buf, 2 * sizeof(int), 0);
    if (MYTHREAD == 0)
      for (int t = 0; t < 3; ++t) SPMD_CHECK(block_of<int>(buf, t, 2) == (std::vector<int>{7, 70}));
  });
}

TEST_CASE("seed 001 Figure 8: xupc_all_broadcast_v writes thread i's copy at ddisp[i]") {
  figure([] {
    upc::sptr<void> src = upc_all_alloc(1, 2 * sizeof(int));
    upc::sptr<void> dst = upc_all_alloc(THREADS, 4 * sizeof(int));  // shared [4] int[12]
    upc::sptr<int, 1, upc::relaxed> ddisp = upc::sptr<int, 1, upc::relaxed>(upc_all_alloc(THREADS, sizeof(int)));
    const int where[3] = {0, 5, 9};  // indices of the whole array: th1's block is 4-7, th2's 8-11
    ddisp[MYTHREAD] = where[MYTHREAD];
    int* mine = upc::sptr<int, upc::indefinite>(upc::sptr<void>(upc::sptr<char>(dst) + MYTHREAD)).local();
    for (int k = 0; k < 4; ++k) mine[k] = -1;
    if (MYTHREAD == 0) {
      upc::sptr<int, upc::indefinite>(src).local()[0] = 41;
      upc::sptr<int, upc::indefinite>(src).local()[1] = 42;
    }
    upc_barrier;
    xupc_all_broadcast_v(dst, src, ddisp, 2, 4, sizeof(int), 0);
    if (MYTHREAD == 0) {
      SPMD_CHECK(block_of<int>(dst, 0, 4) == (std::vector<int>{41, 42, -1, -1}));
      SPMD_CHECK(block_of<int>(dst, 1, 4) == (std::vector<int>{-1, 41, 42, -1}));
      SPMD_CHECK(block_of<int>(dst, 2, 4) == (std::vector<int>{-1, 41, 42, -1}));
    }
  });
}

TEST_CASE("seed 001 Figure 9: xupc_all_gather_v takes nelems[i] from sdisp[i] and places them at ddisp[i]") {
  figure([] {
    upc::sptr<void> src = upc_all_alloc(THREADS, 4 * sizeof(int));  // shared [4] int[12]
    upc::sptr<void> dst = upc_all_alloc(1, 6 * sizeof(int));
    upc::sptr<int, 1, upc::relaxed> ddisp = upc::sptr<int, 1, upc::relaxed>(upc_all_alloc(THREADS, sizeof(int)));
    upc::sptr<int, 1, upc::relaxed> sdisp = upc::sptr<int, 1, upc::relaxed>(upc_all_alloc(THREADS, sizeof(int)));
    upc::sptr<size_t, 1, upc::relaxed> nelems = upc::sptr<size_t, 1, upc::relaxed>(upc_all_alloc(THREADS, sizeof(size_t)));
    const int to[3] = {5, 0, 2};
    ddisp[MYTHREAD] = to[MYTHREAD];
    sdisp[MYTHREAD] = 4 * MYTHREAD + (MYTHREAD == 2 ? 1 : 0);  // th2's piece starts one element into its block
    nelems[MYTHREAD] = static_cast<size_t>(MYTHREAD + 1);
    int* mine = upc::sptr<int, upc::indefinite>(upc::sptr<void>(upc::sptr<char>(src) + MYTHREAD)).local();
    for (int k = 0; k < 4; ++k) mine[k] = 10 * MYTHREAD + k;
    upc_barrier;
    xupc_all_gather_v(dst, src, ddisp, sdisp, nelems, 6, 4, sizeof(int), 0);
    // th1's 2 at 0-1, th2's 3 (from its element 1) at 2-4, th0's 1 at 5
    if (MYTHREAD == 0) SPMD_CHECK(block_of<int>(dst, 0, 6) == (std::vector<int>{10, 11, 21, 22, 23, 0}));
  });
}
