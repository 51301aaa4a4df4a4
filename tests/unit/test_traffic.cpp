// The traffic report and the network model (issue 11): every bulk copy is
// counted within or between emulated nodes, per call site and algorithm, and
// the counts equal each algorithm's closed formula.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "../support/spmd.hpp"
#include "upc.h"
#include "upc/coll.hpp"
#include "upc_collective.h"
#include "upc_collective_ext.h"

namespace {

struct row {
  std::string site, function, algorithm;
  unsigned long long calls = 0, bytes_intra = 0, bytes_inter = 0, copies_intra = 0, copies_inter = 0, fan_in = 0;
};

// The value of "key": in one jsonl row (numbers and simple strings only).
std::string field(const std::string& line, const std::string& key) {
  const std::string k = "\"" + key + "\":";
  auto at = line.find(k);
  if (at == std::string::npos) return "";
  at += k.size();
  if (line[at] == '"') return line.substr(at + 1, line.find('"', at + 1) - at - 1);
  return line.substr(at, line.find_first_of(",}", at) - at);
}

std::vector<row> read_rows(const std::string& path) {
  std::vector<row> rows;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    row r;
    r.site = field(line, "site");
    r.function = field(line, "function");
    r.algorithm = field(line, "algorithm");
    r.calls = std::stoull(field(line, "calls"));
    r.bytes_intra = std::stoull(field(line, "bytes_intra"));
    r.bytes_inter = std::stoull(field(line, "bytes_inter"));
    r.copies_intra = std::stoull(field(line, "copies_intra"));
    r.copies_inter = std::stoull(field(line, "copies_inter"));
    r.fan_in = std::stoull(field(line, "max_fan_in"));
    rows.push_back(r);
  }
  return rows;
}

const row* find(const std::vector<row>& rows, const std::string& function, const std::string& algorithm) {
  for (const row& r : rows)
    if (r.function == function && r.algorithm == algorithm) return &r;
  return nullptr;
}

constexpr std::size_t n = 1000;  // bytes per block

}  // namespace

