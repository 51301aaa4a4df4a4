// NAS Parallel Benchmark IS (integer sort), the UPC kernel of seed 003 §3.4.3,
// in two versions that differ only in the key exchange of `rank`:
//   standard  the original NPB-UPC code (Listing 3.17): upc_memget per thread
//   extended  upc_all_exchange_v_merge_local_get (Listing 3.18)
// The official NPB problem (classes S, W, A, B, C), generator and verification:
// 10 timed iterations after an untimed one, the partial verification of five
// keys' ranks in every iteration and the full verification (keys sorted) at
// the end. Exit status 0 when every version ran verified, 1 when one did not,
// 2 for a bad option or THREADS.
//
//   build/tools/upcrun -n 4 build/apps/nas/is/is_upc --class=W --variant=all
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "../../../harness/cli.hpp"
#include "exchange_extended.hpp"
#include "exchange_standard.hpp"
#include "full_verify.hpp"
#include "is_class.hpp"
#include "keys.hpp"
#include "launch.hpp"
#include "npb_report.hpp"
#include "ranking.hpp"
#include "upc.h"

namespace {

constexpr const char* program = "is_upc";

// One version, from the keys' generation to the report; thread 0 returns 1
// when the run did not verify.
template <class Exchange>
int run_version(const is::problem_class& c, const char* variant) {
  is::rank_data d(c);
  Exchange exchange;
  d.key_array = is::generate_keys(c, d.dist, MYTHREAD);

  is::rank(d, exchange, 1);  // NPB's free iteration: every page and table touched once
  d.passed = 0;
  upc_barrier;
  const auto start = std::chrono::steady_clock::now();
  for (int iteration = 1; iteration <= is::max_iterations; ++iteration) is::rank(d, exchange, iteration);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  is::full_verify(d);

  upc::shared_array<double> times{upc::per_thread(1)};
  upc::shared_array<int> passed{upc::per_thread(1)};
  times[static_cast<std::size_t>(MYTHREAD)] = seconds;
  passed[static_cast<std::size_t>(MYTHREAD)] = d.passed;
  upc_barrier;
  int status = 0;
  if (MYTHREAD == 0) {
    double slowest = 0;
    int total_passed = 0;
    for (int t = 0; t < THREADS; ++t) {
      slowest = std::max(slowest, static_cast<double>(times[static_cast<std::size_t>(t)]));
      total_passed += passed[static_cast<std::size_t>(t)];
    }
    const int wanted = is::test_array_size * is::max_iterations + THREADS;  // NPB's count
    npb::report r;
    r.name = "IS";
    r.variant = variant;
    r.cls = c.name;
    r.size = std::to_string(c.total_keys());
    r.iterations = is::max_iterations;
    r.seconds = slowest;
    r.mops = static_cast<double>(c.total_keys()) * is::max_iterations / slowest / 1e6;
    r.operation = "keys ranked";
    r.verified = total_passed == wanted;
    if (!r.verified) std::printf(" %d of %d verifications passed\n", total_passed, wanted);
    npb::print(r);
    status = r.verified ? 0 : 1;
  }
  upc_barrier;  // times and passed are freed when this scope ends
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  std::string class_name = "S", variant = "all";
  bench::cli cli(program, "NAS Parallel Benchmark IS (integer sort), seed 003 section 3.4.3: the key exchange of rank\n"
                          "with upc_memget (standard, Listing 3.17) or upc_all_exchange_v_merge_local_get (extended,\n"
                          "Listing 3.18); 'all' runs both. Any THREADS up to the class's number of buckets.");
  cli.add_choice("class", "NPB problem class", &class_name, {"S", "W", "A", "B", "C"});
  cli.add_choice("variant", "which key exchange", &variant, {"standard", "extended", "all"});
  if (auto status = cli.exit_status(argc, argv, true)) return *status;
  const is::problem_class c = *is::find_class(class_name[0]);

  // NPB IS ranks with whole buckets, so THREADS can be at most the number of buckets.
  const int threads = apps::planned_threads();  // 1 when the settings are bad: apps::launch says what is wrong
  if (threads > c.num_buckets()) {
    std::fprintf(stderr, "%s: THREADS=%d is more than the %d buckets of class %c (NPB IS needs THREADS <= NUM_BUCKETS)\n",
                 program, threads, c.num_buckets(), c.name);
    return 2;
  }

  // my block of keys, the bucket table, and room for the small arrays
  const std::size_t keys_per_thread = static_cast<std::size_t>((c.total_keys() + threads - 1) / threads);
  const std::size_t heap = keys_per_thread * sizeof(int) + static_cast<std::size_t>(c.num_buckets()) * 8 + (8u << 20);

  return apps::launch(program, heap, [&] {
    if (MYTHREAD == 0)
      std::printf("\n\n NAS Parallel Benchmarks (NPB 3.x problem) -- IS Benchmark, UPC (upcemu)\n\n"
                  " Size:  %lld  (class %c)\n Iterations:  %d\n Number of threads:  %d\n",
                  static_cast<long long>(c.total_keys()), c.name, is::max_iterations, THREADS);
    int status = 0;
    if (variant != "extended") status |= run_version<is::standard_exchange>(c, "standard");
    if (variant != "standard") status |= run_version<is::extended_exchange>(c, "extended");
    return status;
  });
}
