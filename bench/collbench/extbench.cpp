// extbench: the thesis's Figures 3.12-3.14 on this machine (seed 003 §3.5):
// upc_all_broadcast_in_place, upc_all_scatter_v and upc_all_exchange_in_place,
// each written four ways, timed like collbench (µs per call: latest end -
// earliest start across threads, median/min/max over rounds), verified:
//   original  the standard collective plus the copies a user would write
//             (into a second array, then memcpy into place)
//   base      the same job with plain UPC: upc_memget of what a thread needs,
//             between two upc_barrier
//   extended  the extended collective on a shared array
//   priv      its _priv form on private buffers
// Open MPI's counterparts (MPI_Bcast, MPI_Scatterv, MPI_Alltoall with
// MPI_IN_PLACE) are bench/peers/mpi/ext_mpi.c, timed the same way. Sync flags
// are ALLSYNC (0) everywhere; the root is thread 0.
//
//   UPCEMU_THREADS=4 extbench --bench=all --min-bytes=4K --max-bytes=8M --format=jsonl
//
// nbytes: bcast: the bytes broadcast; scatter_v: the bytes each thread receives
// (equal counts, each thread's chunk at displacement 8 in its block); exchange:
// the bytes of each (sender, receiver) piece.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "../../harness/cli.hpp"
#include "../../harness/launch.hpp"
#include "../../harness/report.hpp"
#include "../common/stats.hpp"
#include "../../harness/team.hpp"
#include "upc.h"
#include "upc_collective_ext.h"