TEST_CASE("traffic: a flat broadcast moves n bytes to every thread, between nodes for those off the root's node") {
  const std::string path = spmd::tmp_path("traffic.jsonl");
  for (upc::backend_kind b : spmd::backends)
    for (const char* algo : {"pull", "push"}) {
      if (spmd::skip_run(8, b)) continue;
      upc::launch_options o = spmd::options(8, b);
      o.threads_per_node = 4;  // {0..3} {4..7}
      o.report_file = path;
      const int reps = 3;
      upc::run_result r = upc::run(o, [&] {
        upc::coll::force_algorithm("broadcast", algo);
        upc::sptr<char> src = upc::sptr<char>(upc_all_alloc(1, n));
        upc::sptr<char> dst = upc::sptr<char>(upc_all_alloc(THREADS, n));
        for (int k = 0; k < reps; ++k) upc_all_broadcast(dst, src, n, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
        std::vector<char> mine(n);
        upc_barrier;
        upc_memget(mine.data(), src, n);  // thread 0's block: between nodes for threads 4..7
        upc_barrier;
        if (MYTHREAD == 0) {
          upc_free(src);
          upc_free(dst);
        }
      });
      INFO("backend=", spmd::name(b), " algorithm=", std::string(algo), " ", r.error);
      REQUIRE(r.ok());
      if (!spmd::launcher_process()) continue;  // the report file is rank 0's under mpirun
      const std::vector<row> rows = read_rows(path);
      const row* bc = find(rows, "upc_all_broadcast", algo);
      REQUIRE(bc != nullptr);
      CHECK(bc->calls == reps);
      CHECK(bc->bytes_inter == reps * 4 * n);  // threads 4..7
      CHECK(bc->bytes_intra == reps * 4 * n);  // threads 0..3 (the root's own block too)
      CHECK(bc->copies_inter == reps * 4);
      CHECK(bc->site.find("test_traffic.cpp:") == 0);
      // pull: the root's block has 7 readers; push: the root writes 7 blocks
      CHECK(bc->fan_in == (std::string(algo) == "pull" ? 7u : 1u));
      const row* get = find(rows, "upc_memget", "");
      REQUIRE(get != nullptr);
      CHECK(get->bytes_inter == 4 * n);
      CHECK(get->bytes_intra == 4 * n);
      std::remove(path.c_str());
    }
}

TEST_CASE("traffic: one node moves nothing between nodes; every thread on its own node moves everything between") {
  const std::string path = spmd::tmp_path("traffic-2.jsonl");
  for (int nodes : {1, 4}) {
    if (spmd::skip_run(4, upc::backend_kind::threads)) continue;
    upc::launch_options o = spmd::options(4, upc::backend_kind::threads);
    o.nodes = nodes;
    o.report_file = path;
    upc::run_result r = upc::run(o, [&] {
      upc::coll::force_algorithm("gather", "push");
      upc::sptr<char> src = upc::sptr<char>(upc_all_alloc(THREADS, n));
      upc::sptr<char> dst = upc::sptr<char>(upc_all_alloc(1, n * THREADS));
      upc_all_gather(dst, src, n, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
      if (MYTHREAD == 0) {
        upc_free(src);
        upc_free(dst);
      }
    });
    INFO("nodes=", nodes, " ", r.error);
    REQUIRE(r.ok());
    if (!spmd::launcher_process()) continue;  // the report file is rank 0's under mpirun
    const row* g = find(read_rows(path), "upc_all_gather", "push");
    REQUIRE(g != nullptr);
    CHECK(g->bytes_inter == (nodes == 1 ? 0 : 3 * n));
    CHECK(g->bytes_intra == (nodes == 1 ? 4 * n : n));
    CHECK(g->fan_in == 3);  // the root's dst is written by three others
    std::remove(path.c_str());
  }
}

TEST_CASE("traffic: the network model makes a copy between nodes wait at least its latency") {
  if (spmd::skip_run(2, upc::backend_kind::threads)) return;
  upc::launch_options o = spmd::options(2, upc::backend_kind::threads);
  o.nodes = 2;
  o.net_latency_us = 5000;  // 5 ms
  upc::run_result r = upc::run(o, [] {
    upc::sptr<char> a = upc::sptr<char>(upc_all_alloc(THREADS, 64));
    char buf[64];
    upc_barrier;
    if (MYTHREAD == 1) {
      const auto t0 = std::chrono::steady_clock::now();
      upc_memget(buf, a, 64);  // thread 0's block: the other node
      const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      SPMD_CHECK(waited >= 0.005);
    }
    upc_barrier;
    if (MYTHREAD == 0) upc_free(a);
  });
  INFO(r.error);
  CHECK(r.ok());
}

TEST_CASE("traffic: multicore algorithms send each byte between nodes once, one copy per node") {
  const std::string path = spmd::tmp_path("traffic-3.jsonl");
  for (upc::backend_kind b : spmd::backends)
    for (int nodes : {2, 4}) {
      const int T = 8, N = nodes;
      if (spmd::skip_run(T, b)) continue;
      upc::launch_options o = spmd::options(T, b);
      o.nodes = nodes;
      o.report_file = path;
      upc::run_result r = upc::run(o, [&] {
        upc::sptr<char> one = upc::sptr<char>(upc_all_alloc(1, n * THREADS));
        upc::sptr<char> each = upc::sptr<char>(upc_all_alloc(THREADS, n));
        const upc_flag_t f = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC | UPC_MULTICORE;  // the flag selects the algorithm
        upc_all_broadcast(each, one, n, f);
        upc_all_scatter(each, one, n, f);
        upc_all_gather(one, each, n, f);
        upc::sptr<char> rows = upc::sptr<char>(upc_all_alloc(THREADS, n * THREADS));
        upc_all_gather_all(rows, each, n, f);
        upc::sptr<char> rows2 = upc::sptr<char>(upc_all_alloc(THREADS, n * THREADS));
        upc_all_exchange(rows2, rows, n, f);
        upc::sptr<long> vals = upc::sptr<long>(upc_all_alloc(THREADS, 4 * sizeof(long)));
        upc::sptr<long> sum = upc::sptr<long>(upc_all_alloc(1, sizeof(long)));
        upc_all_reduceL(sum, vals, UPC_ADD, 4 * static_cast<std::size_t>(THREADS), 4, nullptr, f);
        upc_barrier;
        if (MYTHREAD == 0) {
          upc_free(vals);
          upc_free(sum);
        }
        if (MYTHREAD == 0) upc_free(rows2);
        if (MYTHREAD == 0) {
          upc_free(one);
          upc_free(each);
          upc_free(rows);
        }
      });
      INFO("backend=", spmd::name(b), " nodes=", nodes, " ", r.error);
      REQUIRE(r.ok());
      if (!spmd::launcher_process()) continue;  // the report file is rank 0's under mpirun
      const std::vector<row> rows = read_rows(path);
      const row* bc = find(rows, "upc_all_broadcast", "multicore");
      const row* sc = find(rows, "upc_all_scatter", "multicore");
      const row* ga = find(rows, "upc_all_gather", "multicore");
      REQUIRE(bc != nullptr);
      REQUIRE(sc != nullptr);
      REQUIRE(ga != nullptr);
      const unsigned long long per_node = T / N, off_root_node = T - per_node;
      // broadcast: n bytes to each other node, once
      CHECK(bc->bytes_inter == (N - 1) * n);
      CHECK(bc->copies_inter == static_cast<unsigned long long>(N - 1));
      CHECK(bc->bytes_intra == (T - (N - 1)) * n);
      // scatter and gather: every other node's pieces cross once, as one copy
      CHECK(sc->bytes_inter == off_root_node * n);
      CHECK(sc->copies_inter == static_cast<unsigned long long>(N - 1));
      CHECK(ga->bytes_inter == off_root_node * n);
      CHECK(ga->copies_inter == static_cast<unsigned long long>(N - 1));
      // gather_all: every node's blocks to every other node once, one copy per pair of nodes
      const row* gl = find(rows, "upc_all_gather_all", "multicore");
      REQUIRE(gl != nullptr);
      CHECK(gl->bytes_inter == static_cast<unsigned long long>(T) * (N - 1) * n);
      CHECK(gl->copies_inter == static_cast<unsigned long long>(N) * (N - 1));
      CHECK(gl->bytes_intra == (static_cast<unsigned long long>(T) + (T - N) * T) * n);
      // exchange: every piece between two nodes once, one copy per ordered pair of nodes
      const row* ex = find(rows, "upc_all_exchange", "multicore");
      REQUIRE(ex != nullptr);
      CHECK(ex->bytes_inter == (static_cast<unsigned long long>(T) * T - N * per_node * per_node) * n);
      CHECK(ex->copies_inter == static_cast<unsigned long long>(N) * (N - 1));
      // reduce: one list of partials (one long per rank) per other node, to the root
      const row* re = find(rows, "upc_all_reduceL", "multicore");
      REQUIRE(re != nullptr);
      CHECK(re->bytes_inter == off_root_node * sizeof(long));
      CHECK(re->copies_inter == static_cast<unsigned long long>(N - 1));
      // fan-in at the root: its node's threads and the other node roots
      CHECK(bc->fan_in == per_node - 1 + (N - 1));
      std::remove(path.c_str());
    }
}

TEST_CASE("traffic: binomial-flat broadcast, scatter, gather and reduce: the tree over the nodes, its closed formulas") {
  const std::string path = spmd::tmp_path("traffic-4.jsonl");
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(16, b)) continue;
    upc::launch_options o = spmd::options(16, b);
    o.nodes = 8;  // 8 nodes x 2 threads
    o.report_file = path;
    upc::run_result r = upc::run(o, [&] {
      upc::coll::force_algorithm("broadcast", "binomial_flat");
      upc::coll::force_algorithm("scatter", "binomial_flat");
      upc::coll::force_algorithm("gather", "binomial_flat");
      upc::coll::force_algorithm("reduce", "binomial_flat");
      upc::sptr<char> one = upc::sptr<char>(upc_all_alloc(1, n * THREADS));
      upc::sptr<char> each = upc::sptr<char>(upc_all_alloc(THREADS, n));
      upc_all_broadcast(each, one, n, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
      upc_all_scatter(each, one, n, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
      upc_all_gather(one, each, n, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
      upc::sptr<long> vals = upc::sptr<long>(upc_all_alloc(THREADS, 4 * sizeof(long)));
      upc::sptr<long> sum = upc::sptr<long>(upc_all_alloc(1, sizeof(long)));
      upc_all_reduceL(sum, vals, UPC_ADD, 4 * static_cast<std::size_t>(THREADS), 4, nullptr, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
      upc_barrier;
      if (MYTHREAD == 0) {
        upc_free(vals);
        upc_free(sum);
      }
      if (MYTHREAD == 0) {
        upc_free(one);
        upc_free(each);
      }
    });
    INFO("backend=", spmd::name(b), " ", r.error);
    REQUIRE(r.ok());
    if (!spmd::launcher_process()) continue;  // the report file is rank 0's under mpirun
    const row* bc = find(read_rows(path), "upc_all_broadcast", "binomial_flat");
    REQUIRE(bc != nullptr);
    CHECK(bc->bytes_inter == 7 * n);
    CHECK(bc->copies_inter == 7u);
    CHECK(bc->fan_in == 4u);  // the root: 3 node roots (log2 8) and its node's other thread
    // scatter: node k's 2 pieces cross once per level of its depth in the node
    // tree (depths of nodes 1-7: 1 1 2 1 2 2 3), a subtree's run in one copy
    const row* sc = find(read_rows(path), "upc_all_scatter", "binomial_flat");
    REQUIRE(sc != nullptr);
    CHECK(sc->bytes_inter == 12 * 2 * n);
    CHECK(sc->copies_inter == 7u);
    const row* ga = find(read_rows(path), "upc_all_gather", "binomial_flat");  // the mirror
    REQUIRE(ga != nullptr);
    CHECK(ga->bytes_inter == 12 * 2 * n);
    CHECK(ga->copies_inter == 7u);
    const row* re = find(read_rows(path), "upc_all_reduceL", "binomial_flat");  // lists of one long per rank
    REQUIRE(re != nullptr);
    CHECK(re->bytes_inter == 12 * 2 * sizeof(long));
    CHECK(re->copies_inter == 7u);
    std::remove(path.c_str());
  }
}

TEST_CASE("traffic: the extended collectives' node-aware trees (Figures 3.8-3.10) and node-pair aggregation, closed formulas") {
  // 4 nodes x 4 threads, n bytes per thread, root thread 0:
  //   scatter_priv  multicore: nodes 1-3 get their 4 pieces once (12 n, 3 copies);
  //                 binomial_flat: node 1 (4 n), node 2 with node 3's (8 n), then
  //                 node 3 (4 n): 16 n in 3 copies; binomial over ranks: 0->4
  //                 (4 n), 0->8 (8 n), 8->12 (4 n): 16 n in 3 copies
  //   broadcast_priv one run: 3 n in 3 copies with every tree
  //   gather_priv   the mirrors of scatter_priv
  //   exchange_priv no root: by node pairs, each byte once (16 x 12 n), one
  //                 copy per ordered pair of nodes (12)
  const std::string path = spmd::tmp_path("traffic-ext.jsonl");
  struct expect {
    const char* function;
    unsigned long long multicore, binomial_flat, binomial, copies;
  };
  const expect expected[] = {{"upc_all_scatter_priv", 12 * n, 16 * n, 16 * n, 3},
                             {"upc_all_broadcast_priv", 3 * n, 3 * n, 3 * n, 3},
                             {"upc_all_gather_priv", 12 * n, 16 * n, 16 * n, 3},
                             {"upc_all_exchange_priv", 192 * n, 192 * n, 192 * n, 12}};
  for (upc::backend_kind b : spmd::backends)
    for (const char* algo : {"multicore", "binomial_flat", "binomial"}) {
      if (spmd::skip_run(16, b)) continue;
      upc::launch_options o = spmd::options(16, b);
      o.nodes = 4;
      o.report_file = path;
      upc::run_result r = upc::run(o, [&] {
        upc::coll::force_algorithm("vector_copy", algo);
        std::vector<char> one(n * THREADS), all(n * THREADS), piece(n);
        for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<char>(i * 7 + MYTHREAD);
        const upc_flag_t sync = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;
        upc_all_scatter_priv(piece.data(), all.data(), n, sync);
        for (std::size_t i = 0; i < n; ++i)
          SPMD_CHECK(piece[i] == static_cast<char>((MYTHREAD * n + i) * 7));  // thread 0's bytes
        upc_all_broadcast_priv(piece.data(), all.data(), n, sync);
        for (std::size_t i = 0; i < n; ++i) SPMD_CHECK(piece[i] == static_cast<char>(i * 7));
        upc_all_gather_priv(one.data(), piece.data(), n, sync);
        upc_all_exchange_priv(one.data(), all.data(), n, sync);
        for (int s = 0; s < THREADS; ++s)  // my piece of every thread's row
          SPMD_CHECK(one[static_cast<std::size_t>(s) * n] == static_cast<char>(MYTHREAD * n * 7 + s));
      });
      INFO("backend=", spmd::name(b), " algorithm=", std::string(algo), " ", r.error);
      REQUIRE(r.ok());
      if (!spmd::launcher_process()) continue;  // the report file is rank 0's under mpirun
      const std::vector<row> rows = read_rows(path);
      for (const expect& e : expected) {
        const row* x = find(rows, e.function, algo);
        INFO(std::string(e.function));
        REQUIRE(x != nullptr);
        const std::string a = algo;
        CHECK(x->bytes_inter == (a == "multicore" ? e.multicore : a == "binomial_flat" ? e.binomial_flat : e.binomial));
        CHECK(x->copies_inter == e.copies);
      }
      std::remove(path.c_str());
    }
}

TEST_CASE("traffic: large runs cross between nodes in segments (UPCEMU_COLL_SEGMENT)") {
  // scatter_priv on 4 nodes x 4 threads, multicore: each node root's 4 n =
  // 4000 bytes arrive in segments of 1024 bytes, 4 copies per node
  const std::string path = spmd::tmp_path("traffic-seg.jsonl");
  setenv("UPCEMU_COLL_SEGMENT", "1K", 1);
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(16, b)) continue;
    upc::launch_options o = spmd::options(16, b);
    o.nodes = 4;
    o.report_file = path;
    upc::run_result r = upc::run(o, [&] {
      upc::coll::force_algorithm("vector_copy", "multicore");
      std::vector<char> all(n * THREADS), piece(n);
      for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<char>(i * 5);
      upc_all_scatter_priv(piece.data(), all.data(), n, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
      for (std::size_t i = 0; i < n; ++i) SPMD_CHECK(piece[i] == static_cast<char>((MYTHREAD * n + i) * 5));
    });
    INFO("backend=", spmd::name(b), " ", r.error);
    REQUIRE(r.ok());
    if (!spmd::launcher_process()) continue;  // the report file is rank 0's under mpirun
    const row* x = find(read_rows(path), "upc_all_scatter_priv", "multicore");
    REQUIRE(x != nullptr);
    CHECK(x->bytes_inter == 12 * n);
    CHECK(x->copies_inter == 12u);
    std::remove(path.c_str());
  }
  unsetenv("UPCEMU_COLL_SEGMENT");
}

TEST_CASE("traffic: prefix reduce, flat against multicore; remote operands of compute steps are traffic too") {
  // 2 nodes x 4 threads, shared [4] long[4 T]: one block per thread, each
  // rank's totals area S = 3 slots x 8 bytes (slots_per_member).
  //   flat: rank 0 reads the 4 totals off its node in place and writes their
  //         4 prefixes into their owners' scratch: 8 transfers of 8 bytes
  //   multicore: node 1's root sends its list of 4 areas, gets 4 back: 2 S x 4 bytes in 2 copies
  const std::string path = spmd::tmp_path("traffic-prefix.jsonl");
  for (upc::backend_kind b : spmd::backends)
    for (const char* algo : {"flat", "multicore"}) {
      if (spmd::skip_run(8, b)) continue;
      upc::launch_options o = spmd::options(8, b);
      o.nodes = 2;
      o.report_file = path;
      upc::run_result r = upc::run(o, [&] {
        upc::coll::force_algorithm("prefix_reduce", algo);
        upc::sptr<long, 4> src = upc::sptr<long, 4>(upc_all_alloc(THREADS, 4 * sizeof(long)));
        upc::sptr<long, 4> dst = upc::sptr<long, 4>(upc_all_alloc(THREADS, 4 * sizeof(long)));
        for (int i = 0; i < 4; ++i) src[MYTHREAD * 4 + i] = 1;
        upc_all_prefix_reduceL(dst, src, UPC_ADD, 4 * static_cast<size_t>(THREADS), 4, nullptr, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
        for (int i = 0; i < 4; ++i) SPMD_CHECK_EQ(static_cast<long>(dst[MYTHREAD * 4 + i]), static_cast<long>(MYTHREAD * 4 + i + 1));
      });
      INFO("backend=", spmd::name(b), " algorithm=", std::string(algo), " ", r.error);
      REQUIRE(r.ok());
      if (!spmd::launcher_process()) continue;  // the report file is rank 0's under mpirun
      const row* x = find(read_rows(path), "upc_all_prefix_reduceL", algo);
      REQUIRE(x != nullptr);
      if (std::string(algo) == "flat") {
        CHECK(x->bytes_inter == 8 * sizeof(long));
        CHECK(x->copies_inter == 8u);
      } else {
        CHECK(x->bytes_inter == 2 * 4 * 3 * sizeof(long));
        CHECK(x->copies_inter == 2u);
      }
      std::remove(path.c_str());
    }
}

TEST_CASE("traffic: lists without a root aggregate small runs by node pairs, larger ones go direct") {
  // exchange_priv on 2 nodes x 4 threads with multicore: 16 pieces of each
  // thread's row cross between nodes (4 x 4 pairs each way = 32 pieces);
  // 1 KiB pieces in 2 copies (one per ordered pair of nodes), 4 KiB pieces in 32
  const std::string path = spmd::tmp_path("traffic-pairs.jsonl");
  for (upc::backend_kind b : spmd::backends)
    for (std::size_t piece : {std::size_t{1024}, std::size_t{4096}}) {
      if (spmd::skip_run(8, b)) continue;
      upc::launch_options o = spmd::options(8, b);
      o.nodes = 2;
      o.report_file = path;
      upc::run_result r = upc::run(o, [&] {
        upc::coll::force_algorithm("vector_copy", "multicore");
        std::vector<char> src(piece * THREADS), dst(piece * THREADS);
        for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<char>(i * 3 + MYTHREAD);
        upc_all_exchange_priv(dst.data(), src.data(), piece, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
        for (int s = 0; s < THREADS; ++s)
          for (std::size_t i = 0; i < piece; i += 97)
            SPMD_CHECK(dst[static_cast<std::size_t>(s) * piece + i] == static_cast<char>((MYTHREAD * piece + i) * 3 + s));
      });
      INFO("backend=", spmd::name(b), " piece=", piece, " ", r.error);
      REQUIRE(r.ok());
      if (!spmd::launcher_process()) continue;  // the report file is rank 0's under mpirun
      const row* x = find(read_rows(path), "upc_all_exchange_priv", "multicore");
      REQUIRE(x != nullptr);
      CHECK(x->bytes_inter == 32 * piece);
      CHECK(x->copies_inter == (piece <= 2048 ? 2u : 32u));
      std::remove(path.c_str());
    }
}
