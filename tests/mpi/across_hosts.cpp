// What a program on ranks spread over several hosts relies on (docs/backends.md,
// "Across hosts"), each part checked against what a sequential program gives.
// Runs on any backend and any THREADS; the `hosts` suite runs it on network-
// namespace hosts (tests/tools/netns_hosts_test.sh). Prints "ok NAME" per part
// (thread 0) and exits 1 when a part is wrong. `across_hosts throw`,
// `across_hosts return_early` and `across_hosts mismatch` (under --check) fail
// on purpose: the last thread throws, returns from main while the others wait
// at a barrier, or passes upc_all_alloc another nbytes.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <stdexcept>

#include <unistd.h>
#include <vector>

#include "parts.hpp"
#include "upc.h"
#include "upc_atomic.h"
#include "upc_castable.h"
#include "upc_collective.h"

namespace {
using parts::part;

// Elements owned by every thread, written by their owners and read by all.
void element_access() {
  constexpr int per = 1000;
  upc::sptr<long> a = upc_all_alloc(THREADS, per * sizeof(long));  // block of `per` per thread
  upc::sptr<long> mine(a + MYTHREAD);  // cyclic: element t lives on thread t
  for (int i = 0; i < per; ++i) a[static_cast<std::size_t>(i) * THREADS + MYTHREAD] = 1000L * i + MYTHREAD;
  upc_barrier;
  bool ok = true;
  for (int i = 0; i < per; ++i)
    for (int t = 0; t < THREADS; ++t) ok &= a[static_cast<std::size_t>(i) * THREADS + t] == 1000L * i + t;
  upc_barrier;
  // Now each thread writes its right neighbour's elements: remote writes.
  const int next = (MYTHREAD + 1) % THREADS;
  for (int i = 0; i < per; ++i) a[static_cast<std::size_t>(i) * THREADS + next] = -(1000L * i + next);
  upc_barrier;
  for (int i = 0; i < per; ++i) ok &= a[static_cast<std::size_t>(i) * THREADS + MYTHREAD] == -(1000L * i + MYTHREAD);
  (void)mine;
  upc_barrier;
  upc_all_free(a);
  part("element access", ok);
}

// Threads write interleaved bytes of one page between two barriers: every
// write survives. The second round makes it hard: every thread first reads the
// page (another host keeps a copy of it), thread 0's host writes its bytes at
// once, the others 100 ms later, when their copies of thread 0's bytes are
// old: only the bytes a thread changed may go home, never the ones between.
void same_page_writers() {
  const upc::sptr<char, 0> page(upc::sptr<void>(upc_all_alloc(1, 4096)));  // all on thread 0 (indefinite block)
  if (MYTHREAD == 0) std::memset(static_cast<char*>(upc_cast(upc::sptr<void>(page))), 0, 4096);
  upc_barrier;
  for (int i = MYTHREAD; i < 4096; i += THREADS) page[i] = static_cast<char>(1 + MYTHREAD);
  upc_barrier;
  bool ok = true;
  for (int i = 0; i < 4096; ++i) ok &= page[i] == static_cast<char>(1 + i % THREADS);
  upc_barrier;
  int sum = 0;
  for (int i = 0; i < 4096; ++i) sum += page[i];  // a copy of the whole page, here
  const bool near_zero = upc_cast(upc::sptr<void>(page)) != nullptr;  // on thread 0's host
  if (!near_zero) usleep(100'000);
  for (int i = MYTHREAD; i < 4096; i += THREADS) page[i] = static_cast<char>(50 + MYTHREAD);
  upc_barrier;
  for (int i = 0; i < 4096; ++i) ok &= page[i] == static_cast<char>(50 + i % THREADS);
  ok &= sum > 0;
  upc_barrier;
  upc_all_free(upc::sptr<void>(page));
  part("writers of one page", ok);
}

// upc_memput into the next thread's block, upc_memget of the previous one's.
void bulk_copies() {
  constexpr std::size_t n = 50000;  // more than one readahead of pages
  upc::sptr<int> a = upc_all_alloc(THREADS, n * sizeof(int));
  std::vector<int> out(n), in(n);
  const int next = (MYTHREAD + 1) % THREADS, prev = (MYTHREAD + THREADS - 1) % THREADS;
  std::iota(out.begin(), out.end(), MYTHREAD * 7);
  upc_memput(upc::sptr<void>(a + next), out.data(), n * sizeof(int));
  upc_barrier;
  upc_memget(in.data(), upc::sptr<const void>(upc::sptr<void>(a + MYTHREAD)), n * sizeof(int));
  bool ok = true;
  for (std::size_t i = 0; i < n; ++i) ok &= in[i] == static_cast<int>(prev * 7 + i);
  upc_barrier;
  upc_all_free(a);
  part("upc_memput and upc_memget", ok);
}

// Bulk copies to and from the next thread's partition that start and end
// inside pages and cross the pieces a copy travels in (32 KiB, docs/backends.md
// "Across hosts"): every byte of the range arrives, none beside it changes, a
// page this thread had cached shows the bytes it put, and this thread's own
// cached writes reach the owner before a copy reads there.
void bulk_copies_unaligned() {
  struct range {
    std::size_t offset, bytes;
  };
  const range ranges[] = {{1, 4096}, {4095, 32768 + 3}, {77, 5 * 32768 + 1001}, {4096 * 3 + 5, (1u << 20) + 13}};
  constexpr std::size_t block = (1u << 20) + 3 * 32768;
  upc::sptr<char> a = upc_all_alloc(THREADS, block);  // cyclic: a + t starts thread t's block
  const int next = (MYTHREAD + 1) % THREADS, prev = (MYTHREAD + THREADS - 1) % THREADS;
  char* mine = static_cast<char*>(upc_cast(upc::sptr<void>(a + MYTHREAD)));
  const upc::sptr<char, 0> theirs(upc::sptr<void>(a + next));  // indefinite block: stays in the next thread's
  const auto byte = [](int writer, std::size_t k, std::size_t i) { return static_cast<char>(writer * 31 + k * 7 + i * 13 + i / 4096); };
  bool ok = true;
  std::size_t k = 0;
  for (const range& r : ranges) {
    ++k;
    std::memset(mine, 0x5a, block);
    upc_barrier;
    // A cached copy of the pages the put will write (on another host).
    int seen = 0;
    for (std::size_t i = r.offset; i < r.offset + r.bytes; i += 4096) seen += theirs[i];
    ok &= seen == static_cast<int>((r.bytes + 4095) / 4096) * 0x5a;
    std::vector<char> out(r.bytes);
    for (std::size_t i = 0; i < r.bytes; ++i) out[i] = byte(MYTHREAD, k, i);
    upc_memput(upc::sptr<void>(theirs + r.offset), out.data(), r.bytes);
    for (std::size_t i = 0; i < r.bytes; i += 997) ok &= theirs[r.offset + i] == out[i];  // not the cached copy
    upc_barrier;
    // What the previous thread put here, and nothing beside it.
    for (std::size_t i = 0; i < block; ++i) {
      const bool inside = i >= r.offset && i < r.offset + r.bytes;
      ok &= mine[i] == (inside ? byte(prev, k, i - r.offset) : static_cast<char>(0x5a));
    }
    upc_barrier;
    // A get of the next thread's range, into a buffer with guards around it,
    // after this thread wrote some of its bytes element by element.
    for (std::size_t i = 0; i < r.bytes; i += 4099) theirs[r.offset + i] = static_cast<char>(i / 4099 + 1);
    std::vector<char> in(r.bytes + 2, 0x11);
    upc_memget(in.data() + 1, upc::sptr<const void>(upc::sptr<void>(theirs + r.offset)), r.bytes);
    ok &= in.front() == 0x11 && in.back() == 0x11;
    for (std::size_t i = 0; i < r.bytes; ++i)
      ok &= in[1 + i] == (i % 4099 == 0 ? static_cast<char>(i / 4099 + 1) : byte(MYTHREAD, k, i));
    upc_barrier;
  }
  upc_all_free(upc::sptr<void>(a));
  part("bulk copies with unaligned ends, in pieces", ok);
}

// The hosts are the nodes (unless --nodes says otherwise, as no test here
// does): a thread's partition is castable here exactly when the thread is on
// this node, and a job that spans hosts has more than one node. On one host
// (and on the other backends) everything is castable, on one node.
void hosts_are_nodes() {
  upc::sptr<char> a = upc_all_alloc(THREADS, 64);  // a + t: thread t's partition
  bool ok = true, spans = false;
  for (int t = 0; t < THREADS; ++t) {
    const bool here = upc_cast(upc::sptr<void>(a + t)) != nullptr;
    spans |= !here;
    ok &= here == (upc::node_of(t) == upc::node_of(MYTHREAD));
  }
  ok &= !spans || upc::nodes() > 1;
  upc_barrier;
  upc_all_free(upc::sptr<void>(a));
  part("hosts are the nodes", ok);
}

// A counter on thread 0 raised under a lock by everyone, and by an atomic.
void locks_and_atomics() {
  constexpr int rounds = 50;
  upc_lock_t* lock = upc_all_lock_alloc();
  upc::sptr<int> counter = upc_all_alloc(THREADS, 2 * sizeof(int));  // [0] on thread 0, [1] on thread 1 (or 0)
  if (MYTHREAD == 0) counter[0] = counter[1] = 0;
  upc_barrier;
  for (int i = 0; i < rounds; ++i) {
    upc_lock(lock);
    counter[0] = counter[0] + 1;
    upc_unlock(lock);
  }
  upc_atomicdomain_t* d = upc_all_atomicdomain_alloc(UPC_INT, UPC_ADD | UPC_GET, 0);
  const int one = 1;
  for (int i = 0; i < rounds; ++i) upc_atomic_relaxed(d, nullptr, UPC_ADD, upc::sptr<void>(counter + 1), &one, nullptr);
  upc_barrier;
  int got = 0;
  upc_atomic_relaxed(d, &got, UPC_GET, upc::sptr<void>(counter + 1), nullptr, nullptr);
  const bool ok = counter[0] == rounds * THREADS && got == rounds * THREADS;
  upc_barrier;
  upc_all_atomicdomain_free(d);
  upc_all_lock_free(lock);
  upc_all_free(counter);
  part("locks and atomics", ok);
}

// A pointer-to-shared on the last thread advanced one element at a time by
// every thread with UPC_CSWAP (the domain, and its lock, on thread 0): no
// step may be lost, whichever hosts the threads and the pointer are on.
void pointer_atomics() {
  constexpr int rounds = 30;
  upc_atomicdomain_t* d = upc_all_atomicdomain_alloc(UPC_PTS, UPC_GET | UPC_SET | UPC_CSWAP, 0);
  upc::sptr<upc::sptr<void>> slots(upc_all_alloc(THREADS, sizeof(upc::sptr<void>)));
  upc::sptr<int> cells(upc_all_alloc(THREADS, (rounds + 1) * sizeof(int)));
  upc::sptr<upc::sptr<void>> target = slots + (THREADS - 1);
  const upc::sptr<void> start = cells;
  if (MYTHREAD == 0) upc_atomic_strict(d, nullptr, UPC_SET, target, &start, nullptr);
  upc_barrier;
  for (int i = 0; i < rounds; ++i)
    for (;;) {
      upc::sptr<void> seen = nullptr, swapped = nullptr;
      upc_atomic_relaxed(d, &seen, UPC_GET, target, nullptr, nullptr);
      const upc::sptr<void> next = upc::sptr<int>(seen) + 1;
      upc_atomic_relaxed(d, &swapped, UPC_CSWAP, target, &seen, &next);
      if (swapped == seen) break;
    }
  upc_barrier;
  upc::sptr<void> end = nullptr;
  upc_atomic_relaxed(d, &end, UPC_GET, target, nullptr, nullptr);
  const bool ok = end == upc::sptr<void>(cells + rounds * THREADS);
  upc_barrier;
  upc_all_atomicdomain_free(d);
  upc_all_free(cells);
  upc_all_free(slots);
  part("UPC_CSWAP on a pointer-to-shared", ok);
}

// A strict flag hands data from the last thread to thread 0 without a barrier.
void strict_handshake() {
  upc::sptr<int> data = upc_all_alloc(THREADS, sizeof(int));
  upc::sptr<int, 1, upc::strict> flag(upc::sptr<int, 1, upc::strict>(upc_all_alloc(THREADS, sizeof(int))));
  flag[MYTHREAD] = 0;
  upc_barrier;
  bool ok = true;
  const int last = THREADS - 1;
  if (MYTHREAD == last) {
    data[0] = 4242;  // relaxed, on thread 0
    flag[0] = 1;     // strict: the data is home before the flag is
  }
  if (MYTHREAD == 0) {
    while (flag[0] == 0) {
    }
    ok = data[0] == 4242;
  }
  upc_barrier;
  upc_all_free(data);
  upc_all_free(upc::sptr<void>(flag));
  part("strict handshake", ok);
}

// Split-phase barrier with ids, and work between notify and wait.
void split_phase() {
  upc::sptr<int> a = upc_all_alloc(THREADS, sizeof(int));
  a[MYTHREAD] = MYTHREAD * 3;
  upc_notify(7);
  int local = 0;
  for (int i = 0; i < 1000; ++i) local += i;
  upc_wait(7);
  bool ok = local == 499500;
  for (int t = 0; t < THREADS; ++t) ok &= a[t] == t * 3;
  upc_barrier;
  upc_all_free(a);
  part("split-phase barrier with ids", ok);
}

// The standard collectives, against what they must give.
void collectives() {
  constexpr std::size_t n = 3000;  // bytes per block: several pages per thread
  upc::sptr<char> src = upc_all_alloc(THREADS, n * static_cast<std::size_t>(THREADS));
  upc::sptr<char> dst = upc_all_alloc(THREADS, n * static_cast<std::size_t>(THREADS));
  auto value = [](int from, int to, std::size_t i) { return static_cast<char>(from * 31 + to * 7 + static_cast<int>(i)); };
  auto block = [&](upc::sptr<char> base, int t) { return upc::sptr<void>(base + t); };  // thread t's block
  auto local = [&](upc::sptr<char> base) { return static_cast<char*>(upc_cast(upc::sptr<void>(base + MYTHREAD))); };
  bool ok = true;

  // exchange: block `to` of thread `from` goes to block `from` of thread `to`
  for (int to = 0; to < THREADS; ++to)
    for (std::size_t i = 0; i < n; ++i) local(src)[to * n + i] = value(MYTHREAD, to, i);
  upc_all_exchange(upc::sptr<void>(dst), upc::sptr<const void>(src), n, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  for (int from = 0; from < THREADS; ++from)
    for (std::size_t i = 0; i < n; ++i) ok &= local(dst)[from * n + i] == value(from, MYTHREAD, i);

  // broadcast from the last thread
  upc_all_broadcast(upc::sptr<void>(dst), upc::sptr<const void>(block(src, THREADS - 1)), n,
                    UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  for (std::size_t i = 0; i < n; ++i) ok &= local(dst)[i] == value(THREADS - 1, 0, i);

  // gather_all of every thread's first block
  upc_all_gather_all(upc::sptr<void>(dst), upc::sptr<const void>(src), n, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  for (int from = 0; from < THREADS; ++from)
    for (std::size_t i = 0; i < n; ++i) ok &= local(dst)[from * n + i] == value(from, 0, i);

  // a sum of doubles: the same bits as adding in thread order
  upc::sptr<double> x = upc_all_alloc(THREADS, 100 * sizeof(double));
  upc::sptr<double> sum = upc_all_alloc(THREADS, sizeof(double));  // one result per thread
  double* my_block = static_cast<double*>(upc_cast(upc::sptr<void>(x + MYTHREAD)));  // blocks of 100
  for (int i = 0; i < 100; ++i) my_block[i] = 1.0 / (1 + MYTHREAD * 100 + i);
  upc_all_reduceD_all(upc::sptr<void>(sum), upc::sptr<const void>(x), UPC_ADD, static_cast<std::size_t>(THREADS) * 100,
                      100, nullptr, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  double expect = 0;
  for (int k = 0; k < THREADS * 100; ++k) expect += 1.0 / (1 + k);
  ok &= std::abs(sum[MYTHREAD] - expect) < 1e-12;
  // The bits, for the hosts test to compare with the threads backend's.
  if (MYTHREAD == 0) std::printf("reduce bits %a\n", static_cast<double>(sum[0]));
  upc_barrier;
  upc_all_free(x);
  upc_all_free(sum);
  upc_all_free(src);
  upc_all_free(dst);
  part("collectives", ok);
}

// upc_global_alloc and upc_alloc by every thread, the memory used by another,
// and freed by a third: across hosts the heaps' state lives on their own hosts.
void allocations_freed_elsewhere() {
  static upc::shared_array<upc::sptr<int>> global(upc::per_thread(1));
  static upc::shared_array<upc::sptr<int>> local(upc::per_thread(1));
  const upc::sptr<int> g(upc_global_alloc(THREADS, sizeof(int)));  // element t on thread t
  for (int t = 0; t < THREADS; ++t) g[t] = 100 * MYTHREAD + t;
  const upc::sptr<int> l(upc_alloc(sizeof(int)));
  *l = 7 * MYTHREAD;
  global[MYTHREAD] = g;
  local[MYTHREAD] = l;
  upc_barrier;
  const int next = (MYTHREAD + 1) % THREADS;
  const upc::sptr<int> theirs = global[next], their_local = local[next];
  bool ok = theirs[MYTHREAD] == 100 * next + MYTHREAD && *their_local == 7 * next;
  upc_barrier;
  upc_free(upc::sptr<void>(theirs));       // another thread's upc_global_alloc
  upc_free(upc::sptr<void>(their_local));  // another thread's upc_alloc
  upc_barrier;
  part("allocations freed by another thread", ok);
}

// A shared array declared in a function: a collective allocation and free.
void declared_in_scope() {
  upc::shared_array<int> scoped(upc::per_thread(100));
  for (int i = 0; i < 100; ++i) scoped[static_cast<std::size_t>(i) * THREADS + MYTHREAD] = i + MYTHREAD;
  upc_barrier;
  long total = 0;
  for (std::size_t k = 0; k < scoped.size(); ++k) total += scoped[k];
  long expect = 0;
  for (int t = 0; t < THREADS; ++t) expect += 4950 + 100L * t;
  part("declared in a scope", total == expect);
}
}  // namespace

int upc_main(int argc, char** argv) {
  // Failure modes for the hosts test: the job must end with the report.
  const char* mode = argc > 1 ? argv[1] : "";
  if (std::strcmp(mode, "throw") == 0) {  // the last thread throws while the others wait
    upc_barrier;
    if (MYTHREAD == THREADS - 1) throw std::runtime_error("across_hosts deliberately threw");
    upc_barrier;
    return 0;
  }
  if (std::strcmp(mode, "mismatch") == 0) {  // under --check: the last thread's nbytes differs
    upc::sptr<void> p = upc_all_alloc(THREADS, MYTHREAD == THREADS - 1 ? 16 : 8);
    upc_all_free(p);
    return 0;
  }
  if (std::strcmp(mode, "return_early") == 0) {  // the last thread leaves main; the others wait
    upc_barrier;
    if (MYTHREAD == THREADS - 1) return 0;
    upc_barrier;
    return 0;
  }
  element_access();
  same_page_writers();
  bulk_copies();
  bulk_copies_unaligned();
  hosts_are_nodes();
  locks_and_atomics();
  pointer_atomics();
  strict_handshake();
  split_phase();
  collectives();
  allocations_freed_elsewhere();
  declared_in_scope();
  if (MYTHREAD == 0) std::printf("across_hosts: %s on %d threads\n", parts::failed_parts ? "FAILED" : "all parts right", THREADS);
  return parts::failed_parts ? 1 : 0;
}
