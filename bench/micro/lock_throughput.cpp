// Lock acquire/release pairs per second.
//
// "contended": every thread locks one lock from upc_all_lock_alloc, increments a
// shared counter, and unlocks, `iters` times. "uncontended": the same on a lock of
// the thread's own (upc_global_lock_alloc) and a counter in its own partition.
// "pthread_contended" is the peer: the same loop around one process-shared
// pthread_mutex_t placed in the shared segment, so it works on both backends.
// A repetition's throughput is THREADS*iters pairs over the slowest thread's time.
// The --reps rounds run every mode once each, in rotating order; rows give the
// median/min/max over rounds, ns_per_pair (one thread's time per pair at the
// median) and ratio_vs_pthread (median over rounds of this mode / the pthread
// mutex in the same round).
// Verification: every counter ends at exactly the number of increments made.
#include <pthread.h>

#include <cstdio>
#include <string>
#include <vector>

#include "../../harness/cli.hpp"
#include "../../harness/report.hpp"
#include "../common/stats.hpp"
#include "../../harness/team.hpp"
#include "upc.h"

namespace {

upc::shared<std::int64_t> shared_counter;                        // contended (affinity 0)
upc::shared<std::int64_t> pthread_counter;                       // pthread_contended
upc::shared_array<std::int64_t> own_counter(upc::per_thread(1));  // uncontended
upc::shared<std::uintptr_t> mutex_address;                       // the pthread peer's mutex

enum class mode { contended, uncontended, pthread_contended };
const char* mode_name(mode m) {
  switch (m) {
    case mode::contended: return "contended";
    case mode::uncontended: return "uncontended";
    case mode::pthread_contended: return "pthread_contended";
  }
  return "?";
}

struct locks {
  upc_lock_t* common = nullptr;  // upc_all_lock_alloc
  upc_lock_t* own = nullptr;     // upc_global_lock_alloc by this thread
  pthread_mutex_t* mutex = nullptr;  // in thread 0's partition
};

void pairs(mode m, const locks& l, std::int64_t n) {
  switch (m) {
    case mode::contended:
      for (std::int64_t i = 0; i < n; ++i) {
        upc_lock(l.common);
        shared_counter += 1;
        upc_unlock(l.common);
      }
      break;
    case mode::uncontended: {
      auto mine = own_counter[MYTHREAD];
      for (std::int64_t i = 0; i < n; ++i) {
        upc_lock(l.own);
        mine += 1;
        upc_unlock(l.own);
      }
      break;
    }
    case mode::pthread_contended:
      for (std::int64_t i = 0; i < n; ++i) {
        pthread_mutex_lock(l.mutex);
        pthread_counter += 1;
        pthread_mutex_unlock(l.mutex);
      }
      break;
  }
}

}  // namespace

