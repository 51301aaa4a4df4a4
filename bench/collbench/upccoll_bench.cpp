// upccoll_bench: the UPC Collectives 2.0 API (<upccoll.h>) on UPC_TEAM_ALL, blocking
// (handle NULL, flags 0: IN/OUT_MYSYNC), every collective over a range of block
// sizes, verified, with the memcpy bound, and the Open MPI peer
// (bench/peers/mpi/coll2_mpi.c) measured the same way. docs/benchmarks.md, "UPC
// Collectives 2.0 (upccoll_*) vs Open MPI"; tools/bench/run_upccoll.sh runs the sweep.
//
//   UPCEMU_THREADS=8 upccoll_bench --coll=allreduce,alltoall --max-bytes=1M
//   UPCEMU_THREADS=4 UPCEMU_BACKEND=processes upccoll_bench --coll=all --format=jsonl
//
// Buffers: one upc_all_alloc each for the send and the receive buffers, every
// thread passing its own block (affinity to itself, as the API requires); sizes,
// counts and displacements are in upccoll_model.h. Data collectives move
// UPC_BYTE; reductions are UPC_ADD on UPC_DOUBLE (count = nbytes / 8).
//
// Timing is collbench's: for every size one untimed call (warm-up, and the check
// that the call returns UPCCOLL_SUCCESS on every thread), a calibration of the
// calls per round to about --min-time seconds, then --reps rounds; a round starts
// all threads with a barrier, each notes its start, makes `iters` back-to-back
// calls and notes its end; the round's time per call is (latest end - earliest
// start across threads) / iters. Rows give the median, min and max over rounds.
// After each round the memcpy bound is timed the same way (coll_model.h) unless
// --no-bound. Verification (unless --no-verify): receive buffers poisoned, fresh
// sources, one call, every thread checks what it owns (upccoll_model.h); wrong
// bytes/elements are counted per row and make the exit status 1.
//
// It has its own main() (so that it can size the shared heap from the
// parameters) and one SPMD run (upc::run) for all the collectives asked for,
// between upccoll_initialize(nullptr, nullptr) and upccoll_finalize(). The
// progress mode of the library (UPCEMU_UPCCOLL_PROGRESS) is recorded in the
// header; blocking calls should not depend on it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "../common/blocks.hpp"
#include "../../harness/cli.hpp"
#include "../../harness/launch.hpp"
#include "../../harness/report.hpp"
#include "../common/stats.hpp"
#include "../../harness/team.hpp"
#include "../common/upccoll_run.hpp"
#include "upc.h"
#include "upccoll.h"
#include "upccoll_model.h"

