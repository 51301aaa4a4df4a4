/* What bench/collbench/upccoll_bench.cpp (UPC Collectives 2.0, <upccoll.h>) and its
 * Open MPI peer bench/peers/mpi/coll2_mpi.c agree on, in plain C so that both
 * include it: the collectives by name with their MPI counterparts, the block
 * sizes of a sweep, the buffer sizes, the counts and displacements of the
 * v-variants, the memcpy bound's block count, and the data each verifies. The
 * pattern and reduction values are those of coll_model.h.
 *
 * Sizes. `nbytes` is one rank's block:
 *
 *   barrier                      no data (one row, nbytes 0)
 *   bcast                        nbytes from the root to every rank (root included)
 *   scatter, scatterv            nbytes to every rank from the root's THREADS blocks
 *   gather, gatherv              nbytes from every rank into the root's THREADS blocks
 *   allgather, allgatherv        nbytes from every rank to every rank
 *   alltoall, alltoallv          nbytes from every rank to every rank, a different
 *                                block for each (THREADS blocks sent and received)
 *   reduce, allreduce, scan      nbytes of double per rank (count = nbytes / 8),
 *                                UPC_ADD / MPI_SUM element by element; reduce to the
 *                                root, allreduce to every rank, scan exclusive
 *                                (MPI_Exscan: rank l gets ranks 0..l-1, rank 0 nothing)
 *   reduce_scatter               every rank contributes THREADS blocks of nbytes of
 *                                double and receives the sum of block `rank`
 *                                (recvcounts[t] = count for every t)
 *
 * The v-variants use equal counts (so that they compare with the fixed forms)
 * and reversed displacements: block t sits at (THREADS-1-t) * count, so that an
 * implementation that ignored the displacements fails verification.
 *
 * The memcpy bound's blocks (uc_copies): the nbytes blocks the collective must
 * write (data movement) or read (reductions) at least: THREADS for the rooted
 * collectives, reduce, allreduce and scan, THREADS*THREADS for allgather(v),
 * alltoall(v) and reduce_scatter. The bound itself is coll_model.h's: P =
 * min(THREADS, CPUs) copiers each making ceil(copies / P) memcpys of nbytes at
 * once, fastest round. GB/s = copies * nbytes / time for us and for MPI alike.
 */
#ifndef UPCEMU_BENCH_UPCCOLL_MODEL_H
#define UPCEMU_BENCH_UPCCOLL_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "coll_model.h"

enum uc_kind {
  UC_BARRIER,
  UC_BCAST,
  UC_SCATTER,
  UC_SCATTERV,
  UC_GATHER,
  UC_GATHERV,
  UC_ALLGATHER,
  UC_ALLGATHERV,
  UC_ALLTOALL,
  UC_ALLTOALLV,
  UC_REDUCE,
  UC_ALLREDUCE,
  UC_REDUCE_SCATTER,
  UC_SCAN,
  UC_COUNT
};

static const char* const uc_names[UC_COUNT] = {"barrier",   "bcast",      "scatter",  "scatterv",      "gather",
                                               "gatherv",   "allgather",  "allgatherv", "alltoall",    "alltoallv",
                                               "reduce",    "allreduce",  "reduce_scatter", "scan"};
static const char* const uc_mpi_names[UC_COUNT] = {
    "MPI_Barrier",   "MPI_Bcast",    "MPI_Scatter", "MPI_Scatterv",  "MPI_Gather",         "MPI_Gatherv", "MPI_Allgather",
    "MPI_Allgatherv", "MPI_Alltoall", "MPI_Alltoallv", "MPI_Reduce", "MPI_Allreduce", "MPI_Reduce_scatter", "MPI_Exscan"};

/* The collective named `name`, or -1. */
static inline int uc_from_name(const char* name) {
  for (int c = 0; c < UC_COUNT; ++c)
    if (strcmp(name, uc_names[c]) == 0) return c;
  return -1;
}

