// remapbench (--kernel=cg: the CG replicated-vector transpose of §4.3 by remap,
// standard and src_ind, and by hand with upc_memget): the NAS FT 3-D transpose
// of seed 004 §4.2 on this machine —
// X2 := X1#[Index3, Index1, Index2] over complex doubles on a 1-D layout —
// by the remap operator with all optimizations and with each one off (the
// paper's NM, NR, ND, NB, NO: Figure 7's time, Figure 5's memory), and by
// hand with upc_memget (each thread fetches the rows it needs from every
// owner and transposes them locally). µs per transpose (latest end - earliest
// start across threads), median/min/max over rounds; the inspector's time
// (paid once, with map saving) and the schedule's bytes per thread (processor
// map, indices, data buckets) beside it; verified.
//
//   UPCEMU_THREADS=4 remapbench --class=S,W --variant=all --format=jsonl
#include <algorithm>
#include <complex>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../../harness/cli.hpp"
#include "../../harness/launch.hpp"
#include "../../harness/report.hpp"
#include "../common/stats.hpp"
#include "../../harness/team.hpp"
#include "upc.h"
#include "upc/remap.hpp"

using namespace upc::remap;
using cplx = std::complex<double>;

namespace {

struct ft_class {
  const char* name;
  long nx, ny, nz;
};
const ft_class classes[] = {{"S", 64, 64, 64}, {"W", 128, 128, 32}, {"A", 256, 256, 128}, {"B", 512, 256, 256}};
const char* const variants[] = {"remap", "NM", "NR", "ND", "NB", "NO", "memget"};

struct params {
  std::string kernel = "ft", cls = "S", variant = "all", fmt = "text";
  std::int64_t reps = 5;
  double min_time = 0.05;
  bool no_verify = false;
};

cplx value(const point& i) { return {static_cast<double>(i[0] * 1000000 + i[1] * 1000 + i[2]), static_cast<double>(i[0] - i[2])}; }

options options_of(const std::string& v) {
  options o = v == "NO" ? options::none() : options{};
  o.dead_source = o.dead_destination = true;  // as NAS FT's transposes: both arrays dead around them
  if (v == "NM" || v == "NO") o.map_saving = false;
  if (v == "NR" || v == "NO") o.compression = false;
  if (v == "ND" || v == "NO") o.direct = false;
  if (v == "NB" || v == "NO") o.reuse = false;
  return o;
}

// The transpose by hand: my rows of X2 (y in my block, all z, all x) from
// every owner's block of X1 (x in its block, all y, all z), one upc_memget
// per x, then a local transpose.
void memget_transpose(darray<cplx>& X2, const darray<cplx>& X1, const ft_class& c, std::vector<cplx>& buf) {
  // LOC ft-upc_memget begin
  upc_barrier;
  const layout::block mine = X2.my_block();
  if (!mine.empty) {
    const long ylo = mine.lo[0], yhi = mine.hi[0], ny_mine = yhi - ylo + 1;
    cplx* to = X2.local();
    buf.resize(static_cast<std::size_t>(ny_mine * c.nz));
    for (int p = 0; p < upc::threads(); ++p) {
      const layout::block theirs = X1.lay().block_of(p);
      if (theirs.empty) continue;
      for (long x = theirs.lo[0]; x <= theirs.hi[0]; ++x) {
        const std::uint64_t first = static_cast<std::uint64_t>(((x - theirs.lo[0]) * c.ny + (ylo - 1)) * c.nz);
        upc::shared_address a = X1.ref().storage.address();
        a.thread = static_cast<std::uint32_t>(p);
        a.offset += first * sizeof(cplx);
        upc_memget(buf.data(), upc::sptr<void>(a), buf.size() * sizeof(cplx));
        for (long y = 0; y < ny_mine; ++y)
          for (long z = 0; z < c.nz; ++z)
            to[static_cast<std::size_t>((y * c.nz + z) * c.nx + (x - 1))] = buf[static_cast<std::size_t>(y * c.nz + z)];
      }
    }
  }
  upc_barrier;
  // LOC ft-upc_memget end
}

// ---- the NAS CG replicated-vector transpose (§4.3) ---------------------------

// NPB CG's vector lengths (na) per class.
struct cg_class {
  const char* name;
  long n;
};
const cg_class cg_classes[] = {{"S", 1400}, {"W", 7000}, {"A", 14000}, {"B", 75000}};

// The one-to-one partner index of Figure 2(c) for grid coordinates (row, col).
long src_ind_of(long n, long rows, long cols, long row, long col) {
  return row * (n / rows) + (col * (n / cols)) % ((n + rows - 1) / rows) + 1;
}

// By hand: my part of W (its column block of 1..n) is one run of the P
// replica that src_ind names: one upc_memget from that thread.
void memget_cg(darray<double>& W, const darray<double>& P, long n) {
  // LOC cg-upc_memget begin
  upc_barrier;
  const grid& g = W.lay().procs();
  const auto c = g.coords_of(upc::mythread());
  const layout::block mine = W.my_block();
  if (!mine.empty) {
    const long src = src_ind_of(n, g[0], g[1], c[0], c[1]);
    const int from = P.lay().owner({mine.lo[1], src, 0, 0});
    const layout::block theirs = P.lay().block_of(from);
    upc::shared_address a = P.ref().storage.address();
    a.thread = static_cast<std::uint32_t>(from);
    a.offset += static_cast<std::uint64_t>(mine.lo[1] - theirs.lo[0]) * sizeof(double);
    upc_memget(W.local(), upc::sptr<void>(a), static_cast<std::size_t>(mine.hi[1] - mine.lo[1] + 1) * sizeof(double));
  }
  upc_barrier;
  // LOC cg-upc_memget end
}

int measure_cg(const params& p) {
  const int T = THREADS, me = MYTHREAD;
  int failures = 0;
  for (const std::string& cname : bench::split_list(p.cls))
    for (const cg_class& c : cg_classes) {
      if (cname != c.name) continue;
      const long n = c.n;
      // LOC cg-remap begin
      const grid g = grid::automatic(2, T);
      darray<double> P({{1, n}, dim::flood(1, n)}, g, "P"), W({dim::flood(1, n), {1, n}}, g, "W");
      const auto at = g.coords_of(me < g.size() ? me : 0);
      const long src_ind = src_ind_of(n, g[0], g[1], at[0], at[1]);
      const map src = expr([src_ind](const point&) { return src_ind; }, 1);
      // (the transpose itself: gather(W, P, {Index2, src}); below)
      // LOC cg-remap end
      bench::report out(bench::parse_format(p.fmt),
                        {{"bench", "remapbench"}, {"backend", bench::backend_name()}, {"threads", T}, {"class", c.name}},
                        {{"transpose", "CG: W := P#[Index2, src_ind] on a " + g.text() + " grid"},
                         {"elements", static_cast<std::uint64_t>(n)},
                         {"reps", p.reps},
                         {"min_time_s", p.min_time}});
      if (me == 0) out.header();
      P.for_each_mine([](const point& i, double& v) { v = 0.5 + static_cast<double>(i[0]); });
      for (const std::string& v : bench::split_list(p.variant))
        for (const char* known : {"remap", "standard", "memget"}) {
          if (v != "all" && v != known) continue;
          const std::string name = known;
          forget_schedules();
          auto once = [&] {
            if (name == "memget") memget_cg(W, P, n);
            else if (name == "standard") gather(W, P, {Index2, Index1});
            else gather(W, P, {Index2, src});
          };
          once();
          const double inspector_us = name == "memget" ? 0 : bench::max_over_threads(last_stats().inspector_seconds) * 1e6;
          std::uint64_t wrong = 0;
          W.for_each_mine([&](const point& i, double& x) { wrong += x != 0.5 + static_cast<double>(i[1]); });
          wrong = static_cast<std::uint64_t>(bench::sum_over_threads(static_cast<double>(wrong)));
          if (wrong) ++failures;
          const auto body = [&](std::int64_t k) {
            for (std::int64_t i = 0; i < k; ++i) once();
          };
          const std::int64_t iters = bench::calibrate_iterations(body, p.min_time, 1, 1 << 22);
          std::vector<double> us;
          for (std::int64_t r = 0; r < p.reps; ++r) us.push_back(bench::span_per_call(body, iters) * 1e6);
          const bench::summary sm = bench::summarize(us);
          const double sources = name == "memget" ? 1 : bench::max_over_threads(static_cast<double>(last_stats().sources));
          if (me == 0)
            out.row({{"variant", "cg-" + name},
                     {"iters", iters},
                     {"min_us", sm.min},
                     {"median_us", sm.median},
                     {"max_us", sm.max},
                     {"inspector_us", inspector_us},
                     {"sources", sources},
                     {"verified", true},
                     {"wrong", wrong}});
        }
    }
  forget_schedules();
  upc_barrier;
  return failures ? 1 : 0;
}

int measure(const params& p) {
  const int T = THREADS, me = MYTHREAD;
  int failures = 0;
  std::vector<cplx> buf;
  for (const std::string& cname : bench::split_list(p.cls))
    for (const ft_class& c : classes) {
      if (cname != c.name) continue;
      // LOC ft-remap begin
      const region XYZ{{1, c.nx}, {1, c.ny}, {1, c.nz}}, YZX{{1, c.ny}, {1, c.nz}, {1, c.nx}};
      darray<cplx> X1(XYZ, grid{T, 1, 1}, "X1"), X2(YZX, grid{T, 1, 1}, "X2");
      // (the transpose itself: gather(X2, X1, {Index3, Index1, Index2}); below)
      // LOC ft-remap end
      bench::report out(bench::parse_format(p.fmt),
                        {{"bench", "remapbench"}, {"backend", bench::backend_name()}, {"threads", T}, {"class", c.name}},
                        {{"transpose", "X2 := X1#[Index3, Index1, Index2], 1-D layout"},
                         {"elements", static_cast<std::uint64_t>(c.nx * c.ny * c.nz)},
                         {"reps", p.reps},
                         {"min_time_s", p.min_time},
                         {"statistic", "per transpose: (latest end - earliest start across threads)/iters; median/min/max over reps"}});
      if (me == 0) out.header();
      for (const std::string& v : bench::split_list(p.variant))
        for (const char* known : variants) {
          if (v != "all" && v != known) continue;
          const std::string name = known;
          const options o = options_of(name);
          forget_schedules();
          X1.for_each_mine([](const point& i, cplx& x) { x = value(i); });
          double inspector_us = 0;
          stats st{};
          auto once = [&] {
            if (name == "memget") memget_transpose(X2, X1, c, buf);
            else gather(X2, X1, {Index3, Index1, Index2}, o);
          };
          once();  // the first: the inspector (unless NM: every call)
          if (name != "memget") {
            st = last_stats();
            inspector_us = bench::max_over_threads(st.inspector_seconds) * 1e6;
          }
          // verification of the first transpose (X1 intact before it)
          std::uint64_t wrong = 0;
          if (!p.no_verify) {
            X2.for_each_mine([&](const point& i, cplx& x) { wrong += x != value({i[2], i[0], i[1]}); });
            wrong = static_cast<std::uint64_t>(bench::sum_over_threads(static_cast<double>(wrong)));
          }
          if (wrong) ++failures;
          const auto body = [&](std::int64_t k) {
            for (std::int64_t i = 0; i < k; ++i) once();
          };
          const std::int64_t iters = bench::calibrate_iterations(body, p.min_time, 1, 1 << 20);
          std::vector<double> us;
          for (std::int64_t r = 0; r < p.reps; ++r) us.push_back(bench::span_per_call(body, iters) * 1e6);
          if (name != "memget") st = last_stats();
          const bench::summary sm = bench::summarize(us);
          const double map_b = bench::max_over_threads(static_cast<double>(st.map_bytes));
          const double index_b = bench::max_over_threads(static_cast<double>(st.index_bytes));
          const double bucket_b = bench::max_over_threads(static_cast<double>(st.bucket_bytes));
          const double runs = bench::max_over_threads(static_cast<double>(st.runs));
          if (me == 0)
            out.row({{"variant", name},
                     {"iters", iters},
                     {"min_us", sm.min},
                     {"median_us", sm.median},
                     {"max_us", sm.max},
                     {"inspector_us", inspector_us},
                     {"map_bytes", map_b},
                     {"index_bytes", index_b},
                     {"bucket_bytes", bucket_b},
                     {"runs", runs},
                     {"verified", !p.no_verify},
                     {"wrong", wrong}});
        }
    }
  forget_schedules();
  upc_barrier;
  return failures ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  params p;
  bench::cli cli("remapbench",
                 "Seed 004's NAS FT 3-D transpose (§4.2, Figures 5 and 7): the remap operator with all\n"
                 "optimizations and each off (NM, NR, ND, NB, NO), and by hand with upc_memget; µs per\n"
                 "transpose, the inspector's time, the schedule's bytes per thread, verified.");
  cli.add_choice("kernel", "ft: the FT 3-D transpose; cg: the CG replicated-vector transpose (§4.3)", &p.kernel, {"ft", "cg"});
  cli.add_choice("class", "NAS classes (comma-separated): FT S 64^3, W 128x128x32, A 256x256x128, B 512x256x256; CG na 1400, 7000, 14000, 75000",
                 &p.cls, {"S", "W", "A", "B"}, true);
  cli.add_choice("variant", "the forms (comma-separated) or all (cg: remap, standard, memget)", &p.variant,
                 {"remap", "NM", "NR", "ND", "NB", "NO", "memget", "standard", "all"}, true);
  cli.add_int("reps", "timed rounds", &p.reps, 1);
  cli.add_real("min-time", "seconds per timed round", &p.min_time);
  cli.add_flag("no-verify", "skip verification", &p.no_verify);
  cli.add_choice("format", "rows as aligned text or one JSON object per line", &p.fmt, {"text", "jsonl"});
  if (const auto status = cli.exit_status(argc, argv, true)) return *status;
  try {
    upc::launch_options opt = bench::launch_options();
    std::uint64_t most = 0;
    for (const std::string& cname : bench::split_list(p.cls))
      for (const ft_class& c : classes)
        if (cname == c.name) most = std::max<std::uint64_t>(most, static_cast<std::uint64_t>(c.nx * c.ny * c.nz) * sizeof(cplx));
    // two arrays, data buckets and index areas, per thread, and room
    if (opt.heap_per_thread == 0) opt.heap_per_thread = 4 * (most / static_cast<std::uint64_t>(opt.threads) + 1) + (64ULL << 20);
    return bench::run_spmd(opt, "remapbench:", [&] { return p.kernel == "cg" ? measure_cg(p) : measure(p); });
  } catch (const upc::error& e) {
    std::fprintf(stderr, "remapbench: %s\n", e.what());
    return 2;
  }
}