namespace {

struct params {
  std::string coll = "all", fmt = "text";
  std::uint64_t min_bytes = 8, max_bytes = 8ULL << 20, max_moved = 0;
  std::int64_t step = 2, reps = 5, root = 0;
  double min_time = 0.01;
  bool no_verify = false, no_bound = false, list = false;
  std::vector<int> colls;
};

std::string progress_mode() { return bench::upccoll_progress("inline (default)"); }

// The sizes of collective c (upccoll_model.h's, as coll2_mpi's): requested sizes
// rounded down to whole elements, up to the largest whose uc_copies * nbytes stays
// within --max-moved. The barrier has one size, 0.
std::vector<std::uint64_t> sizes(const params& p, int c, int threads) {
  std::uint64_t v[64];  // enough for every size of a step of 2 or more
  const int n = uc_sizes(c, threads, p.min_bytes, p.max_bytes, static_cast<std::uint64_t>(p.step), p.max_moved, v, 64);
  return std::vector<std::uint64_t>(v, v + n);
}

struct state {
  const params* p = nullptr;
  int root = 0;
  std::size_t src_block = 0, dst_block = 0;
  upc::sptr<void> src_base, dst_base;
  upc::sptr<void> src, dst;                  // this thread's blocks
  std::vector<std::size_t> counts, displs;   // the v-variants' arrays (this thread's copy)
  std::vector<unsigned char> copy_src, copy_dst, scratch;
  unsigned char* my_src() const { return static_cast<unsigned char*>(src.local()); }
  unsigned char* my_dst() const { return static_cast<unsigned char*>(dst.local()); }
};

// One blocking call of collective c with blocks of nbytes.
upccoll_return_t call(state& s, int c, std::uint64_t nbytes) {
  const std::size_t count = static_cast<std::size_t>(nbytes / uc_elem(c));
  const int root = s.root;
  std::size_t* cnt = s.counts.data();
  std::size_t* dsp = s.displs.data();
  switch (c) {
    case UC_BARRIER: return upccoll_barrier(UPC_TEAM_ALL, 0, nullptr);
    case UC_BCAST: return upccoll_bcast(s.src, count, UPC_BYTE, s.dst, count, UPC_BYTE, root, UPC_TEAM_ALL, 0, nullptr);
    case UC_SCATTER: return upccoll_scatter(s.src, count, UPC_BYTE, s.dst, count, UPC_BYTE, root, UPC_TEAM_ALL, 0, nullptr);
    case UC_SCATTERV:
      return upccoll_scatterv(s.src, cnt, dsp, UPC_BYTE, s.dst, count, UPC_BYTE, root, UPC_TEAM_ALL, 0, nullptr);
    case UC_GATHER: return upccoll_gather(s.src, count, UPC_BYTE, s.dst, count, UPC_BYTE, root, UPC_TEAM_ALL, 0, nullptr);
    case UC_GATHERV:
      return upccoll_gatherv(s.src, count, UPC_BYTE, s.dst, cnt, dsp, UPC_BYTE, root, UPC_TEAM_ALL, 0, nullptr);
    case UC_ALLGATHER: return upccoll_allgather(s.src, count, UPC_BYTE, s.dst, count, UPC_BYTE, UPC_TEAM_ALL, 0, nullptr);
    case UC_ALLGATHERV:
      return upccoll_allgatherv(s.src, count, UPC_BYTE, s.dst, cnt, dsp, UPC_BYTE, UPC_TEAM_ALL, 0, nullptr);
    case UC_ALLTOALL: return upccoll_alltoall(s.src, count, UPC_BYTE, s.dst, count, UPC_BYTE, UPC_TEAM_ALL, 0, nullptr);
    case UC_ALLTOALLV:
      return upccoll_alltoallv(s.src, cnt, dsp, UPC_BYTE, s.dst, cnt, dsp, UPC_BYTE, UPC_TEAM_ALL, 0, nullptr);
    case UC_REDUCE: return upccoll_reduce(s.src, s.dst, count, UPC_DOUBLE, UPC_ADD, root, UPC_TEAM_ALL, 0, nullptr);
    case UC_ALLREDUCE: return upccoll_allreduce(s.src, s.dst, count, UPC_DOUBLE, UPC_ADD, UPC_TEAM_ALL, 0, nullptr);
    case UC_REDUCE_SCATTER: return upccoll_reduce_scatter(s.src, s.dst, cnt, UPC_DOUBLE, UPC_ADD, UPC_TEAM_ALL, 0, nullptr);
    case UC_SCAN: return upccoll_scan(s.src, s.dst, count, UPC_DOUBLE, UPC_ADD, UPC_TEAM_ALL, 0, nullptr);
  }
  return UPCCOLL_ERROR;
}

// The v-arrays for blocks of count elements: equal counts, reversed displacements.
void set_v_arrays(state& s, std::uint64_t count) {
  const int T = THREADS;
  for (int t = 0; t < T; ++t) {
    s.counts[static_cast<std::size_t>(t)] = static_cast<std::size_t>(count);
    s.displs[static_cast<std::size_t>(t)] = static_cast<std::size_t>(uc_displ(t, T, count));
  }
}

// Every size of collective c; returns the wrong bytes/elements found.
std::uint64_t run_collective(state& s, int c, std::uint64_t& seed) {
  const params& p = *s.p;
  const int T = THREADS, me = MYTHREAD;
  const int cpus = bench::usable_cpus();
  const int copiers = std::min(T, cpus);
  const std::vector<std::uint64_t> sz = sizes(p, c, T);
  const std::uint64_t bound_k = uc_bound_copies_per_copier(c, T, cpus);

  bench::report out(bench::parse_format(p.fmt),
                    {{"bench", "upccoll"}, {"backend", bench::backend_name()}, {"threads", T}, {"coll", uc_names[c]}},
                    {{"algo", "upccoll"},
                     {"flags", "mysync"},
                     {"team", "UPC_TEAM_ALL"},
                     {"type", uc_type_name(c)},
                     {"op", uc_is_reduction(c) ? "UPC_ADD" : "none"},
                     {"root", p.root},
                     {"min_bytes", sz.front()},
                     {"max_bytes", sz.back()},
                     {"step", p.step},
                     {"reps", p.reps},
                     {"min_time_s", p.min_time},
                     {"progress", progress_mode()},
                     {"mpi_peer", uc_mpi_names[c]},
                     {"bound_copiers", copiers},
                     {"bound", p.no_bound || c == UC_BARRIER ? "none" : "fastest round of min(THREADS,CPUs) threads each making ceil(copies/that) memcpys of nbytes at once"},
                     {"statistic", "per call: (latest end - earliest start across threads)/iters; median/min/max over reps"},
                     {"verify", !p.no_verify}});
  if (me == 0) out.header();

  std::uint64_t total_wrong = 0;
  for (const std::uint64_t nbytes : sz) {
    ++seed;
    const std::uint64_t count = nbytes / uc_elem(c);
    set_v_arrays(s, count);
    // The untimed first call: warm-up, and the return code on every thread.
    const upccoll_return_t rc0 = call(s, c, nbytes);
    if (!bench::all_threads(rc0 == UPCCOLL_SUCCESS)) {
      if (rc0 != UPCCOLL_SUCCESS)
        std::fprintf(stderr, "upccoll_bench: %s nbytes=%llu THREADS=%d: thread %d got %s\n", uc_names[c],
                     static_cast<unsigned long long>(nbytes), T, me, upccoll_error_name(rc0));
      if (me == 0) out.note(std::string("failed: ") + uc_names[c] + " nbytes=" + std::to_string(nbytes) + ": not UPCCOLL_SUCCESS");
      total_wrong += 1;
      continue;
    }
    upc::barrier();

    upccoll_return_t rc = UPCCOLL_SUCCESS;
    const auto coll_body = [&](std::int64_t n) {
      for (std::int64_t i = 0; i < n; ++i) {
        const upccoll_return_t r = call(s, c, nbytes);
        if (r != UPCCOLL_SUCCESS) rc = r;
      }
    };
    const std::uint64_t moved = std::max<std::uint64_t>(1, uc_copies(c, T) * nbytes);
    const std::int64_t cap = static_cast<std::int64_t>(std::max<std::uint64_t>(1, (16ULL << 30) / moved));
    const std::int64_t iters = bench::calibrate_iterations(coll_body, p.min_time, 1, cap);
    const bool bound = !p.no_bound && c != UC_BARRIER;
    const std::uint64_t bound_m = bound ? coll_bound_blocks(bound_k, nbytes) : 0;
    const auto copy_body = [&](std::int64_t n) {
      if (me >= copiers) return;
      for (std::int64_t i = 0; i < n; ++i) {
        coll_bound_copies(s.copy_dst.data(), s.copy_src.data(), nbytes, bound_k, bound_m);
        bench::clobber();
      }
    };
    const std::int64_t copy_iters = bound ? bench::calibrate_iterations(copy_body, p.min_time / 2, 1, cap) : 0;

    std::vector<double> us, bound_us;
    for (std::int64_t r = 0; r < p.reps; ++r) {
      us.push_back(bench::span_per_call(coll_body, iters) * 1e6);
      if (bound) bound_us.push_back(bench::span_per_call(copy_body, copy_iters) * 1e6);
    }
    std::uint64_t wrong = bench::all_threads(rc == UPCCOLL_SUCCESS) ? 0 : 1;
    if (rc != UPCCOLL_SUCCESS)
      std::fprintf(stderr, "upccoll_bench: %s nbytes=%llu THREADS=%d: thread %d got %s in a timed call\n", uc_names[c],
                   static_cast<unsigned long long>(nbytes), T, me, upccoll_error_name(rc));

    if (!p.no_verify && c != UC_BARRIER) {
      std::memset(s.my_dst(), COLL_POISON_BYTE, uc_dst_bytes(c, T, nbytes));
      uc_fill_source(c, s.my_src(), uc_src_bytes(c, T, nbytes), seed, me);
      upc::barrier();
      const upccoll_return_t r = call(s, c, nbytes);
      upc::barrier();
      std::uint64_t mine = uc_count_wrong(c, T, me, s.root, seed, nbytes, s.my_dst(), s.scratch.data(), 1);
      if (r != UPCCOLL_SUCCESS) mine += 1;
      if (mine)
        std::fprintf(stderr, "upccoll_bench: %s nbytes=%llu THREADS=%d: thread %d: %llu %s wrong%s%s\n", uc_names[c],
                     static_cast<unsigned long long>(nbytes), T, me, static_cast<unsigned long long>(mine),
                     uc_is_reduction(c) ? "elements" : "bytes", r != UPCCOLL_SUCCESS ? ", returned " : "",
                     r != UPCCOLL_SUCCESS ? upccoll_error_name(r) : "");
      wrong += static_cast<std::uint64_t>(bench::sum_over_threads(static_cast<double>(mine)));
    }
    total_wrong += wrong;
    const bench::summary st = bench::summarize(us);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double bmin = bound ? bench::summarize(bound_us).min : nan;
    if (me == 0)
      out.row({{"algo", "upccoll"},
               {"ran", std::string("upccoll_") + uc_names[c]},
               {"flags", "mysync"},
               {"type", uc_type_name(c)},
               {"nbytes", nbytes},
               {"count", count},
               {"iters", iters},
               {"min_us", st.min},
               {"median_us", st.median},
               {"max_us", st.max},
               {"gbps", c == UC_BARRIER ? nan : static_cast<double>(moved) / (st.median * 1e-6) * 1e-9},
               {"bound_us", bmin},
               {"ratio_vs_bound", bound ? bmin / st.median : nan},
               {"verified", !p.no_verify && c != UC_BARRIER},
               {"wrong", wrong}});
  }
  return total_wrong;
}

// Every collective asked for.
int measure(const params& p) {
  state s;
  s.p = &p;
  s.root = static_cast<int>(p.root);
  const int T = THREADS;
  const int cpus = bench::usable_cpus();
  const int copiers = std::min(T, cpus);
  std::uint64_t max_n = 16, bound_bytes = 16;
  for (const int c : p.colls)
    for (const std::uint64_t n : sizes(p, c, T)) {
      s.src_block = std::max<std::size_t>(s.src_block, uc_src_bytes(c, T, n));
      s.dst_block = std::max<std::size_t>(s.dst_block, uc_dst_bytes(c, T, n));
      max_n = std::max(max_n, n);
      if (c != UC_BARRIER && !p.no_bound) {
        const std::uint64_t k = uc_bound_copies_per_copier(c, T, cpus);
        bound_bytes = std::max(bound_bytes, coll_bound_blocks(k, n) * n);
      }
    }
  s.src_base = upc_all_alloc(static_cast<std::size_t>(T), s.src_block);
  s.dst_base = upc_all_alloc(static_cast<std::size_t>(T), s.dst_block);
  s.src = bench::on_thread(s.src_base, MYTHREAD, s.src_block);
  s.dst = bench::on_thread(s.dst_base, MYTHREAD, s.dst_block);
  s.counts.assign(static_cast<std::size_t>(T), 0);
  s.displs.assign(static_cast<std::size_t>(T), 0);
  if (MYTHREAD < copiers && !p.no_bound) {
    s.copy_src.assign(bound_bytes, 1);
    s.copy_dst.assign(bound_bytes, 2);
  }
  s.scratch.assign(max_n, 3);
  std::memset(s.my_src(), 4, s.src_block);  // every page touched before timing
  std::memset(s.my_dst(), 5, s.dst_block);
  upc::barrier();

  std::uint64_t wrong = 0, seed = 1;
  for (const int c : p.colls) wrong += run_collective(s, c, seed);
  upc::barrier();
  upc_all_free(s.dst_base);
  upc_all_free(s.src_base);
  return wrong ? 1 : 0;
}

int spmd(const params& p) {
  return bench::with_upccoll("upccoll_bench", [&p] { return measure(p); });
}

void print_list() {
  std::printf("%-16s %-20s %s\n", "# collective", "Open MPI peer", "nbytes means");
  for (int c = 0; c < UC_COUNT; ++c) {
    const char* what = "";
    switch (c) {
      case UC_BARRIER: what = "no data (one row, nbytes 0)"; break;
      case UC_BCAST: what = "bytes from the root to every thread"; break;
      case UC_SCATTER:
      case UC_SCATTERV: what = "bytes per thread from the root's THREADS blocks"; break;
      case UC_GATHER:
      case UC_GATHERV: what = "bytes per thread into the root's THREADS blocks"; break;
      case UC_ALLGATHER:
      case UC_ALLGATHERV: what = "bytes per thread to every thread"; break;
      case UC_ALLTOALL:
      case UC_ALLTOALLV: what = "bytes per (sender, receiver) pair"; break;
      case UC_REDUCE_SCATTER: what = "bytes of double each thread receives (it sends THREADS such blocks)"; break;
      default: what = "bytes of double per thread, UPC_ADD element-wise"; break;
    }
    std::printf("%-16s %-20s %s%s\n", uc_names[c], uc_mpi_names[c], what, uc_is_v(c) ? "; equal counts, reversed displacements" : "");
  }
}

std::uint64_t heap_needed(const params& p, int threads) {
  std::uint64_t src = 16, dst = 16;
  for (const int c : p.colls)
    for (const std::uint64_t n : sizes(p, c, threads)) {
      src = std::max(src, uc_src_bytes(c, threads, n));
      dst = std::max(dst, uc_dst_bytes(c, threads, n));
    }
  // The benchmark's two buffers, plus room for what the library may allocate in
  // the shared heap (scratch for reductions, staging): as much again, and 16 MiB.
  return 2 * (src + dst) + (16ULL << 20);
}

}  // namespace