static inline int uc_is_reduction(int c) {
  return c == UC_REDUCE || c == UC_ALLREDUCE || c == UC_REDUCE_SCATTER || c == UC_SCAN;
}
static inline int uc_is_v(int c) { return c == UC_SCATTERV || c == UC_GATHERV || c == UC_ALLGATHERV || c == UC_ALLTOALLV; }
static inline int uc_has_root(int c) {
  return c == UC_BCAST || c == UC_SCATTER || c == UC_SCATTERV || c == UC_GATHER || c == UC_GATHERV || c == UC_REDUCE;
}
/* Bytes of one element: double for the reductions, a byte otherwise. */
static inline uint64_t uc_elem(int c) { return uc_is_reduction(c) ? sizeof(double) : 1; }
/* The element type as the rows name it. */
static inline const char* uc_type_name(int c) {
  return uc_is_reduction(c) ? "double" : c == UC_BARRIER ? "none" : "byte";
}

/* Blocks of nbytes the collective must write (read, for the reductions). */
static inline uint64_t uc_copies(int c, int threads) {
  const uint64_t t = (uint64_t)threads;
  switch (c) {
    case UC_BARRIER: return 0;
    case UC_ALLGATHER:
    case UC_ALLGATHERV:
    case UC_ALLTOALL:
    case UC_ALLTOALLV:
    case UC_REDUCE_SCATTER: return t * t;
    default: return t;
  }
}

/* Bytes per rank of the send and receive buffers for blocks of nbytes (every rank
 * allocates the same, the root's layout). */
static inline uint64_t uc_src_bytes(int c, int threads, uint64_t nbytes) {
  switch (c) {
    case UC_BARRIER: return 16;
    case UC_SCATTER:
    case UC_SCATTERV:
    case UC_ALLTOALL:
    case UC_ALLTOALLV:
    case UC_REDUCE_SCATTER: return nbytes * (uint64_t)threads;
    default: return nbytes;
  }
}
static inline uint64_t uc_dst_bytes(int c, int threads, uint64_t nbytes) {
  switch (c) {
    case UC_BARRIER: return 16;
    case UC_GATHER:
    case UC_GATHERV:
    case UC_ALLGATHER:
    case UC_ALLGATHERV:
    case UC_ALLTOALL:
    case UC_ALLTOALLV: return nbytes * (uint64_t)threads;
    default: return nbytes;
  }
}

/* The memcpy bound's copies per copier (coll_model.h's K): ceil(copies / P) for
 * P = min(THREADS, CPUs) copiers. */
static inline uint64_t uc_bound_copies_per_copier(int c, int threads, int cpus) {
  const uint64_t p = (uint64_t)(threads < cpus ? threads : cpus);
  return (uc_copies(c, threads) + p - 1) / p;
}

/* The block sizes of collective c, into out[0, max_out); returns how many: the
 * sizes min_bytes, min_bytes * step, ... up to max_bytes, rounded down to whole
 * elements (at least one), up to the largest whose uc_copies * nbytes stays within
 * max_moved (0: no limit); no size twice. The barrier has one size, 0. */
static inline int uc_sizes(int c, int threads, uint64_t min_bytes, uint64_t max_bytes, uint64_t step, uint64_t max_moved,
                           uint64_t* out, int max_out) {
  if (c == UC_BARRIER) {
    out[0] = 0;
    return 1;
  }
  int k = 0;
  const uint64_t e = uc_elem(c), copies = uc_copies(c, threads);
  for (uint64_t sz = min_bytes; sz <= max_bytes && k < max_out;) {
    const uint64_t n = (sz / e ? sz / e : 1) * e;
    if (max_moved && n * copies > max_moved) break;
    if (k == 0 || out[k - 1] != n) out[k++] = n;
    if (sz > max_bytes / step) break;
    sz *= step;
  }
  return k;
}

/* Displacement of block t (in elements) in the v-variants: reversed order. */
static inline uint64_t uc_displ(int t, int threads, uint64_t count) { return (uint64_t)(threads - 1 - t) * count; }

/* Where the data movement collectives put their data. Segment j (0 <= j <
 * uc_segments) of rank me's receive buffer starts at byte *dst_off, holds nbytes
 * and must equal bytes [*start, *start + nbytes) of rank *writer's pattern (the
 * whole send buffer of every rank is filled with its pattern). */