namespace {

const char* const benches[] = {"bcast", "scatter_v", "exchange"};
const char* const variants[] = {"original", "base", "extended", "priv"};
constexpr std::uint64_t disp = 8;  // scatter_v: each chunk's offset in its block

struct params {
  std::string bench = "all", variant = "all", fmt = "text";
  std::uint64_t min_bytes = 4096, max_bytes = 8ULL << 20, max_moved = 0;
  std::int64_t step = 2, reps = 5;
  double min_time = 0.01;
  bool no_verify = false;
};

// Bytes of a thread's buffer (and of the second array of the original form).
std::uint64_t block_bytes(int b, std::uint64_t n, int T) {
  if (b == 0) return n;
  if (b == 1) return std::max<std::uint64_t>(n * static_cast<std::uint64_t>(T), n + disp);
  return n * static_cast<std::uint64_t>(T);
}
std::uint64_t moved(int b, std::uint64_t n, int T) {
  return b == 2 ? n * static_cast<std::uint64_t>(T) * static_cast<std::uint64_t>(T) : n * static_cast<std::uint64_t>(T);
}

std::vector<std::uint64_t> sizes(const params& p, int b, int T) {
  std::vector<std::uint64_t> v;
  for (std::uint64_t n = p.min_bytes; n <= p.max_bytes; n *= static_cast<std::uint64_t>(p.step)) {
    if (p.max_moved && moved(b, n, T) > p.max_moved) break;
    v.push_back(n);
    if (p.step < 2) break;
  }
  return v;
}

unsigned char value(int b, int thread, std::uint64_t i, std::uint64_t seed) {
  return static_cast<unsigned char>((thread * 131 + b * 7 + i * 29 + seed * 3) & 0xff);
}

struct state {
  const params* p;
  upc::sptr<void> buf_base, tmp_base, src_base;  // shared: the buffer, the original's second array, scatter's source
  unsigned char *buf = nullptr, *tmp = nullptr, *src = nullptr;  // my blocks
  std::vector<unsigned char> pbuf, psrc;         // private forms
  upc::shared_array<int>* ddisp = nullptr;
  upc::shared_array<size_t>* counts = nullptr;
};

unsigned char* mine(upc::sptr<void> base) { return reinterpret_cast<unsigned char*>((upc::sptr<char>(base) + MYTHREAD).local()); }
upc::sptr<void> block(upc::sptr<void> base, int t) { return upc::sptr<void>(upc::sptr<char>(base) + t); }

void call(state& s, int b, int v, std::uint64_t n) {
  const int T = THREADS, me = MYTHREAD;
  const upc_flag_t f = 0;
  switch (b) {
    case 0:  // bcast in place from thread 0's block
      if (v == 0) {
        upc_all_broadcast(s.tmp_base, s.buf_base, n, f);
        if (me != 0) std::memcpy(s.buf, s.tmp, n);
      } else if (v == 1) {
        upc_barrier;
        if (me != 0) upc_memget(s.buf, s.buf_base, n);
        upc_barrier;
      } else if (v == 2) {
        upc_all_broadcast_in_place(s.buf_base, n, f);
      } else {
        upc_all_broadcast_in_place_priv(s.pbuf.data(), n, f);
      }
      break;
    case 1:  // scatter_v: n bytes to each thread, at byte `disp` of its block
      if (v == 0) {
        upc_all_scatter(s.tmp_base, s.src_base, n, f);
        std::memmove(s.buf + disp, s.tmp, n);
      } else if (v == 1) {
        upc_barrier;
        upc_memget(s.buf + disp, upc::sptr<void>(upc::sptr<char, upc::indefinite>(s.src_base) + static_cast<std::ptrdiff_t>(n * me)), n);
        upc_barrier;
      } else if (v == 2) {
        upc_all_scatter_v(s.buf_base, s.src_base, *s.ddisp, *s.counts, block_bytes(1, n, T), n * T, 1, f);
      } else {
        upc_all_scatter_v_priv(s.pbuf.data(), s.psrc.data(), *s.ddisp, *s.counts, block_bytes(1, n, T), 1, f);
      }
      break;
    case 2:  // exchange in place
      if (v == 0) {
        upc_all_exchange(s.tmp_base, s.buf_base, n, f);
        std::memcpy(s.buf, s.tmp, n * T);
      } else if (v == 1) {
        upc_barrier;
        for (int j = 0; j < T; ++j)
          upc_memget(s.tmp + n * j,
                     upc::sptr<void>(upc::sptr<char, upc::indefinite>(block(s.buf_base, j)) + static_cast<std::ptrdiff_t>(n * me)), n);
        upc_barrier;
        std::memcpy(s.buf, s.tmp, n * T);
      } else if (v == 2) {
        upc_all_exchange_in_place(s.buf_base, n, f);
      } else {
        upc_all_exchange_in_place_priv(s.pbuf.data(), n, f);
      }
      break;
  }
}

// Fresh data, one call, my bytes checked; returns the wrong bytes of this thread.
std::uint64_t verify(state& s, int b, int v, std::uint64_t n, std::uint64_t seed) {
  const int T = THREADS, me = MYTHREAD;
  const std::uint64_t B = block_bytes(b, n, T);
  unsigned char* buf = v == 3 ? s.pbuf.data() : s.buf;
  for (std::uint64_t i = 0; i < B; ++i) buf[i] = value(b, me, i, seed);
  if (b == 1) {
    unsigned char* src = v == 3 ? s.psrc.data() : s.src;
    for (std::uint64_t i = 0; i < n * T; ++i) src[i] = value(b, 100 + me, i, seed);
  }
  upc_barrier;
  call(s, b, v, n);
  upc_barrier;
  std::uint64_t wrong = 0;
  for (std::uint64_t i = 0; i < (b == 1 ? n : B); ++i) {
    unsigned char want;
    if (b == 0) want = value(b, 0, i, seed);
    else if (b == 1) want = value(b, 100, n * me + i, seed);
    else want = value(b, static_cast<int>(i / n), n * me + i % n, seed);
    if (buf[(b == 1 ? disp : 0) + i] != want) ++wrong;
  }
  return wrong;
}

int measure(const params& p, const std::vector<int>& bs, const std::vector<int>& vs) {
  state s;
  s.p = &p;
  const int T = THREADS, me = MYTHREAD;
  std::uint64_t most = 64;
  for (int b : bs)
    for (std::uint64_t n : sizes(p, b, T)) most = std::max(most, block_bytes(b, n, T));
  s.buf_base = upc_all_alloc(static_cast<size_t>(T), most);
  s.tmp_base = upc_all_alloc(static_cast<size_t>(T), most);
  s.src_base = upc_all_alloc(static_cast<size_t>(T), most);
  s.buf = mine(s.buf_base);
  s.tmp = mine(s.tmp_base);
  s.src = mine(s.src_base);
  s.pbuf.assign(most, 1);
  s.psrc.assign(most, 2);
  std::memset(s.buf, 3, most);
  std::memset(s.tmp, 4, most);
  std::memset(s.src, 5, most);
  upc::shared_array<int> ddisp{upc::per_thread(1)};
  upc::shared_array<size_t> counts{upc::per_thread(1)};
  s.ddisp = &ddisp;
  s.counts = &counts;
  upc_barrier;
  std::uint64_t total_wrong = 0, seed = 1;
  for (int b : bs) {
    // (the scatter source is thread 0's block: s.src_base is on thread 0)
    for (int v : vs) {
      bench::report out(bench::parse_format(p.fmt),
                        {{"bench", "extbench"}, {"backend", bench::backend_name()}, {"threads", T}, {"coll", benches[b]}},
                        {{"variant", variants[v]},
                         {"flags", "allsync"},
                         {"root", 0},
                         {"reps", p.reps},
                         {"min_time_s", p.min_time},
                         {"statistic", "per call: (latest end - earliest start across threads)/iters; median/min/max over reps"},
                         {"verify", !p.no_verify}});
      if (me == 0) out.header();
      for (std::uint64_t n : sizes(p, b, T)) {
        ++seed;
        if (b == 1) {  // counts and displacements (bytes)
          ddisp[me] = static_cast<int>(me * block_bytes(1, n, T) + disp);
          counts[me] = n;
          upc_barrier;
        }
        call(s, b, v, n);  // warm-up
        upc_barrier;
        const auto body = [&](std::int64_t k) {
          for (std::int64_t i = 0; i < k; ++i) call(s, b, v, n);
        };
        const std::int64_t cap = static_cast<std::int64_t>(std::max<std::uint64_t>(1, (8ULL << 30) / moved(b, n, T)));
        const std::int64_t iters = bench::calibrate_iterations(body, p.min_time, 1, cap);
        std::vector<double> us;
        for (std::int64_t r = 0; r < p.reps; ++r) us.push_back(bench::span_per_call(body, iters) * 1e6);
        std::uint64_t wrong = 0;
        if (!p.no_verify) wrong = static_cast<std::uint64_t>(bench::sum_over_threads(static_cast<double>(verify(s, b, v, n, seed))));
        total_wrong += wrong;
        const bench::summary st = bench::summarize(us);
        if (me == 0)
          out.row({{"variant", variants[v]},
                   {"nbytes", n},
                   {"iters", iters},
                   {"min_us", st.min},
                   {"median_us", st.median},
                   {"max_us", st.max},
                   {"gbps", static_cast<double>(moved(b, n, T)) / (st.median * 1e-6) * 1e-9},
                   {"verified", !p.no_verify},
                   {"wrong", wrong}});
      }
    }
  }
  upc_barrier;
  return total_wrong ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  params p;
  bench::cli cli("extbench",
                 "The extended collectives of seed 003 against the standard ones and plain UPC (Figures\n"
                 "3.12-3.14): upc_all_broadcast_in_place, upc_all_scatter_v, upc_all_exchange_in_place, each\n"
                 "as original (standard collective + copies), base (upc_memget + barriers), extended and priv;\n"
                 "µs per call, median/min/max over rounds, verified. Open MPI's peer: ext_mpi.");
  cli.add_choice("bench", "the benchmarks (comma-separated) or all", &p.bench, {"bcast", "scatter_v", "exchange", "all"}, true);
  cli.add_choice("variant", "the forms (comma-separated) or all", &p.variant, {"original", "base", "extended", "priv", "all"}, true);
  cli.add_size("min-bytes", "smallest nbytes", &p.min_bytes);
  cli.add_size("max-bytes", "largest nbytes", &p.max_bytes);
  cli.add_int("step", "size multiplier from one row to the next", &p.step, 2);
  cli.add_size("max-moved", "skip sizes moving more bytes than this in one call (0: no limit)", &p.max_moved);
  cli.add_int("reps", "timed rounds per size", &p.reps, 1);
  cli.add_real("min-time", "seconds per timed round", &p.min_time);
  cli.add_flag("no-verify", "skip verification", &p.no_verify);
  cli.add_choice("format", "rows as aligned text or one JSON object per line", &p.fmt, {"text", "jsonl"});
  if (const auto status = cli.exit_status(argc, argv, true)) return *status;
  std::vector<int> bs, vs;
  for (const std::string& name : bench::split_list(p.bench))
    for (int b = 0; b < 3; ++b)
      if (name == "all" || name == benches[b]) bs.push_back(b);
  for (const std::string& name : bench::split_list(p.variant))
    for (int v = 0; v < 4; ++v)
      if (name == "all" || name == variants[v]) vs.push_back(v);
  try {
    upc::launch_options opt = bench::launch_options();
    std::uint64_t most = 64;
    for (int b : bs)
      for (std::uint64_t n : sizes(p, b, opt.threads)) most = std::max(most, block_bytes(b, n, opt.threads));
    if (opt.heap_per_thread == 0) opt.heap_per_thread = 5 * most + (16ULL << 20);  // three arrays, scratch, staging
    return bench::run_spmd(opt, "extbench:", [&] { return measure(p, bs, vs); });
  } catch (const upc::error& e) {
    std::fprintf(stderr, "extbench: %s\n", e.what());
    return 2;
  }
}