int upc_main(int argc, char** argv) {
  std::int64_t iters = 0, reps = 5;
  double min_time = 0.2;
  std::string modes = "contended,uncontended,pthread_contended", fmt = "text";
  bench::cli cli("lock_throughput",
                 "upc_lock/upc_unlock pairs per second with every thread on one lock (contended), each\n"
                 "on its own lock (uncontended), and a process-shared pthread mutex as the peer.");
  cli.add_int("iters", "pairs per thread per repetition (0: calibrate to --min-time)", &iters);
  cli.add_real("min-time", "seconds per repetition when calibrating", &min_time);
  cli.add_int("reps", "repetitions; rows report their median, min and max", &reps, 1);
  cli.add_choice("modes", "what to measure", &modes, {"contended", "uncontended", "pthread_contended"}, true);
  cli.add_choice("format", "output rows as aligned text or one JSON object per line", &fmt, {"text", "jsonl"});
  if (const auto status = cli.exit_status(argc, argv, MYTHREAD == 0)) return *status;

  locks l;
  l.common = upc_all_lock_alloc();
  l.own = upc_global_lock_alloc();
  upc::sptr<void> mutex_space = upc_all_alloc(1, sizeof(pthread_mutex_t));  // on thread 0
  if (MYTHREAD == 0) {
    auto* m = static_cast<pthread_mutex_t*>(mutex_space.local());
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
    pthread_mutex_init(m, &attr);
    pthread_mutexattr_destroy(&attr);
    mutex_address = reinterpret_cast<std::uintptr_t>(m);
  }
  upc::barrier();
  // The segment is mapped at one address in every thread and process, so thread
  // 0's local address of the mutex is everyone's (as for upc_lock_t*).
  l.mutex = reinterpret_cast<pthread_mutex_t*>(static_cast<std::uintptr_t>(mutex_address));

  bench::report out(bench::parse_format(fmt),
                    {{"bench", "lock_throughput"}, {"backend", bench::backend_name()}, {"threads", THREADS}},
                    {{"iters", iters},
                     {"min_time_s", min_time},
                     {"reps", reps},
                     {"modes", modes},
                     {"critical_section", "one relaxed read-modify-write of a shared int64"},
                     {"unit", "pairs/s summed over threads, slowest thread's time"}});
  if (MYTHREAD == 0) out.header();

  std::vector<mode> ms;
  for (const std::string& name : bench::split_list(modes))
    ms.push_back(name == "contended" ? mode::contended : name == "uncontended" ? mode::uncontended : mode::pthread_contended);
  const std::size_t nm = ms.size();
  std::size_t pthread_index = nm;
  for (std::size_t k = 0; k < nm; ++k)
    if (ms[k] == mode::pthread_contended) pthread_index = k;

  if (MYTHREAD == 0) shared_counter = 0, pthread_counter = 0;
  own_counter[MYTHREAD] = 0;
  upc::barrier();
  std::vector<std::int64_t> done(nm, 0);  // pairs this thread made, per mode
  auto body = [&](std::size_t k, std::int64_t n) {
    pairs(ms[k], l, n);
    done[k] += n;
  };
  // Pairs per repetition, per mode (calibration doubles as warm-up).
  std::vector<std::int64_t> n(nm);
  for (std::size_t k = 0; k < nm; ++k)
    n[k] = iters ? iters : bench::calibrate_iterations([&](std::int64_t i) { body(k, i); }, min_time, 16, 100'000'000);
  if (iters)
    for (std::size_t k = 0; k < nm; ++k) bench::timed_on_slowest([&](std::int64_t i) { body(k, i); }, n[k]);  // warm-up

  // Rounds: every mode once per round, the starting mode rotating; the ratio to
  // the pthread mutex is taken within each round.
  std::vector<std::vector<double>> per_second(nm), ratio(nm);
  for (std::int64_t r = 0; r < reps; ++r) {
    std::vector<double> round(nm);
    for (std::size_t j = 0; j < nm; ++j) {
      const std::size_t k = (j + static_cast<std::size_t>(r)) % nm;
      round[k] = static_cast<double>(THREADS) * static_cast<double>(n[k]) /
                 bench::timed_on_slowest([&](std::int64_t i) { body(k, i); }, n[k]);
    }
    for (std::size_t k = 0; k < nm; ++k) {
      per_second[k].push_back(round[k]);
      if (pthread_index < nm) ratio[k].push_back(round[k] / round[pthread_index]);
    }
  }

  // Every pair incremented its mode's counter exactly once.
  std::int64_t total_wrong = 0;
  for (std::size_t k = 0; k < nm; ++k) {
    const auto all_done = static_cast<std::int64_t>(bench::sum_over_threads(static_cast<double>(done[k])));
    std::int64_t wrong = 0;
    if (ms[k] == mode::uncontended) wrong = own_counter[MYTHREAD] != done[k];
    else if (MYTHREAD == 0) wrong = (ms[k] == mode::contended ? shared_counter : pthread_counter) != all_done;
    wrong = static_cast<std::int64_t>(bench::sum_over_threads(static_cast<double>(wrong)));
    total_wrong += wrong;
    const bench::summary s = bench::summarize(per_second[k]);
    if (MYTHREAD == 0)
      out.row({{"mode", mode_name(ms[k])},
               {"iters", n[k]},
               {"median_pairs_per_s", s.median},
               {"min_pairs_per_s", s.min},
               {"max_pairs_per_s", s.max},
               {"ns_per_pair", 1e9 * THREADS / s.median},
               {"ratio_vs_pthread", pthread_index < nm ? bench::summarize(ratio[k]).median : 0.0},
               {"wrong", wrong}});
  }

  upc::barrier();
  if (MYTHREAD == 0) pthread_mutex_destroy(l.mutex);
  upc_lock_free(l.own);
  upc_all_lock_free(l.common);
  upc_all_free(mutex_space);
  if (total_wrong && MYTHREAD == 0) std::fprintf(stderr, "lock_throughput: counters do not match the pairs made\n");
  return total_wrong ? 1 : 0;
}
