/* What collbench and its Open MPI peer (bench/peers/mpi/coll_mpi.c) agree on, in
 * plain C so that both include it: the collectives by name, the buffer sizes each
 * needs, the memcpy bound each is compared with, and the data each verifies.
 *
 * Sizes. `nbytes` is the block of one thread (rank), as in the UPC functions:
 * broadcast and scatter deliver nbytes to every thread, gather collects nbytes from
 * every thread, gather_all and exchange move THREADS blocks per thread, permute
 * moves one block per thread, reduce and prefix_reduce cover nbytes of long or
 * double per thread (nelems = THREADS * nbytes / sizeof(T) in all).
 *
 * The memcpy bound. A collective must at least write (or, for reduce, read) a
 * number of nbytes blocks, `coll_copies`:
 *
 *   broadcast, scatter, gather   THREADS          every destination block once (the
 *                                                 root's own included: src and dst
 *                                                 are different objects)
 *   gather_all, exchange         THREADS*THREADS  every thread receives THREADS blocks
 *   permute                      THREADS          one block per thread
 *   reduce                       THREADS          every source block read once
 *                                                 (memcpy stands in for a streaming read)
 *   prefix_reduce                THREADS          every block read and written once
 *
 * With P = min(THREADS, CPUs) copies running in parallel, each of the P copiers
 * must make K = ceil(coll_copies / P) of them, and the bound is the time P threads
 * (ranks) take to make K memcpys of nbytes each, all at once, between private
 * buffers, timed like the collective in the same run (after each of its rounds;
 * the fastest round counts: a bound is the best the copies can do, noise only
 * slows rounds down). Each copier cycles through M = min(K, max(1, 32 MiB /
 * nbytes)) distinct source/destination block pairs, so that the copies touch as
 * much memory as the collective's do (which write K distinct blocks per copier)
 * up to well past the caches: a bound made of one block copied K times would stay
 * in cache where the collective cannot.
 *
 * ratio_vs_bound = bound_time / the collective's median time: 1 is the bound, the
 * issue's target for large broadcast/scatter/gather is >= 0.7. A collective can
 * beat it where its copies share a source (broadcast reads one block THREADS
 * times). Throughput in GB/s is coll_copies * nbytes / time (10^9 B/s), the same
 * formula for us and for MPI, so that a throughput ratio is the inverse time ratio.
 *
 * Verification data. Byte j of the data written by `writer` for seed s is byte
 * j % 8 of coll_pattern_word(s, writer, j / 8) (little-endian order of the word),
 * so any sub-range can be regenerated from its start index. Reductions use
 * coll_reduce_value(s, thread, k): small integers, exact in double, so the sums are
 * exact in any order.
 */
#ifndef UPCEMU_BENCH_COLL_MODEL_H
#define UPCEMU_BENCH_COLL_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum coll_kind {
  COLL_BROADCAST,
  COLL_SCATTER,
  COLL_GATHER,
  COLL_GATHER_ALL,
  COLL_EXCHANGE,
  COLL_PERMUTE,
  COLL_REDUCE,
  COLL_PREFIX_REDUCE,
  COLL_COUNT
};

static const char* const coll_names[COLL_COUNT] = {"broadcast", "scatter",  "gather", "gather_all",
                                                   "exchange",  "permute", "reduce", "prefix_reduce"};

/* The collective named `name`, or -1. */
static inline int coll_from_name(const char* name) {
  for (int c = 0; c < COLL_COUNT; ++c)
    if (strcmp(name, coll_names[c]) == 0) return c;
  return -1;
}

static inline int coll_is_reduction(int c) { return c == COLL_REDUCE || c == COLL_PREFIX_REDUCE; }

/* Blocks of nbytes that must be written (read, for reduce): see above. */
static inline uint64_t coll_copies(int c, int threads) {
  const uint64_t t = (uint64_t)threads;
  return c == COLL_GATHER_ALL || c == COLL_EXCHANGE ? t * t : t;
}

/* Bytes per thread the source and the destination need, for blocks of nbytes: one
 * block, or THREADS blocks where the spec's layout puts them all on one thread
 * (scatter's source and gather's destination, on the root) or on every thread
 * (gather_all's destination, exchange's both). */