int main(int argc, char** argv) {
  params p;
  std::vector<std::string> coll_choices(uc_names, uc_names + UC_COUNT);
  coll_choices.push_back("all");
  bench::cli cli("upccoll_bench",
                 "UPC Collectives 2.0 (<upccoll.h>) on UPC_TEAM_ALL, blocking, flags 0 (IN/OUT_MYSYNC): µs per\n"
                 "call (latest end - earliest start across threads), GB/s and the ratio to the memcpy bound,\n"
                 "per block size, verified. Reductions: UPC_ADD on double. --coll takes collective names\n"
                 "(comma-separated) or all; --list names them with their Open MPI peers. The shared heap is\n"
                 "sized from the parameters unless UPCEMU_HEAP is set.");
  cli.add_choice("coll", "the collectives", &p.coll, coll_choices, true);
  cli.add_size("min-bytes", "smallest block per thread (nbytes)", &p.min_bytes);
  cli.add_size("max-bytes", "largest block per thread", &p.max_bytes);
  cli.add_int("step", "size multiplier from one row to the next", &p.step, 2);
  cli.add_size("max-moved", "skip sizes where copies*nbytes exceeds this (0: no limit)", &p.max_moved);
  cli.add_int("root", "root thread of bcast, scatter(v), gather(v), reduce", &p.root, 0);
  cli.add_int("reps", "timed rounds per size; rows give their median, min and max", &p.reps, 1);
  cli.add_real("min-time", "seconds per timed round (sets the calls per round)", &p.min_time);
  cli.add_flag("no-verify", "skip verification", &p.no_verify);
  cli.add_flag("no-bound", "skip the memcpy bound", &p.no_bound);
  cli.add_flag("list", "list the collectives, their Open MPI peers and what nbytes means, and exit", &p.list);
  cli.add_choice("format", "rows as aligned text or one JSON object per line", &p.fmt, {"text", "jsonl"});
  if (const auto status = cli.exit_status(argc, argv, true)) return *status;
  if (p.list) {
    print_list();
    return 0;
  }
  for (const std::string& name : bench::split_list(p.coll)) {
    if (name == "all") {
      for (int c = 0; c < UC_COUNT; ++c) p.colls.push_back(c);
    } else {
      p.colls.push_back(uc_from_name(name.c_str()));
    }
  }
  try {
    upc::launch_options opt = bench::launch_options();
    if (p.root >= opt.threads) {
      std::fprintf(stderr, "upccoll_bench: --root=%lld is not a thread (THREADS=%d)\n", static_cast<long long>(p.root), opt.threads);
      return 2;
    }
    if (p.min_bytes < 1 || p.min_bytes > p.max_bytes) {
      std::fprintf(stderr, "upccoll_bench: need 1 <= --min-bytes <= --max-bytes\n");
      return 2;
    }
    for (const int c : p.colls)
      if (c != UC_BARRIER && sizes(p, c, opt.threads).empty()) {
        std::fprintf(stderr, "upccoll_bench: --max-moved=%s leaves no size for %s at THREADS=%d\n",
                     bench::format_size(p.max_moved).c_str(), uc_names[c], opt.threads);
        return 2;
      }
    const std::uint64_t need = heap_needed(p, opt.threads);
    if (opt.heap_per_thread == 0) {
      opt.heap_per_thread = need;
    } else if (opt.heap_per_thread < need / 2) {
      std::fprintf(stderr, "upccoll_bench: UPCEMU_HEAP=%llu is too small for these sizes at THREADS=%d; need %llu\n",
                   static_cast<unsigned long long>(opt.heap_per_thread), opt.threads, static_cast<unsigned long long>(need / 2));
      return 2;
    }
    return bench::run_spmd(opt, "upccoll_bench:", [&p] { return spmd(p); });
  } catch (const upc::error& e) {
    std::fprintf(stderr, "upccoll_bench: %s\n", e.what());
    return 2;
  }
}