static inline int uc_segments(int c, int threads, int me, int root) {
  switch (c) {
    case UC_BCAST:
    case UC_SCATTER:
    case UC_SCATTERV: return 1;
    case UC_GATHER:
    case UC_GATHERV: return me == root ? threads : 0;
    case UC_ALLGATHER:
    case UC_ALLGATHERV:
    case UC_ALLTOALL:
    case UC_ALLTOALLV: return threads;
    default: return 0;
  }
}
static inline void uc_segment(int c, int threads, int me, int root, uint64_t nbytes, int j, uint64_t* dst_off,
                              int* writer, uint64_t* start) {
  *dst_off = 0;
  *writer = root;
  *start = 0;
  switch (c) {
    case UC_BCAST: break;
    case UC_SCATTER: *start = (uint64_t)me * nbytes; break;
    case UC_SCATTERV: *start = uc_displ(me, threads, nbytes); break;
    case UC_GATHER:
    case UC_ALLGATHER:
      *dst_off = (uint64_t)j * nbytes;
      *writer = j;
      break;
    case UC_GATHERV:
    case UC_ALLGATHERV:
      *dst_off = uc_displ(j, threads, nbytes);
      *writer = j;
      break;
    case UC_ALLTOALL:
      *dst_off = (uint64_t)j * nbytes;
      *writer = j;
      *start = (uint64_t)me * nbytes;
      break;
    case UC_ALLTOALLV:
      *dst_off = uc_displ(j, threads, nbytes);
      *writer = j;
      *start = uc_displ(me, threads, nbytes);
      break;
    default: break;
  }
}

/* The reductions: element k of rank t's send buffer is coll_reduce_value(seed, t, k)
 * as a double (small integers: every sum is exact in any order). Fills `expected`
 * (count doubles) with what rank me must hold and returns 1, or returns 0 when
 * me's receive buffer is not defined (reduce off the root; scan on rank 0, whose
 * buffer must stay as it was in upccoll and is undefined in MPI). */
static inline int uc_expected_reduction(int c, int threads, int me, int root, uint64_t seed, uint64_t count,
                                        double* expected) {
  if ((c == UC_REDUCE && me != root) || (c == UC_SCAN && me == 0)) return 0;
  const int last = c == UC_SCAN ? me : threads; /* ranks [0, last) contribute */
  const uint64_t base = c == UC_REDUCE_SCATTER ? (uint64_t)me * count : 0;
  for (uint64_t k = 0; k < count; ++k) expected[k] = 0;
  for (int t = 0; t < last; ++t)
    for (uint64_t k = 0; k < count; ++k) expected[k] += (double)coll_reduce_value(seed, t, base + k);
  return 1;
}

/* Fills rank me's send buffer of src_bytes for seed: the byte pattern, or the
 * reduction values. */
static inline void uc_fill_source(int c, unsigned char* src, uint64_t src_bytes, uint64_t seed, int me) {
  if (uc_is_reduction(c)) {
    double* d = (double*)src;
    for (uint64_t k = 0; k < src_bytes / sizeof(double); ++k) d[k] = (double)coll_reduce_value(seed, me, k);
  } else {
    coll_fill_pattern(src, (size_t)src_bytes, seed, me, 0);
  }
}

/* Wrong bytes (elements, for the reductions) in rank me's receive buffer, which
 * was filled with COLL_POISON_BYTE before the call; scratch holds at least nbytes
 * (bytes: the pattern; reductions: the expected doubles). With check_scan_rank0,
 * rank 0's scan buffer must still hold the poison (upccoll leaves it as it was). */
static inline uint64_t uc_count_wrong(int c, int threads, int me, int root, uint64_t seed, uint64_t nbytes,
                                      const unsigned char* dst, unsigned char* scratch, int check_scan_rank0) {
  uint64_t wrong = 0;
  if (c == UC_BARRIER) return 0;
  if (uc_is_reduction(c)) {
    const uint64_t count = nbytes / sizeof(double);
    double* expected = (double*)scratch;
    if (!uc_expected_reduction(c, threads, me, root, seed, count, expected)) {
      if (c == UC_SCAN && check_scan_rank0)
        for (uint64_t k = 0; k < nbytes; ++k) wrong += dst[k] != COLL_POISON_BYTE;
      return wrong;
    }
    const double* got = (const double*)dst;
    for (uint64_t k = 0; k < count; ++k) wrong += got[k] != expected[k];
    return wrong;
  }
  const int segs = uc_segments(c, threads, me, root);
  for (int j = 0; j < segs; ++j) {
    uint64_t off, start;
    int writer;
    uc_segment(c, threads, me, root, nbytes, j, &off, &writer, &start);
    wrong += coll_count_wrong(dst + off, (size_t)nbytes, seed, writer, start, scratch);
  }
  return wrong;
}

#endif