static inline uint64_t coll_src_bytes(int c, int threads, uint64_t nbytes) {
  return c == COLL_SCATTER || c == COLL_EXCHANGE ? nbytes * (uint64_t)threads : nbytes;
}
static inline uint64_t coll_dst_bytes(int c, int threads, uint64_t nbytes) {
  if (c == COLL_GATHER || c == COLL_GATHER_ALL || c == COLL_EXCHANGE) return nbytes * (uint64_t)threads;
  if (c == COLL_REDUCE) return 16; /* one long or double on the root */
  return nbytes;
}

/* The bound's copies per copier, K, and the distinct block pairs it cycles
 * through, M (see above). */
#define COLL_BOUND_WORKING_SET (32ULL << 20)
static inline uint64_t coll_bound_copies_per_copier(int c, int threads, int cpus) {
  const uint64_t p = (uint64_t)(threads < cpus ? threads : cpus);
  return (coll_copies(c, threads) + p - 1) / p;
}
static inline uint64_t coll_bound_blocks(uint64_t copies_per_copier, uint64_t nbytes) {
  uint64_t m = COLL_BOUND_WORKING_SET / (nbytes ? nbytes : 1);
  if (m < 1) m = 1;
  return m < copies_per_copier ? m : copies_per_copier;
}

/* One round of the bound for one copier: K copies of nbytes through M block pairs
 * of src and dst (each at least M * nbytes). */
static inline void coll_bound_copies(unsigned char* dst, const unsigned char* src, uint64_t nbytes, uint64_t k,
                                     uint64_t m) {
  for (uint64_t j = 0, b = 0; j < k; ++j) {
    memcpy(dst + b * nbytes, src + b * nbytes, nbytes);
    if (++b == m) b = 0;
  }
}

/* The destination thread of permute's source block of thread t (perm[t]). */
static inline int coll_permute_target(int t, int threads) { return (t + 1) % threads; }

static inline uint64_t coll_pattern_word(uint64_t seed, int writer, uint64_t i) {
  uint64_t z = seed * 0x9e3779b97f4a7c15ULL + (uint64_t)writer * 0xbf58476d1ce4e5b9ULL + i;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* Writes bytes [start, start + n) of writer's pattern to p. */
static inline void coll_fill_pattern(unsigned char* p, size_t n, uint64_t seed, int writer, uint64_t start) {
  size_t k = 0;
  uint64_t j = start;
  while (k < n && j % 8 != 0) {
    p[k++] = (unsigned char)(coll_pattern_word(seed, writer, j / 8) >> (8 * (j % 8)));
    ++j;
  }
  for (; k + 8 <= n; k += 8, j += 8) {
    const uint64_t w = coll_pattern_word(seed, writer, j / 8);
    for (int b = 0; b < 8; ++b) p[k + (size_t)b] = (unsigned char)(w >> (8 * b));
  }
  for (; k < n; ++k, ++j) p[k] = (unsigned char)(coll_pattern_word(seed, writer, j / 8) >> (8 * (j % 8)));
}

/* Bytes of p[0, n) that differ from bytes [start, start + n) of writer's pattern;
 * `scratch` holds at least n bytes. */
static inline uint64_t coll_count_wrong(const unsigned char* p, size_t n, uint64_t seed, int writer, uint64_t start,
                                        unsigned char* scratch) {
  coll_fill_pattern(scratch, n, seed, writer, start);
  if (memcmp(p, scratch, n) == 0) return 0;
  uint64_t wrong = 0;
  for (size_t k = 0; k < n; ++k) wrong += p[k] != scratch[k];
  return wrong;
}

/* Element k of thread t's block of a reduction's source: an integer in [-500, 500]. */
static inline long coll_reduce_value(uint64_t seed, int t, uint64_t k) {
  return (long)(coll_pattern_word(seed, t, k) % 1001) - 500;
}

/* Sum of thread t's block of nelems elements. */
static inline long coll_block_sum(uint64_t seed, int t, uint64_t nelems) {
  long s = 0;
  for (uint64_t k = 0; k < nelems; ++k) s += coll_reduce_value(seed, t, k);
  return s;
}

/* A byte that no destination holds before the verified call. */
#define COLL_POISON_BYTE 0xA5

#endif
