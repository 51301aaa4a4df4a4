// The UPC standard collectives of a job spread over hosts, against what they
// must give, and which algorithm ran them: on a team over several hosts the
// automatic choice hands broadcast, scatter, gather, gather_all and exchange
// to MPI (the mpi family: the rows for teams over hosts in
// lib/coll/registry.cpp), on one host it keeps the engine's plans. Every size
// class of the mpi family (below and above 32 KiB), the three sync-flag
// families, two roots, each call twice with other data. Also reduce and
// permute (no mpi rows: the engine across hosts too), and barriers whose id
// changes every phase (across hosts the notify ids travel with the barrier's
// allreduce), and a long barrier wait that must sleep, not spin.
//
//   collectives_across_hosts [mpi|engine]
//     mpi: every call of the five must have run algorithm mpi; engine: none
//     may; without an argument, answers only. Thread 0 prints "ok NAME" or
//     "FAILED NAME" per part; the exit status is 1 when a part failed.
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "parts.hpp"
#include "upc.h"
#include "upc/coll.hpp"
#include "upc_castable.h"
#include "upc_collective.h"

namespace {
using parts::part;

enum class expect { any, mpi, engine };
expect g_expect = expect::any;
std::string g_wrong_algorithm;  // the first call that ran an unexpected algorithm

void note_algorithm(const char* call) {
  const std::string a = upc::coll::last_algorithm();
  const bool wrong = (g_expect == expect::mpi && a != "mpi") || (g_expect == expect::engine && a == "mpi");
  if (wrong && g_wrong_algorithm.empty()) g_wrong_algorithm = std::string(call) + " ran " + a;
}

char value(int from, int to, std::size_t i, int round) {
  return static_cast<char>(from * 31 + to * 7 + static_cast<int>(i % 251) + round * 13);
}

struct sync_family {
  const char* name;
  upc_flag_t flags;
};
constexpr sync_family families[] = {{"ALLSYNC", UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC},
                                    {"MYSYNC", UPC_IN_MYSYNC | UPC_OUT_MYSYNC},
                                    {"NOSYNC", UPC_IN_NOSYNC | UPC_OUT_NOSYNC}};

// The five movements at one block size, each family, roots 0 and THREADS-1.
bool movements(std::size_t n) {
  const int T = THREADS, me = MYTHREAD;
  const std::size_t row = n * static_cast<std::size_t>(T);
  upc::sptr<char> src = upc_all_alloc(THREADS, row);  // a row of T blocks per thread
  upc::sptr<char> dst = upc_all_alloc(THREADS, row);
  auto block = [&](upc::sptr<char> base, int t) { return upc::sptr<void>(base + t); };  // thread t's row
  auto local = [&](upc::sptr<char> base) { return static_cast<char*>(upc_cast(upc::sptr<void>(base + me))); };
  bool ok = true;
  int round = 0;
  for (const sync_family& f : families) {
    // Data written before the call, read after it: NOSYNC needs the barriers.
    const bool no_sync = (f.flags & UPC_IN_NOSYNC) != 0;
    auto before = [&] { if (no_sync) upc_barrier; };
    auto after = [&] {
      if (no_sync) upc_barrier;
    };
    for (int root : {0, T - 1}) {
      for (int rep = 0; rep < 2; ++rep, ++round) {
        // broadcast: the root's first n bytes to every thread's row start
        for (std::size_t i = 0; i < n; ++i) local(src)[i] = value(me, 0, i, round);
        before();
        upc_all_broadcast(upc::sptr<void>(dst), upc::sptr<const void>(block(src, root)), n, f.flags);
        note_algorithm("upc_all_broadcast");
        after();
        for (std::size_t i = 0; i < n; ++i) ok &= local(dst)[i] == value(root, 0, i, round);
        upc_barrier;

        // scatter: block t of the root's row to thread t
        for (int t = 0; t < T; ++t)
          for (std::size_t i = 0; i < n; ++i) local(src)[static_cast<std::size_t>(t) * n + i] = value(me, t, i, round);
        before();
        upc_all_scatter(upc::sptr<void>(dst), upc::sptr<const void>(block(src, root)), n, f.flags);
        note_algorithm("upc_all_scatter");
        after();
        for (std::size_t i = 0; i < n; ++i) ok &= local(dst)[i] == value(root, me, i, round);
        upc_barrier;

        // gather: every thread's first block into block t of the root's row
        for (std::size_t i = 0; i < n; ++i) local(src)[i] = value(me, 1, i, round);
        before();
        upc_all_gather(upc::sptr<void>(block(dst, root)), upc::sptr<const void>(src), n, f.flags);
        note_algorithm("upc_all_gather");
        after();
        if (me == root)
          for (int t = 0; t < T; ++t)
            for (std::size_t i = 0; i < n; ++i) ok &= local(dst)[static_cast<std::size_t>(t) * n + i] == value(t, 1, i, round);
        upc_barrier;
        if (root != 0) continue;  // the rest have no root

        // gather_all: every thread's first block into every row
        for (std::size_t i = 0; i < n; ++i) local(src)[i] = value(me, 2, i, round);
        before();
        upc_all_gather_all(upc::sptr<void>(dst), upc::sptr<const void>(src), n, f.flags);
        note_algorithm("upc_all_gather_all");
        after();
        for (int t = 0; t < T; ++t)
          for (std::size_t i = 0; i < n; ++i) ok &= local(dst)[static_cast<std::size_t>(t) * n + i] == value(t, 2, i, round);
        upc_barrier;

        // exchange: block `to` of thread `from` to block `from` of thread `to`
        for (int to = 0; to < T; ++to)
          for (std::size_t i = 0; i < n; ++i) local(src)[static_cast<std::size_t>(to) * n + i] = value(me, to, i, round);
        before();
        upc_all_exchange(upc::sptr<void>(dst), upc::sptr<const void>(src), n, f.flags);
        note_algorithm("upc_all_exchange");
        after();
        for (int from = 0; from < T; ++from)
          for (std::size_t i = 0; i < n; ++i) ok &= local(dst)[static_cast<std::size_t>(from) * n + i] == value(from, me, i, round);
        upc_barrier;
      }
    }
  }
  upc_all_free(src);
  upc_all_free(dst);
  return ok;
}

// Collectives without an mpi row: the engine, across hosts too.
bool reduce_and_permute() {
  const int T = THREADS, me = MYTHREAD;
  upc::sptr<long> x = upc_all_alloc(THREADS, 50 * sizeof(long));  // blocks of 50
  upc::sptr<long> sum = upc_all_alloc(1, sizeof(long));
  long* mine = static_cast<long*>(upc_cast(upc::sptr<void>(x + me)));
  for (int i = 0; i < 50; ++i) mine[i] = 1000L * me + i;
  upc_all_reduceL(upc::sptr<void>(sum), upc::sptr<const void>(x), UPC_ADD, static_cast<std::size_t>(T) * 50, 50, nullptr,
                  UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  const bool reduce_engine = upc::coll::last_algorithm() != "mpi";
  long expect = 0;
  for (int t = 0; t < T; ++t) expect += 50 * 1000L * t + 1225;
  bool ok = reduce_engine && (me != 0 || *sum == expect);

  // permute: thread t's block to thread (t + 1) % T
  upc::sptr<char> src = upc_all_alloc(THREADS, 64), dst = upc_all_alloc(THREADS, 64);
  upc::sptr<int> perm = upc_all_alloc(THREADS, sizeof(int));
  perm[me] = (me + 1) % T;
  std::memset(upc_cast(upc::sptr<void>(src + me)), 'a' + me, 64);
  upc_all_permute(upc::sptr<void>(dst), upc::sptr<const void>(src), upc::sptr<const int>(perm), 64,
                  UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  ok &= upc::coll::last_algorithm() != "mpi";
  const char* got = static_cast<const char*>(upc_cast(upc::sptr<void>(dst + me)));
  for (int i = 0; i < 64; ++i) ok &= got[i] == 'a' + (me + T - 1) % T;
  upc_barrier;
  upc_all_free(perm);
  upc_all_free(dst);
  upc_all_free(src);
  upc_all_free(sum);
  upc_all_free(x);
  return ok;
}

// A new id every phase, in both forms, and a wait without the notify's id.
bool barrier_ids() {
  for (int id = 1; id <= 6; ++id) upc_barrier(id);
  for (int id = 7; id <= 10; ++id) {
    upc_notify(id);
    upc_wait(id);
  }
  upc_notify(11);
  upc_wait;
  upc_notify;
  upc_wait(12);  // nobody notified with an id: nothing to disagree with
  return true;
}

double seconds(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// Thread 0 comes 1.5 s late to a barrier: the others' waits must cost little
// CPU (ranks may outnumber the cores: a spinning waiter takes the core from
// the rank it waits for). A bound on CPU per second waited, not on time.
bool waits_sleep() {
  upc_barrier;
  if (MYTHREAD == 0) usleep(1'500'000);
  const double wall = seconds(CLOCK_MONOTONIC), cpu = seconds(CLOCK_THREAD_CPUTIME_ID);
  upc_barrier;
  const double waited = seconds(CLOCK_MONOTONIC) - wall, used = seconds(CLOCK_THREAD_CPUTIME_ID) - cpu;
  if (MYTHREAD == 0) return true;
  const bool ok = waited > 1.0 && used < waited / 3;
  if (!ok) std::printf("thread %d: waited %.2f s in upc_barrier using %.2f s of CPU\n", MYTHREAD, waited, used);
  return ok;
}
}  // namespace

int upc_main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  if (std::strcmp(mode, "mpi") == 0) g_expect = expect::mpi;
  else if (std::strcmp(mode, "engine") == 0) g_expect = expect::engine;
  else if (*mode) {
    if (MYTHREAD == 0) std::fprintf(stderr, "usage: collectives_across_hosts [mpi|engine]\n");
    return 2;
  }
  for (std::size_t n : {std::size_t{8}, std::size_t{3000}, std::size_t{40000}})
    part(("broadcast, scatter, gather, gather_all, exchange of " + std::to_string(n) + " bytes").c_str(), movements(n));
  part(g_expect == expect::mpi      ? "every call of the five ran the mpi family"
       : g_expect == expect::engine ? "no call of the five ran the mpi family"
                                    : "algorithms not checked",
       g_wrong_algorithm.empty());
  if (!g_wrong_algorithm.empty()) std::printf("thread %d: %s\n", MYTHREAD, g_wrong_algorithm.c_str());
  part("reduce and permute by the engine", reduce_and_permute());
  part("barriers with a new id every phase", barrier_ids());
  part("a long barrier wait sleeps", waits_sleep());
  if (MYTHREAD == 0)
    std::printf("collectives_across_hosts: %s on %d threads\n", parts::failed_parts ? "FAILED" : "all parts right", THREADS);
  return parts::failed_parts ? 1 : 0;
}
