/* NAS Parallel Benchmark IS (integer sort) with MPI: the peer of
 * apps/nas/is (seed 003 §3.4.3), the same problem, generator, bucketed ranking
 * and verification, with NPB-MPI's communication: MPI_Allreduce of the bucket
 * counts, MPI_Alltoall of the key counts and MPI_Alltoallv of the keys.
 *
 *   mpirun -np 4 build/bench/peers/mpi/nas/is_mpi --class=S
 *
 * Any number of ranks up to the class's number of buckets. Exit status 0 when
 * the run verified, 1 when it did not, 2 for a bad option. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npb_c.h"
#include "../../../../harness/npb_classes.h"

/* The official NPB classes are in harness/npb_classes.h, shared with apps/nas/is. */

static void *checked_malloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "is_mpi: out of memory (%zu bytes)\n", bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return p;
}

/* sloc is/mpi decl begin */
typedef struct {
  const struct npb_is_class *cls;
  int ranks, me, num_buckets, table, shift;
  long total, block, my_first, my_count; /* rank r holds keys [r*block, (r+1)*block) */
  int *key_array;                        /* my keys */
  int *key_buff1;                        /* my keys sorted into buckets */
  int *key_buff2;                        /* the keys I rank, from every rank */
  long key_buff2_size;
  int *key_counts;                       /* per key value of my range: counts, then ranks */
  long key_counts_size;
  int *bucket_size, *bucket_size_totals, *bucket_ptrs, *bucket_first, *bucket_last;
  int *send_count, *send_displ, *recv_count, *recv_displ;
  long local_keys, lesser_keys; /* the last iteration's ranking, for full_verify */
  int min_key_val;
  int passed;
} rank_data;

static void rank_data_init(rank_data *d, const struct npb_is_class *c, int ranks, int me) {
  memset(d, 0, sizeof *d);
  d->cls = c;
  d->ranks = ranks;
  d->me = me;
  d->num_buckets = 1 << c->num_buckets_log2;
  d->table = d->num_buckets + NPB_IS_TEST_ARRAY_SIZE;
  d->shift = c->max_key_log2 - c->num_buckets_log2;
  d->total = 1L << c->total_keys_log2;
  d->block = (d->total + ranks - 1) / ranks;
  d->my_first = (long)me * d->block < d->total ? (long)me * d->block : d->total;
  d->my_count = ((long)(me + 1) * d->block < d->total ? (long)(me + 1) * d->block : d->total) - d->my_first;
  d->key_array = checked_malloc((size_t)d->my_count * sizeof(int));
  d->key_buff1 = checked_malloc((size_t)d->my_count * sizeof(int));
  d->key_buff2_size = d->block;
  d->key_buff2 = checked_malloc((size_t)d->key_buff2_size * sizeof(int));
  d->key_counts_size = 0;
  d->key_counts = NULL;
  d->bucket_size = checked_malloc((size_t)d->table * sizeof(int));
  d->bucket_size_totals = checked_malloc((size_t)d->table * sizeof(int));
  d->bucket_ptrs = checked_malloc((size_t)d->num_buckets * sizeof(int));
  d->bucket_first = checked_malloc((size_t)ranks * sizeof(int));
  d->bucket_last = checked_malloc((size_t)ranks * sizeof(int));
  d->send_count = checked_malloc((size_t)ranks * sizeof(int));
  d->send_displ = checked_malloc((size_t)ranks * sizeof(int));
  d->recv_count = checked_malloc((size_t)ranks * sizeof(int));
  d->recv_displ = checked_malloc((size_t)ranks * sizeof(int));
}
/* sloc is/mpi decl end */

static void rank_data_free(rank_data *d) {
  free(d->key_array); free(d->key_buff1); free(d->key_buff2); free(d->key_counts);
  free(d->bucket_size); free(d->bucket_size_totals); free(d->bucket_ptrs);
  free(d->bucket_first); free(d->bucket_last);
  free(d->send_count); free(d->send_displ); free(d->recv_count); free(d->recv_displ);
}

