// Bandwidth of upc_memcpy, upc_memget and upc_memput, from 8 B to 64 MiB, against
// plain std::memcpy between private buffers of the same size in the same run.
//
// Every thread transfers at once. "local": both sides in the calling thread's own
// partition (memget/memput: the shared side is local). "remote": the shared side is
// in the partition of the next thread, (MYTHREAD+1) % THREADS; upc_memcpy copies
// from the caller's partition into the neighbour's. "private" is the std::memcpy
// baseline. For each size, each test is calibrated so that one repetition
// (`iters` transfers) lasts about --min-time seconds; then --reps rounds run every
// test once, in rotating order, so the baseline and the operations share the
// machine's state of the moment. A repetition's bandwidth is size*iters over the
// slowest thread's time. Rows give median/min/max GB/s (10^9 B/s, per thread) and
// ratio_vs_memcpy: the median over rounds of (this test / the baseline, same round).
//
// Verification (always on): after the timed rounds, each test fills its source
// with a pattern unique to that test, size and writer, transfers once, and the
// owner of every destination checks all `size` bytes.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../../harness/cli.hpp"
#include "../../harness/report.hpp"
#include "../common/stats.hpp"
#include "../../harness/team.hpp"
#include "upc.h"

namespace {

enum class op { std_memcpy, upc_memcpy, upc_memget, upc_memput };
const char* op_name(op o) {
  switch (o) {
    case op::std_memcpy: return "memcpy";
    case op::upc_memcpy: return "upc_memcpy";
    case op::upc_memget: return "upc_memget";
    case op::upc_memput: return "upc_memput";
  }
  return "?";
}

// One word of the pattern written by `writer` for test `seed`.
inline std::uint64_t pattern_word(std::uint64_t seed, int writer, std::uint64_t i) {
  std::uint64_t z = seed * 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(writer) * 0xbf58476d1ce4e5b9ULL + i;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
void fill_pattern(char* p, std::size_t n, std::uint64_t seed, int writer) {
  std::size_t words = n / 8;
  for (std::size_t i = 0; i < words; ++i) {
    std::uint64_t w = pattern_word(seed, writer, i);
    std::memcpy(p + 8 * i, &w, 8);
  }
  std::uint64_t tail = pattern_word(seed, writer, words);
  std::memcpy(p + 8 * words, &tail, n - 8 * words);
}
// Bytes of p[0..n) that differ from the pattern.
std::uint64_t count_wrong(const char* p, std::size_t n, std::uint64_t seed, int writer, std::vector<char>& scratch) {
  fill_pattern(scratch.data(), n, seed, writer);
  if (std::memcmp(p, scratch.data(), n) == 0) return 0;
  std::uint64_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += p[i] != scratch[i];
  return wrong;
}

// The region of thread t's partition at `offset` in the array from upc_all_alloc
// (shared [block] char, one block per thread): UPC's `base + t*block + offset`.
upc::sptr<void> in_partition(upc::sptr<void> base, int t, std::size_t block, std::size_t offset) {
  return upc::sptr<void>(upc::layout::advance(base.address(), static_cast<std::ptrdiff_t>(t * block + offset), 1, block, THREADS));
}

struct buffers {
  upc::sptr<void> shared_base;  // per thread: [0, max) source, [max, 2*max) destination
  std::size_t block = 0, max = 0;
  std::vector<char> private_src, private_dst, scratch;
  upc::sptr<void> src(int t) const { return in_partition(shared_base, t, block, 0); }
  upc::sptr<void> dst(int t) const { return in_partition(shared_base, t, block, max); }
  char* local_src() const { return static_cast<char*>(src(MYTHREAD).local()); }
  char* local_dst() const { return static_cast<char*>(dst(MYTHREAD).local()); }
};

struct test {
  op o;
  bool remote;  // the shared side is the neighbour's partition
  const char* where() const { return o == op::std_memcpy ? "private" : remote ? "remote" : "local"; }
};

// Does n transfers of `size` bytes for test t.
void transfer(const test& t, const buffers& b, std::size_t size, std::int64_t n) {
  const int peer = t.remote ? (MYTHREAD + 1) % THREADS : MYTHREAD;
  char* psrc = const_cast<char*>(b.private_src.data());
  char* pdst = const_cast<char*>(b.private_dst.data());
  switch (t.o) {
    case op::std_memcpy:
      for (std::int64_t i = 0; i < n; ++i) {
        std::memcpy(pdst, psrc, size);
        bench::clobber();
      }
      break;
    case op::upc_memcpy: {
      upc::sptr<void> d = b.dst(peer), s = b.src(MYTHREAD);
      for (std::int64_t i = 0; i < n; ++i) upc_memcpy(d, s, size);
      break;
    }
    case op::upc_memget: {
      upc::sptr<void> s = b.src(peer);
      for (std::int64_t i = 0; i < n; ++i) upc_memget(pdst, s, size);
      break;
    }
    case op::upc_memput: {
      upc::sptr<void> d = b.dst(peer);
      for (std::int64_t i = 0; i < n; ++i) upc_memput(d, psrc, size);
      break;
    }
  }
}

// Fills this test's source with its pattern and returns the pattern's seed.
std::uint64_t prepare(const test& t, buffers& b, std::size_t size, std::uint64_t test_index) {
  const std::uint64_t seed = test_index * 131 + size;
  switch (t.o) {
    case op::std_memcpy:
    case op::upc_memput: fill_pattern(b.private_src.data(), size, seed, MYTHREAD); break;
    case op::upc_memcpy:
    case op::upc_memget: fill_pattern(b.local_src(), size, seed, MYTHREAD); break;
  }
  upc::barrier();
  return seed;
}

// After the transfers: wrong bytes in the destinations this thread owns.
std::uint64_t check(const test& t, buffers& b, std::size_t size, std::uint64_t seed) {
  upc::barrier();
  const int writer_of_mine = t.remote ? (MYTHREAD - 1 + THREADS) % THREADS : MYTHREAD;
  const int source_owner = t.remote ? (MYTHREAD + 1) % THREADS : MYTHREAD;
  switch (t.o) {
    case op::std_memcpy: return count_wrong(b.private_dst.data(), size, seed, MYTHREAD, b.scratch);
    case op::upc_memget: return count_wrong(b.private_dst.data(), size, seed, source_owner, b.scratch);
    case op::upc_memcpy:
    case op::upc_memput: return count_wrong(b.local_dst(), size, seed, writer_of_mine, b.scratch);
  }
  return 0;
}

}  // namespace

int upc_main(int argc, char** argv) {
  std::uint64_t min_bytes = 8, max_bytes = 64ULL << 20;
  std::int64_t step = 2, reps = 5;
  double min_time = 0.02;
  std::string ops = "upc_memcpy,upc_memget,upc_memput", where = "local,remote", fmt = "text";
  bench::cli cli("memops_bandwidth",
                 "Bandwidth of upc_memcpy/upc_memget/upc_memput, local and remote, as GB/s per thread and\n"
                 "as a ratio of std::memcpy between private buffers measured in the same run. Every\n"
                 "thread transfers at once; remote means the neighbour thread's partition. Needs a\n"
                 "shared heap of 2*max-bytes + 1M per thread, e.g. UPCEMU_HEAP=256M for 64M.");
  cli.add_size("min-bytes", "smallest transfer", &min_bytes);
  cli.add_size("max-bytes", "largest transfer", &max_bytes);
  cli.add_int("step", "size multiplier from one row to the next (2 or 4 ...)", &step, 2);
  cli.add_int("reps", "repetitions per size; rows report their median, min and max", &reps, 1);
  cli.add_real("min-time", "seconds per repetition (sets the transfers per repetition)", &min_time);
  cli.add_choice("ops", "operations to measure", &ops, {"upc_memcpy", "upc_memget", "upc_memput"}, true);
  cli.add_choice("where", "shared side in the own partition, the neighbour's, or both", &where, {"local", "remote"}, true);
  cli.add_choice("format", "output rows as aligned text or one JSON object per line", &fmt, {"text", "jsonl"});
  if (const auto status = cli.exit_status(argc, argv, MYTHREAD == 0)) return *status;
  if (min_bytes < 1 || min_bytes > max_bytes) {
    if (MYTHREAD == 0) std::fprintf(stderr, "memops_bandwidth: need 1 <= --min-bytes <= --max-bytes\n");
    return 2;
  }

  buffers b;
  b.max = max_bytes;
  b.block = 2 * max_bytes;
  b.shared_base = upc_all_alloc(static_cast<std::size_t>(THREADS), b.block);
  b.private_src.assign(max_bytes, 1);  // touch every page before timing
  b.private_dst.assign(max_bytes, 2);
  b.scratch.assign(max_bytes, 3);
  std::memset(b.local_src(), 4, max_bytes);
  std::memset(b.local_dst(), 5, max_bytes);

  std::vector<test> tests{{op::std_memcpy, false}};
  for (const std::string& o : bench::split_list(ops))
    for (const std::string& w : bench::split_list(where))
      tests.push_back({o == "upc_memcpy" ? op::upc_memcpy : o == "upc_memget" ? op::upc_memget : op::upc_memput, w == "remote"});

  bench::report out(bench::parse_format(fmt),
                    {{"bench", "memops_bandwidth"}, {"backend", bench::backend_name()}, {"threads", THREADS}},
                    {{"min_bytes", min_bytes},
                     {"max_bytes", max_bytes},
                     {"step", step},
                     {"reps", reps},
                     {"min_time_s", min_time},
                     {"ops", ops},
                     {"where", where},
                     {"remote_peer", "(MYTHREAD+1)%THREADS"},
                     {"unit", "GB/s = 1e9 bytes/s per thread, slowest thread"},
                     {"verify", true}});
  if (MYTHREAD == 0) out.header();

  std::uint64_t total_wrong = 0;
  std::uint64_t test_index = 0;
  const std::size_t nt = tests.size();
  for (std::uint64_t size = min_bytes; size <= max_bytes;) {
    // Transfers per repetition, per test (calibration doubles as warm-up).
    std::vector<std::int64_t> iters(nt);
    const std::int64_t cap = static_cast<std::int64_t>(std::max<std::uint64_t>(1, (64ULL << 30) / size));
    for (std::size_t k = 0; k < nt; ++k)
      iters[k] = bench::calibrate_iterations([&](std::int64_t n) { transfer(tests[k], b, size, n); }, min_time, 1, cap);

    // Rounds: every test once per round, the starting test rotating, so the
    // baseline and each operation see the same machine; ratios are per round.
    std::vector<std::vector<double>> gbps(nt), ratio(nt);
    for (std::int64_t r = 0; r < reps; ++r) {
      std::vector<double> round(nt);
      for (std::size_t j = 0; j < nt; ++j) {
        const std::size_t k = (j + static_cast<std::size_t>(r)) % nt;
        const double t = bench::timed_on_slowest([&](std::int64_t n) { transfer(tests[k], b, size, n); }, iters[k]);
        round[k] = static_cast<double>(size) * static_cast<double>(iters[k]) / t * 1e-9;
      }
      for (std::size_t k = 0; k < nt; ++k) {
        gbps[k].push_back(round[k]);
        ratio[k].push_back(round[k] / round[0]);  // tests[0] is the std::memcpy baseline
      }
    }

    for (std::size_t k = 0; k < nt; ++k) {
      const test& t = tests[k];
      // Verification: one transfer of a fresh pattern, checked byte for byte.
      const std::uint64_t seed = prepare(t, b, size, ++test_index);
      transfer(t, b, size, 1);
      const auto wrong = static_cast<std::uint64_t>(bench::sum_over_threads(static_cast<double>(check(t, b, size, seed))));
      total_wrong += wrong;
      const bench::summary s = bench::summarize(gbps[k]);
      if (MYTHREAD == 0)
        out.row({{"op", op_name(t.o)},
                 {"where", t.where()},
                 {"bytes", size},
                 {"iters", iters[k]},
                 {"median_gbps", s.median},
                 {"min_gbps", s.min},
                 {"max_gbps", s.max},
                 {"ratio_vs_memcpy", bench::summarize(ratio[k]).median},
                 {"wrong", wrong}});
    }
    if (size > max_bytes / static_cast<std::uint64_t>(step)) break;
    size *= static_cast<std::uint64_t>(step);
  }
  upc_all_free(b.shared_base);
  if (total_wrong && MYTHREAD == 0)
    std::fprintf(stderr, "memops_bandwidth: %llu bytes arrived wrong\n", static_cast<unsigned long long>(total_wrong));
  return total_wrong ? 1 : 0;
}
