// collbench: the UPC standard collectives (<upc_collective.h>), one collective per
// invocation, every algorithm of the engine's registry or a chosen few, over a range
// of block sizes, verified, with the memcpy bound and the Open MPI peer
// (bench/peers/mpi/coll_mpi.c) measured the same way.
//
//   UPCEMU_THREADS=8 UPCEMU_BACKEND=processes collbench --coll=broadcast --algo=all
//
// Buffers (the layouts of UPC 1.3 §7.4, one allocation each for src and dst, every
// thread's part at the same offset; see coll_model.h for the sizes): broadcast and
// scatter read from the root (--root, default 0), gather writes to it, reduce
// writes one long/double on it; permute uses perm[t] = (t+1) % THREADS.
//
// Timing. For every size: one untimed call (warm-up, and the check that a forced
// algorithm applies), a calibration of the calls per repetition so that one lasts
// about --min-time seconds, then --reps rounds. A round times `iters` back-to-back
// calls: all threads leave a barrier, each notes its start, makes the calls, notes
// its end; the round's time per call is (latest end - earliest start) / iters,
// across threads. After each round the memcpy bound is timed the same way (see
// coll_model.h): min(THREADS, CPUs) threads each making, all at once, the memcpys
// of nbytes between private buffers that their share of the collective's copies
// needs. Rows give min/median/max µs per call, GB/s at the median, bound_us (the
// fastest bound round: a bound is the best the copies can do), ratio_vs_bound =
// bound_us / median µs, and `ran`, upc::coll::last_algorithm() of thread 0.
//
// Verification (on unless --no-verify), after the timed rounds: every destination
// is poisoned, every source gets a fresh pattern, a barrier, one call with the
// flags under test, a barrier, and each thread compares what it owns with what the
// collective must have produced (coll_model.h). Wrong bytes (elements, for the
// reductions) are counted per row and make the exit status 1.
//
// Algorithms are forced with upc::coll::force_algorithm between runs: collbench
// has its own main() and starts one SPMD run (upc::run) per algorithm. A forced
// algorithm that does not apply to a size or THREADS count (the engine throws
// upc::error on the first call) gives a `# skipped` line instead of a row.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "../common/blocks.hpp"
#include "../../harness/cli.hpp"
#include "../../harness/launch.hpp"
#include "../../harness/report.hpp"
#include "../common/stats.hpp"
#include "../../harness/team.hpp"
#include "coll_model.h"
#include "upc.h"
#include "upc/coll.hpp"
#include "upc_collective.h"