/* Key g is MAX_KEY/4 times the sum of random numbers 4g+1 .. 4g+4 of NPB's
 * sequence: my stream starts 4*my_first numbers in (a^(4 my_first) mod 2^46). */
static void generate_keys(rank_data *d) {
  double x = NPB_SEED;
  const double jump = npb_power_mod(NPB_MULTIPLIER, 4 * (uint64_t)d->my_first);
  const int k = (1 << d->cls->max_key_log2) / 4;
  npb_randlc(&x, jump);
  for (long i = 0; i < d->my_count; ++i) {
    double sum = npb_randlc(&x, NPB_MULTIPLIER);
    sum += npb_randlc(&x, NPB_MULTIPLIER);
    sum += npb_randlc(&x, NPB_MULTIPLIER);
    sum += npb_randlc(&x, NPB_MULTIPLIER);
    d->key_array[i] = (int)(k * sum);
  }
}

static int is_mine(const rank_data *d, long g) { return g >= d->my_first && g < d->my_first + d->my_count; }

/* The end of rank r's share of the keys (NPB: (r+1)*NUM_KEYS). */
static long share_end(const rank_data *d, int r) {
  const long e = (long)(r + 1) * d->block;
  return e < d->total ? e : d->total;
}

/* sloc is/mpi comp begin */
/* Rank j gets whole buckets until the keys assigned so far reach the end of
 * its share; a bucket that reaches several shares leaves empty ranges. */
static void assign_buckets(rank_data *d) {
  long total = 0, mine = 0;
  int j = 0;
  d->bucket_first[0] = 0;
  for (int b = 0; b < d->num_buckets; ++b) {
    total += d->bucket_size_totals[b];
    mine += d->bucket_size[b];
    while (j < d->ranks - 1 && total >= share_end(d, j)) {
      d->bucket_last[j] = b;
      d->send_count[j] = (int)mine;
      mine = 0;
      d->bucket_first[++j] = b + 1;
    }
  }
  d->bucket_last[d->ranks - 1] = d->num_buckets - 1;
  d->send_count[d->ranks - 1] = (int)mine;
  d->send_displ[0] = 0;
  for (int r = 1; r < d->ranks; ++r) d->send_displ[r] = d->send_displ[r - 1] + d->send_count[r - 1];
}

