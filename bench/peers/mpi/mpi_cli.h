/* Command-line options of the MPI peers (barrier_mpi, coll_mpi, coll2_mpi,
 * overlap_mpi): --name=value or --name value, sizes with K/M/G suffixes, as
 * harness/cli.hpp reads them for the UPC benchmarks, so that a peer takes the
 * options of the benchmark it mirrors. Every rank parses the same argv and
 * reaches the same verdict; rank 0 prints. */
#ifndef UPCEMU_BENCH_MPI_CLI_H
#define UPCEMU_BENCH_MPI_CLI_H

#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* MPI_Init, with this rank and the number of ranks. */
static inline void mb_init(int* argc, char*** argv, int* rank, int* ranks) {
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, ranks);
}

/* MPI_Finalize, then main() returns status: 0 after --help, 2 after a bad option,
 * or the run's verdict. */
static inline int mb_finalize(int status) {
  MPI_Finalize();
  return status;
}

/* The value of option `name` at argv[*i] (--name=value, or --name value, which
 * moves *i on), or NULL when argv[*i] is another option. */
static inline const char* mb_option_value(int argc, char** argv, int* i, const char* name) {
  size_t n = strlen(name);
  if (strncmp(argv[*i], name, n) != 0) return NULL;
  if (argv[*i][n] == '=') return argv[*i] + n + 1;
  if (argv[*i][n] == '\0' && *i + 1 < argc) return argv[++*i];
  return NULL;
}

static inline int mb_is_help(const char* arg) { return !strcmp(arg, "--help") || !strcmp(arg, "-h"); }

/* "64", "4K", "8M" and, when giga, "1G" (binary multiples); 0 on anything else. */
static inline int mb_parse_size(const char* text, int giga, uint64_t* out) {
  char* end;
  unsigned long long v = strtoull(text, &end, 10);
  if (end == text) return 0;
  uint64_t mult = 1;
  if (!strcmp(end, "") || !strcmp(end, "B")) mult = 1;
  else if (!strcmp(end, "K") || !strcmp(end, "k") || !strcmp(end, "KiB")) mult = 1ULL << 10;
  else if (!strcmp(end, "M") || !strcmp(end, "MiB")) mult = 1ULL << 20;
  else if (giga && (!strcmp(end, "G") || !strcmp(end, "GiB"))) mult = 1ULL << 30;
  else return 0;
  *out = (uint64_t)v * mult;
  return 1;
}

/* A whole number of at least min; 0 on anything else. */
static inline int mb_parse_long(const char* s, long min, long* out) {
  char* end;
  long v = strtol(s, &end, 10);
  if (end == s || *end || v < min) return 0;
  *out = v;
  return 1;
}

/* A number above 0 (seconds, microseconds, factors); 0 on anything else. */
static inline int mb_parse_positive(const char* s, double* out) {
  char* end;
  double v = strtod(s, &end);
  if (end == s || *end || !(v > 0)) return 0;
  *out = v;
  return 1;
}

/* --format: text or jsonl; 0 on anything else. */
static inline int mb_parse_format(const char* s, int* jsonl) {
  *jsonl = !strcmp(s, "jsonl");
  return *jsonl || !strcmp(s, "text");
}

#endif