namespace {

// Named flag sets: allsync, mysync, nosync (IN and OUT alike) and the mixed
// in_X+out_Y forms.
struct flag_set {
  std::string name;
  upc_flag_t bits;
};
std::vector<flag_set> all_flag_sets() {
  const std::pair<const char*, upc_flag_t> in[] = {
      {"allsync", UPC_IN_ALLSYNC}, {"mysync", UPC_IN_MYSYNC}, {"nosync", UPC_IN_NOSYNC}};
  const std::pair<const char*, upc_flag_t> out[] = {
      {"allsync", UPC_OUT_ALLSYNC}, {"mysync", UPC_OUT_MYSYNC}, {"nosync", UPC_OUT_NOSYNC}};
  std::vector<flag_set> v;
  for (int i = 0; i < 3; ++i) v.push_back({in[i].first, in[i].second | out[i].second});
  for (const auto& a : in)
    for (const auto& b : out) v.push_back({std::string("in_") + a.first + "+out_" + b.first, a.second | b.second});
  return v;
}

struct params {
  std::string coll = "broadcast", algo = "auto", flags = "allsync", type = "long", fmt = "text";
  std::uint64_t min_bytes = 8, max_bytes = 8ULL << 20, max_moved = 0;
  std::int64_t step = 2, reps = 5, root = 0;
  double min_time = 0.01;
  bool no_verify = false, list = false;
  int c = COLL_BROADCAST;
  bool dbl = false;  // type == "double"
  std::vector<std::string> algos;
  std::vector<flag_set> flag_sets;
  std::uint64_t effective_max = 0;  // max_bytes, lowered by --max-moved
};

std::uint64_t elem_size(const params& p) { return p.dbl ? sizeof(double) : sizeof(long); }

// nbytes as the collective sees it: whole elements for the reductions.
std::uint64_t effective_bytes(const params& p, std::uint64_t nbytes) {
  if (!coll_is_reduction(p.c)) return nbytes;
  const std::uint64_t e = elem_size(p);
  return std::max<std::uint64_t>(1, nbytes / e) * e;
}

std::vector<std::uint64_t> sizes(const params& p) {
  std::vector<std::uint64_t> v;
  for (std::uint64_t s = p.min_bytes; s <= p.effective_max;) {
    v.push_back(s);
    if (s > p.effective_max / static_cast<std::uint64_t>(p.step)) break;
    s *= static_cast<std::uint64_t>(p.step);
  }
  return v;
}

using bench::on_thread;

// Everything one SPMD run uses.
struct state {
  const params* p = nullptr;
  int root = 0;
  std::size_t src_block = 0, dst_block = 0;  // bytes per thread of each allocation
  upc::sptr<void> src_base, dst_base, perm_base;
  std::vector<unsigned char> copy_src, copy_dst, scratch;  // private: memcpy bound, verification
  unsigned char* my_src() const { return static_cast<unsigned char*>(on_thread(src_base, MYTHREAD, src_block).local()); }
  unsigned char* my_dst() const { return static_cast<unsigned char*>(on_thread(dst_base, MYTHREAD, dst_block).local()); }
};

template <class T>
void reduce_call(const state& s, std::uint64_t nbytes, upc_flag_t flags, bool prefix) {
  const std::size_t blk = nbytes / sizeof(T);
  const std::size_t nelems = blk * static_cast<std::size_t>(THREADS);
  if constexpr (std::is_same_v<T, long>) {
    if (prefix) upc_all_prefix_reduceL(s.dst_base, s.src_base, UPC_ADD, nelems, blk, nullptr, flags);
    else upc_all_reduceL(on_thread(s.dst_base, s.root, s.dst_block), s.src_base, UPC_ADD, nelems, blk, nullptr, flags);
  } else {
    if (prefix) upc_all_prefix_reduceD(s.dst_base, s.src_base, UPC_ADD, nelems, blk, nullptr, flags);
    else upc_all_reduceD(on_thread(s.dst_base, s.root, s.dst_block), s.src_base, UPC_ADD, nelems, blk, nullptr, flags);
  }
}

// One call of the collective under test.
void call(const state& s, std::uint64_t nbytes, upc_flag_t flags) {
  const auto root_src = [&] { return on_thread(s.src_base, s.root, s.src_block); };
  switch (s.p->c) {
    case COLL_BROADCAST: upc_all_broadcast(s.dst_base, root_src(), nbytes, flags); break;
    case COLL_SCATTER: upc_all_scatter(s.dst_base, root_src(), nbytes, flags); break;
    case COLL_GATHER: upc_all_gather(on_thread(s.dst_base, s.root, s.dst_block), s.src_base, nbytes, flags); break;
    case COLL_GATHER_ALL: upc_all_gather_all(s.dst_base, s.src_base, nbytes, flags); break;
    case COLL_EXCHANGE: upc_all_exchange(s.dst_base, s.src_base, nbytes, flags); break;
    case COLL_PERMUTE:
      upc_all_permute(s.dst_base, s.src_base, upc::sptr<const int>(s.perm_base.address()), nbytes, flags);
      break;
    case COLL_REDUCE:
    case COLL_PREFIX_REDUCE:
      if (s.p->dbl) reduce_call<double>(s, nbytes, flags, s.p->c == COLL_PREFIX_REDUCE);
      else reduce_call<long>(s, nbytes, flags, s.p->c == COLL_PREFIX_REDUCE);
      break;
  }
}

// n rounds of the memcpy bound: the first `copiers` threads each make k copies of
// nbytes through m block pairs of their private buffers (coll_model.h).
void bound_rounds(state& s, std::uint64_t nbytes, int copiers, std::uint64_t k, std::uint64_t m, std::int64_t n) {
  if (MYTHREAD >= copiers) return;
  for (std::int64_t i = 0; i < n; ++i) {
    coll_bound_copies(s.copy_dst.data(), s.copy_src.data(), nbytes, k, m);
    bench::clobber();
  }
}

// Fills the sources this thread owns for seed, poisons its destinations.
void prepare(state& s, std::uint64_t nbytes, std::uint64_t seed) {
  const int me = MYTHREAD, T = THREADS;
  const int c = s.p->c;
  std::memset(s.my_dst(), COLL_POISON_BYTE, coll_dst_bytes(c, T, nbytes));
  unsigned char* src = s.my_src();
  if (coll_is_reduction(c)) {
    const std::uint64_t n = nbytes / elem_size(*s.p);
    for (std::uint64_t k = 0; k < n; ++k) {
      const long v = coll_reduce_value(seed, me, k);
      if (s.p->dbl) reinterpret_cast<double*>(src)[k] = static_cast<double>(v);
      else reinterpret_cast<long*>(src)[k] = v;
    }
    return;
  }
  if ((c == COLL_BROADCAST || c == COLL_SCATTER) && me != s.root) return;
  coll_fill_pattern(src, coll_src_bytes(c, T, nbytes), seed, me, 0);
}

// For a failed check: prints the first wrong byte of dst[0, n) (block `block` of
// this thread's destination) with what was expected.
void report_first_wrong(const char* coll, const unsigned char* dst, std::size_t n, std::uint64_t seed, int writer,
                        std::uint64_t start, int block, unsigned char* scratch) {
  coll_fill_pattern(scratch, n, seed, writer, start);
  for (std::size_t k = 0; k < n; ++k)
    if (dst[k] != scratch[k]) {
      std::fprintf(stderr, "collbench: %s: thread %d, destination block %d, byte %zu: expected 0x%02x (byte %llu of thread %d's data), got 0x%02x\n",
                   coll, MYTHREAD, block, k, scratch[k], static_cast<unsigned long long>(start + k), writer, dst[k]);
      return;
    }
}

// Wrong bytes (elements for the reductions) in the destinations this thread owns;
// the first one found is described on stderr.
std::uint64_t check(state& s, std::uint64_t nbytes, std::uint64_t seed) {
  bool reported = false;
  const auto count = [&](const unsigned char* dst, std::uint64_t n, int writer, std::uint64_t start, int block) {
    const std::uint64_t w = coll_count_wrong(dst, n, seed, writer, start, s.scratch.data());
    if (w && !reported) {
      report_first_wrong(s.p->coll.c_str(), dst, n, seed, writer, start, block, s.scratch.data());
      reported = true;
    }
    return w;
  };
  const int me = MYTHREAD, T = THREADS, root = s.root;
  const unsigned char* dst = s.my_dst();
  const std::uint64_t n = nbytes;
  switch (s.p->c) {
    case COLL_BROADCAST: return count(dst, n, root, 0, 0);
    case COLL_SCATTER: return count(dst, n, root, static_cast<std::uint64_t>(me) * n, 0);
    case COLL_GATHER:
    case COLL_GATHER_ALL: {
      if (s.p->c == COLL_GATHER && me != root) return 0;
      std::uint64_t wrong = 0;
      for (int t = 0; t < T; ++t) wrong += count(dst + t * n, n, t, 0, t);
      return wrong;
    }
    case COLL_EXCHANGE: {  // block t of mine is block `me` of thread t's source
      std::uint64_t wrong = 0;
      for (int t = 0; t < T; ++t) wrong += count(dst + t * n, n, t, static_cast<std::uint64_t>(me) * n, t);
      return wrong;
    }
    case COLL_PERMUTE: {
      int from = 0;
      for (int t = 0; t < T; ++t)
        if (coll_permute_target(t, T) == me) from = t;
      return count(dst, n, from, 0, 0);
    }
    case COLL_REDUCE:
    case COLL_PREFIX_REDUCE: {
      const std::uint64_t ne = n / elem_size(*s.p);
      const bool dbl = s.p->dbl;
      const auto at = [&](std::uint64_t k) {
        return dbl ? reinterpret_cast<const double*>(dst)[k] : static_cast<double>(reinterpret_cast<const long*>(dst)[k]);
      };
      const auto wrong_element = [&](std::uint64_t k, long expected) {
        if (!reported)
          std::fprintf(stderr, "collbench: %s: thread %d, element %llu of its block: expected %ld, got %.17g\n",
                       s.p->coll.c_str(), me, static_cast<unsigned long long>(k), expected, at(k));
        reported = true;
        return std::uint64_t{1};
      };
      if (s.p->c == COLL_REDUCE) {
        if (me != root) return 0;
        long expected = 0;
        for (int t = 0; t < T; ++t) expected += coll_block_sum(seed, t, ne);
        return at(0) == static_cast<double>(expected) ? 0 : wrong_element(0, expected);
      }
      long running = 0;  // everything before my block, in the blocked layout's order
      for (int t = 0; t < me; ++t) running += coll_block_sum(seed, t, ne);
      std::uint64_t wrong = 0;
      for (std::uint64_t k = 0; k < ne; ++k) {
        running += coll_reduce_value(seed, me, k);
        if (at(k) != static_cast<double>(running)) wrong += wrong_element(k, running);
      }
      return wrong;
    }
  }
  return 0;
}

// The SPMD body of one run: every size and flag set for one algorithm.
int run_algorithm(const params& p, const std::string& algo) {
  state s;
  s.p = &p;
  s.root = static_cast<int>(p.root);
  const int T = THREADS;
  const int cpus = bench::usable_cpus();
  const int copiers = std::min(T, cpus);
  s.src_block = coll_src_bytes(p.c, T, p.effective_max);
  s.dst_block = coll_dst_bytes(p.c, T, p.effective_max);
  s.src_base = upc_all_alloc(static_cast<std::size_t>(T), s.src_block);
  s.dst_base = upc_all_alloc(static_cast<std::size_t>(T), s.dst_block);
  s.perm_base = upc_all_alloc(static_cast<std::size_t>(T), sizeof(int));
  *static_cast<int*>(on_thread(s.perm_base, MYTHREAD, sizeof(int)).local()) = coll_permute_target(MYTHREAD, T);
  // The bound's private buffers (copiers only), then every page touched before timing.
  const std::uint64_t bound_k = coll_bound_copies_per_copier(p.c, T, cpus);
  std::uint64_t bound_bytes = 0;
  for (const std::uint64_t n : sizes(p)) {
    const std::uint64_t e = effective_bytes(p, n);
    bound_bytes = std::max(bound_bytes, coll_bound_blocks(bound_k, e) * e);
  }
  if (MYTHREAD < copiers) {
    s.copy_src.assign(bound_bytes, 1);
    s.copy_dst.assign(bound_bytes, 2);
  }
  s.scratch.assign(std::max(p.effective_max, std::uint64_t{16}), 3);
  std::memset(s.my_src(), 4, s.src_block);
  std::memset(s.my_dst(), 5, s.dst_block);
  upc::barrier();

  std::string flag_names;
  for (const auto& f : p.flag_sets) flag_names += (flag_names.empty() ? "" : ",") + f.name;
  bench::report out(bench::parse_format(p.fmt),
                    {{"bench", "collbench"}, {"backend", bench::backend_name()}, {"threads", T}, {"coll", p.coll}},
                    {{"algo", algo},
                     {"flags", flag_names},
                     {"type", coll_is_reduction(p.c) ? p.type : std::string("byte")},
                     {"op", coll_is_reduction(p.c) ? "UPC_ADD" : "none"},
                     {"root", p.root},
                     {"min_bytes", p.min_bytes},
                     {"max_bytes", p.effective_max},
                     {"step", p.step},
                     {"reps", p.reps},
                     {"min_time_s", p.min_time},
                     {"bound_copiers", copiers},
                     {"bound", "fastest round of min(THREADS,CPUs) threads each making ceil(copies/that) memcpys of nbytes at once"},
                     {"statistic", "per call: (latest end - earliest start across threads)/iters; median/min/max over reps"},
                     {"verify", !p.no_verify}});
  if (MYTHREAD == 0) out.header();

  std::uint64_t total_wrong = 0, seed = 1;
  for (const flag_set& f : p.flag_sets) {
    for (const std::uint64_t requested : sizes(p)) {
      const std::uint64_t nbytes = effective_bytes(p, requested);
      ++seed;
      // The untimed first call: warm-up, and whether a forced algorithm applies.
      std::string why;
      try {
        call(s, nbytes, f.bits);
      } catch (const upc::error& e) {
        why = e.what();
      }
      if (!bench::all_threads(why.empty())) {
        if (MYTHREAD == 0)
          out.note("skipped: algo=" + algo + " flags=" + f.name + " nbytes=" + std::to_string(nbytes) + ": " +
                   (why.empty() ? std::string("another thread failed") : why));
        continue;
      }
      upc::barrier();

      const auto coll_body = [&](std::int64_t n) {
        for (std::int64_t i = 0; i < n; ++i) call(s, nbytes, f.bits);
      };
      const std::uint64_t bound_m = coll_bound_blocks(bound_k, nbytes);
      const auto copy_body = [&](std::int64_t n) { bound_rounds(s, nbytes, copiers, bound_k, bound_m, n); };
      const std::uint64_t moved = coll_copies(p.c, T) * nbytes;
      const std::int64_t cap = static_cast<std::int64_t>(std::max<std::uint64_t>(1, (16ULL << 30) / moved));
      const std::int64_t iters = bench::calibrate_iterations(coll_body, p.min_time, 1, cap);
      const std::int64_t copy_iters = bench::calibrate_iterations(copy_body, p.min_time / 2, 1, cap);

      std::vector<double> us, bound_us;
      for (std::int64_t r = 0; r < p.reps; ++r) {
        us.push_back(bench::span_per_call(coll_body, iters) * 1e6);
        bound_us.push_back(bench::span_per_call(copy_body, copy_iters) * 1e6);
      }
      const std::string ran = upc::coll::last_algorithm();

      std::uint64_t wrong = 0;
      if (!p.no_verify) {
        prepare(s, nbytes, seed);
        upc::barrier();
        call(s, nbytes, f.bits);
        upc::barrier();
        wrong = static_cast<std::uint64_t>(bench::sum_over_threads(static_cast<double>(check(s, nbytes, seed))));
        total_wrong += wrong;
      }
      const bench::summary st = bench::summarize(us);
      if (MYTHREAD == 0) {
        out.row({{"algo", algo},
                 {"ran", ran},
                 {"flags", f.name},
                 {"type", coll_is_reduction(p.c) ? p.type : std::string("byte")},
                 {"nbytes", nbytes},
                 {"nelems", coll_is_reduction(p.c) ? nbytes / elem_size(p) * static_cast<std::uint64_t>(T) : std::uint64_t{0}},
                 {"iters", iters},
                 {"min_us", st.min},
                 {"median_us", st.median},
                 {"max_us", st.max},
                 {"gbps", static_cast<double>(moved) / (st.median * 1e-6) * 1e-9},
                 {"bound_us", bench::summarize(bound_us).min},
                 {"ratio_vs_bound", bench::summarize(bound_us).min / st.median},
                 {"verified", !p.no_verify},
                 {"wrong", wrong}});
        if (wrong)
          std::fprintf(stderr, "collbench: %s algo=%s (ran %s) flags=%s nbytes=%llu THREADS=%d: %llu %s wrong\n",
                       p.coll.c_str(), algo.c_str(), ran.c_str(), f.name.c_str(), static_cast<unsigned long long>(nbytes),
                       T, static_cast<unsigned long long>(wrong), coll_is_reduction(p.c) ? "elements" : "bytes");
      }
    }
  }
  upc::barrier();
  upc_all_free(s.perm_base);
  upc_all_free(s.dst_base);
  upc_all_free(s.src_base);
  return total_wrong ? 1 : 0;
}

// Shared heap per thread that a run of these parameters needs.
std::uint64_t heap_needed(const params& p, int threads) {
  return coll_src_bytes(p.c, threads, p.effective_max) + coll_dst_bytes(p.c, threads, p.effective_max) + (4ULL << 20);
}

}  // namespace