static void rank(rank_data *d, int iteration) {
  const int shift = d->shift, max_key = 1 << d->cls->max_key_log2;

  /* NPB changes two keys every iteration */
  if (is_mine(d, iteration)) d->key_array[iteration - d->my_first] = iteration;
  if (is_mine(d, iteration + NPB_IS_MAX_ITERATIONS)) d->key_array[iteration + NPB_IS_MAX_ITERATIONS - d->my_first] = max_key - iteration;

  /* my bucket counts; the test keys' values ride along at the top */
  memset(d->bucket_size, 0, (size_t)d->table * sizeof(int));
  for (int i = 0; i < NPB_IS_TEST_ARRAY_SIZE; ++i)
    if (is_mine(d, d->cls->test_index[i])) d->bucket_size[d->num_buckets + i] = d->key_array[d->cls->test_index[i] - d->my_first];
  for (long i = 0; i < d->my_count; ++i) d->bucket_size[d->key_array[i] >> shift]++;

  /* my keys sorted into buckets */
  d->bucket_ptrs[0] = 0;
  for (int b = 1; b < d->num_buckets; ++b) d->bucket_ptrs[b] = d->bucket_ptrs[b - 1] + d->bucket_size[b - 1];
  for (long i = 0; i < d->my_count; ++i) {
    const int key = d->key_array[i];
    d->key_buff1[d->bucket_ptrs[key >> shift]++] = key;
  }
  /* sloc is/mpi comp end */

  /* sloc is/mpi comm begin */
  MPI_Allreduce(d->bucket_size, d->bucket_size_totals, d->table, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  /* sloc is/mpi comm end */

  /* sloc is/mpi comp begin */
  assign_buckets(d);
  const int first = d->bucket_first[d->me], last = d->bucket_last[d->me];
  long lesser = 0, local = 0; /* keys of the ranks before me; keys I rank */
  for (int b = 0; b < first; ++b) lesser += d->bucket_size_totals[b];
  for (int b = first; b <= last; ++b) local += d->bucket_size_totals[b];
  if (local > d->key_buff2_size) {
    free(d->key_buff2);
    d->key_buff2_size = local;
    d->key_buff2 = checked_malloc((size_t)local * sizeof(int));
  }
  /* sloc is/mpi comp end */

  /* sloc is/mpi comm begin */
  MPI_Alltoall(d->send_count, 1, MPI_INT, d->recv_count, 1, MPI_INT, MPI_COMM_WORLD);
  d->recv_displ[0] = 0;
  for (int r = 1; r < d->ranks; ++r) d->recv_displ[r] = d->recv_displ[r - 1] + d->recv_count[r - 1];
  MPI_Alltoallv(d->key_buff1, d->send_count, d->send_displ, MPI_INT, d->key_buff2, d->recv_count, d->recv_displ, MPI_INT,
                MPI_COMM_WORLD);
  /* sloc is/mpi comm end */

  /* sloc is/mpi comp begin */
  const int min_key_val = first << shift, max_key_val = ((last + 1) << shift) - 1;
  const long range = (long)max_key_val - min_key_val + 1;
  if (range > d->key_counts_size) {
    free(d->key_counts);
    d->key_counts_size = range;
    d->key_counts = checked_malloc((size_t)range * sizeof(int));
  }
  int *counts = d->key_counts; /* counts[key - min_key_val] */
  if (range > 0) memset(counts, 0, (size_t)range * sizeof(int));
  for (long i = 0; i < local; ++i) counts[d->key_buff2[i] - min_key_val]++;
  if (first <= last) { /* ranks: keys <= each value, counting the ranks before me */
    counts[0] += (int)lesser;
    for (long k = 1; k < range; ++k) counts[k] += counts[k - 1];
  }
  /* sloc is/mpi comp end */

  /* partial verification */
  for (int i = 0; i < NPB_IS_TEST_ARRAY_SIZE; ++i) {
    const int k = d->bucket_size_totals[d->num_buckets + i];
    if (k < min_key_val || k > max_key_val) continue;
    const long key_rank = k - 1 >= min_key_val ? counts[k - 1 - min_key_val] : lesser;
    const long want = npb_is_expected_rank(d->cls, i, iteration);
    if (key_rank != want)
      printf("Failed partial verification: iteration %d, rank %d, test key %d (rank %ld, expected %ld)\n", iteration, d->me, i,
             key_rank, want);
    else
      d->passed++;
  }
  d->local_keys = local;
  d->lesser_keys = lesser;
  d->min_key_val = min_key_val;
}

/* Every rank puts its keys at their ranks and checks they come out sorted,
 * and that its first key is not less than any key of the ranks before it. */
static void full_verify(rank_data *d) {
  const long n = d->local_keys;
  int *sorted = checked_malloc((size_t)n * sizeof(int));
  long wrong = 0;
  for (long i = 0; i < n; ++i) {
    const int key = d->key_buff2[i];
    const long slot = (long)key - d->min_key_val;
    if (slot < 0 || slot >= d->key_counts_size) {
      ++wrong;
      continue;
    }
    const long at = --d->key_counts[slot] - d->lesser_keys;
    if (at < 0 || at >= n) {
      ++wrong;
      continue;
    }
    sorted[at] = key;
  }
  int last = n > 0 ? sorted[n - 1] : -1;
  int *lastkeys = checked_malloc((size_t)d->ranks * sizeof(int));
  MPI_Allgather(&last, 1, MPI_INT, lastkeys, 1, MPI_INT, MPI_COMM_WORLD);
  int before = -1;
  for (int r = 0; r < d->me; ++r)
    if (lastkeys[r] > before) before = lastkeys[r];
  if (n > 0 && before > sorted[0]) ++wrong;
  for (long i = 1; i < n; ++i)
    if (sorted[i - 1] > sorted[i]) ++wrong;
  if (wrong != 0)
    printf("Rank %d: full verification: %ld keys out of sort\n", d->me, wrong);
  else
    d->passed++;
  free(lastkeys);
  free(sorted);
}

static const char *usage =
    "usage: mpirun -np N is_mpi [--class=S|W|A|B|C]\n\n"
    "NAS Parallel Benchmark IS (integer sort) with MPI_Alltoall + MPI_Alltoallv, the MPI peer of\n"
    "apps/nas/is (seed 003 section 3.4.3). Any N up to the class's number of buckets.\n\n"
    "options:\n"
    "  --class=S|W|A|B|C                NPB problem class (default S)\n"
    "  --help                           this text\n";

/* 0: run; 1: --help; 2: a bad option (said by rank 0). */
static int parse(int argc, char **argv, int printer, char *class_name) {
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      if (printer) fputs(usage, stdout);
      return 1;
    }
    if (strncmp(argv[i], "--class=", 8) == 0 && strlen(argv[i]) == 9 && strchr("SWABC", argv[i][8])) {
      *class_name = argv[i][8];
      continue;
    }
    if (printer)
      fprintf(stderr, "is_mpi: %s: %s (see --help)\n", argv[i],
              strncmp(argv[i], "--class=", 8) == 0 ? "the class is one of S, W, A, B, C" : "unknown option");
    return 2;
  }
  return 0;
}

