/* The peer of bench/micro/barrier_latency: microseconds per MPI_Barrier, timed the
 * same way. Each repetition starts all ranks together (a barrier), times `iters`
 * back-to-back MPI_Barrier calls on every rank, and keeps the slowest rank's time
 * divided by iters; the row gives the median, min and max over repetitions. Rows
 * have the same fields as barrier_latency's, with backend "mpi" and threads = ranks.
 *
 *   mpirun -np 4 ./build-bench/bench/peers/mpi/barrier_mpi --format=jsonl
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpi_cli.h"
#include "mpi_machine.h"
#include "mpi_timing.h"

static void barriers(void* unused, long n) {
  (void)unused;
  for (long i = 0; i < n; ++i) MPI_Barrier(MPI_COMM_WORLD);
}

/* Checks that no rank leaves MPI_Barrier before the last one has entered: in round
 * r, rank r % ranks sleeps a millisecond, notes when it enters, and after the
 * barrier broadcasts that time; every rank compares it with the time it left
 * (CLOCK_MONOTONIC is one clock for every process of the machine). Returns the
 * rounds in which this rank left early. */
static long verify_barrier(long rounds, int rank, int ranks) {
  long wrong = 0;
  for (long r = 0; r < rounds; ++r) {
    int late = (int)(r % ranks);
    double entered = 0;
    if (rank == late) {
      struct timespec ms = {0, 1000000};
      nanosleep(&ms, NULL);
      entered = mb_seconds_now();
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double left = mb_seconds_now();
    MPI_Bcast(&entered, 1, MPI_DOUBLE, late, MPI_COMM_WORLD);
    if (left < entered) ++wrong;
  }
  return wrong;
}

static void usage(void) {
  printf(
      "usage: mpirun -np N barrier_mpi [options]\n\n"
      "Latency of MPI_Barrier in microseconds: median, min and max over repetitions of the\n"
      "slowest rank's time per barrier (the peer of bench/micro/barrier_latency).\n\n"
      "options:\n"
      "  --iters=N            barriers per repetition (0: calibrate to --min-time) (default 0)\n"
      "  --min-time=X         seconds per repetition when calibrating (default 0.2)\n"
      "  --reps=N             repetitions; the row reports their median, min and max (default 7)\n"
      "  --warmup=N           barriers before measuring (default 200)\n"
      "  --verify-rounds=N    rounds checked (one late rank each) (default 20)\n"
      "  --no-verify          skip verification\n"
      "  --format=text|jsonl  output rows as aligned text or one JSON object per line (default text)\n"
      "  --help               this text\n");
}

int main(int argc, char** argv) {
  int rank, ranks;
  mb_init(&argc, &argv, &rank, &ranks);

  long iters = 0, reps = 7, warmup = 200, verify_rounds = 20;
  double min_time = 0.2;
  int jsonl = 0, no_verify = 0, bad = 0;
  for (int i = 1; i < argc && !bad; ++i) {
    const char* v;
    if (mb_is_help(argv[i])) {
      if (rank == 0) usage();
      return mb_finalize(0);
    } else if (!strcmp(argv[i], "--no-verify")) {
      no_verify = 1;
    } else if ((v = mb_option_value(argc, argv, &i, "--iters"))) {
      bad = !mb_parse_long(v, 0, &iters);
    } else if ((v = mb_option_value(argc, argv, &i, "--reps"))) {
      bad = !mb_parse_long(v, 1, &reps);
    } else if ((v = mb_option_value(argc, argv, &i, "--warmup"))) {
      bad = !mb_parse_long(v, 0, &warmup);
    } else if ((v = mb_option_value(argc, argv, &i, "--verify-rounds"))) {
      bad = !mb_parse_long(v, 0, &verify_rounds);
    } else if ((v = mb_option_value(argc, argv, &i, "--min-time"))) {
      bad = !mb_parse_positive(v, &min_time);
    } else if ((v = mb_option_value(argc, argv, &i, "--format"))) {
      bad = !mb_parse_format(v, &jsonl);
    } else {
      bad = 1;
    }
    if (bad && rank == 0) fprintf(stderr, "barrier_mpi: bad option '%s' (see --help)\n", argv[i]);
  }
  if (bad) return mb_finalize(2);

  long wrong = no_verify ? 0 : verify_barrier(verify_rounds, rank, ranks);
  long total_wrong = 0;
  MPI_Allreduce(&wrong, &total_wrong, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);

  barriers(NULL, warmup);
  int calibrated = iters == 0;
  if (calibrated) iters = mb_calibrate(mb_slowest_per_call, barriers, NULL, min_time, 64, 10000000);

  double* us = malloc(sizeof(double) * (size_t)reps);
  for (long r = 0; r < reps; ++r) us[r] = mb_slowest_per_call(barriers, NULL, iters) * 1e6;
  mb_sort(us, reps);
  double median = mb_median_sorted(us, reps);

  if (rank == 0) {
    struct mb_machine m;
    mb_machine_info(&m);
    if (jsonl) {
      printf("# {\"bench\": \"barrier_latency\", \"backend\": \"mpi\", \"threads\": %d, \"iters\": %ld, "
             "\"iters_calibrated\": %s, \"min_time_s\": %g, \"reps\": %ld, \"warmup\": %ld, \"verify_rounds\": %ld, "
             "\"statistic\": \"slowest rank per repetition; median/min/max over repetitions\", "
             "\"peer\": \"%s\", \"cpu_model\": \"%s\", \"date\": \"%s\"}\n",
             ranks, iters, calibrated ? "true" : "false", min_time, reps, warmup, no_verify ? 0 : verify_rounds,
             m.peer, m.cpu, m.date);
      printf("{\"bench\": \"barrier_latency\", \"backend\": \"mpi\", \"threads\": %d, \"iters\": %ld, "
             "\"median_us\": %.6g, \"min_us\": %.6g, \"max_us\": %.6g, \"verified\": %s, \"wrong\": %ld}\n",
             ranks, iters, median, us[0], us[reps - 1], no_verify ? "false" : "true", total_wrong);
    } else {
      printf("# bench=barrier_latency backend=mpi threads=%d iters=%ld iters_calibrated=%s min_time_s=%g reps=%ld "
             "warmup=%ld verify_rounds=%ld peer=\"%s\" cpu_model=\"%s\" date=%s\n",
             ranks, iters, calibrated ? "true" : "false", min_time, reps, warmup, no_verify ? 0 : verify_rounds,
             m.peer, m.cpu, m.date);
      printf("# %11s %11s %11s %11s %11s %11s\n", "iters", "median_us", "min_us", "max_us", "verified", "wrong");
      printf("  %11ld %11.6g %11.6g %11.6g %11s %11ld\n", iters, median, us[0], us[reps - 1],
             no_verify ? "false" : "true", total_wrong);
    }
    fflush(stdout);
  }
  free(us);
  return mb_finalize(total_wrong ? 1 : 0);
}