int main(int argc, char** argv) {
  params p;
  std::vector<std::string> coll_choices(coll_names, coll_names + COLL_COUNT);
  std::vector<std::string> flag_choices;
  for (const auto& f : all_flag_sets()) flag_choices.push_back(f.name);
  bench::cli cli("collbench",
                 "The UPC standard collectives: µs per call (slowest thread: latest end - earliest start), GB/s,\n"
                 "and the ratio to the memcpy bound measured in the same run, per block size; results\n"
                 "verified. --algo takes registry names (see --list-algorithms), auto, or all (every\n"
                 "registered algorithm), comma-separated; each algorithm is one SPMD run. --flags takes\n"
                 "allsync, mysync, nosync or in_X+out_Y, comma-separated. The shared heap is sized from\n"
                 "the parameters unless UPCEMU_HEAP is set.");
  cli.add_choice("coll", "the collective", &p.coll, coll_choices);
  cli.add_choice("algo", "algorithms to run", &p.algo, {}, true);
  cli.add_size("min-bytes", "smallest block per thread (nbytes)", &p.min_bytes);
  cli.add_size("max-bytes", "largest block per thread", &p.max_bytes);
  cli.add_int("step", "size multiplier from one row to the next", &p.step, 2);
  cli.add_size("max-moved", "skip sizes where copies*nbytes exceeds this (0: no limit)", &p.max_moved);
  cli.add_choice("flags", "sync flag sets to run", &p.flags, flag_choices, true);
  cli.add_choice("type", "element type of reduce / prefix_reduce (UPC_ADD)", &p.type, {"long", "double"});
  cli.add_int("root", "root thread of broadcast, scatter, gather, reduce", &p.root, 0);
  cli.add_int("reps", "timed rounds per size; rows give their median, min and max", &p.reps, 1);
  cli.add_real("min-time", "seconds per timed round (sets the calls per round)", &p.min_time);
  cli.add_flag("no-verify", "skip verification", &p.no_verify);
  cli.add_flag("list-algorithms", "print the registered algorithms of --coll and exit", &p.list);
  cli.add_choice("format", "rows as aligned text or one JSON object per line", &p.fmt, {"text", "jsonl"});
  if (const auto status = cli.exit_status(argc, argv, true)) return *status;
  p.c = coll_from_name(p.coll.c_str());
  p.dbl = p.type == "double";

  try {
    if (p.list) {
      for (const std::string& a : upc::coll::algorithms(p.coll)) std::printf("%s\n", a.c_str());
      return 0;
    }
    for (const std::string& a : bench::split_list(p.algo)) {
      if (a == "all") {
        for (const std::string& r : upc::coll::algorithms(p.coll)) p.algos.push_back(r);
      } else {
        p.algos.push_back(a);
      }
    }
    const auto known = all_flag_sets();
    for (const std::string& name : bench::split_list(p.flags))
      for (const auto& f : known)
        if (f.name == name) p.flag_sets.push_back(f);

    upc::launch_options opt = bench::launch_options();
    if (p.root >= opt.threads) {
      std::fprintf(stderr, "collbench: --root=%lld is not a thread (THREADS=%d)\n", static_cast<long long>(p.root), opt.threads);
      return 2;
    }
    const std::uint64_t e = coll_is_reduction(p.c) ? elem_size(p) : 1;
    if (p.min_bytes < e || p.min_bytes > p.max_bytes) {
      std::fprintf(stderr, "collbench: need %llu <= --min-bytes <= --max-bytes\n", static_cast<unsigned long long>(e));
      return 2;
    }
    p.effective_max = p.max_bytes;
    const std::uint64_t copies = coll_copies(p.c, opt.threads);
    if (p.max_moved) {
      std::uint64_t s = p.min_bytes, last = 0;
      for (; s <= p.max_bytes && s * copies <= p.max_moved; s *= static_cast<std::uint64_t>(p.step)) last = s;
      if (last == 0) {
        std::fprintf(stderr, "collbench: --max-moved=%llu leaves no size (copies per call: %llu)\n",
                     static_cast<unsigned long long>(p.max_moved), static_cast<unsigned long long>(copies));
        return 2;
      }
      p.effective_max = last;
    }
    const std::uint64_t need = heap_needed(p, opt.threads);
    if (opt.heap_per_thread == 0) {
      opt.heap_per_thread = need;
    } else if (opt.heap_per_thread < need) {
      std::fprintf(stderr, "collbench: UPCEMU_HEAP=%llu is too small for --coll=%s --max-bytes=%s at THREADS=%d; need %llu\n",
                   static_cast<unsigned long long>(opt.heap_per_thread), p.coll.c_str(),
                   bench::format_size(p.effective_max).c_str(), opt.threads, static_cast<unsigned long long>(need));
      return 2;
    }
    if (p.effective_max < p.max_bytes)
      std::printf("# sizes above %s skipped: --max-moved=%s with %llu blocks per call at THREADS=%d\n",
                  bench::format_size(p.effective_max).c_str(), bench::format_size(p.max_moved).c_str(),
                  static_cast<unsigned long long>(copies), opt.threads);
    std::fflush(stdout);

    int status = 0;
    for (const std::string& algo : p.algos) {
      upc::coll::force_algorithm(p.coll, algo);
      const std::string what = "collbench: --coll=" + p.coll + " --algo=" + algo;
      if (bench::run_spmd(opt, what, [&p, &algo] { return run_algorithm(p, algo); })) status = 1;
    }
    upc::coll::reset_algorithms();
    return status;
  } catch (const upc::error& e) {
    std::fprintf(stderr, "collbench: %s\n", e.what());
    return 2;
  }
}