int main(int argc, char **argv) {
  int ranks, me;
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);

  char class_name = 'S';
  const int parsed = parse(argc, argv, me == 0, &class_name);
  if (parsed != 0) {
    MPI_Finalize();
    return parsed == 1 ? 0 : 2;
  }
  const struct npb_is_class *c = NULL;
  for (size_t i = 0; i < sizeof npb_is_classes / sizeof npb_is_classes[0]; ++i)
    if (npb_is_classes[i].name == class_name) c = &npb_is_classes[i];
  if (ranks > (1 << c->num_buckets_log2)) {
    if (me == 0)
      fprintf(stderr, "is_mpi: %d ranks are more than the %d buckets of class %c (NPB IS needs ranks <= NUM_BUCKETS)\n", ranks,
              1 << c->num_buckets_log2, c->name);
    MPI_Finalize();
    return 2;
  }

  rank_data d;
  rank_data_init(&d, c, ranks, me);
  if (me == 0)
    printf("\n\n NAS Parallel Benchmarks (NPB 3.x problem) -- IS Benchmark, MPI\n\n"
           " Size:  %ld  (class %c)\n Iterations:  %d\n Number of processes:  %d\n",
           d.total, c->name, NPB_IS_MAX_ITERATIONS, ranks);
  generate_keys(&d);

  rank(&d, 1); /* NPB's free iteration */
  d.passed = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int iteration = 1; iteration <= NPB_IS_MAX_ITERATIONS; ++iteration) rank(&d, iteration);
  double seconds = MPI_Wtime() - start;

  full_verify(&d);

  double slowest = 0;
  int total_passed = 0;
  MPI_Reduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&d.passed, &total_passed, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  int verified = 0;
  if (me == 0) {
    const int wanted = NPB_IS_TEST_ARRAY_SIZE * NPB_IS_MAX_ITERATIONS + ranks; /* NPB's count */
    verified = total_passed == wanted;
    if (!verified) printf(" %d of %d verifications passed\n", total_passed, wanted);
    char size[32];
    snprintf(size, sizeof size, "%ld", d.total);
    npb_print_report("IS", "is", "alltoallv", c->name, size, NPB_IS_MAX_ITERATIONS, slowest,
                     (double)d.total * NPB_IS_MAX_ITERATIONS / slowest / 1e6, "keys ranked", verified, ranks);
  }
  rank_data_free(&d);
  MPI_Finalize();
  return me == 0 && !verified ? 1 : 0;
}
