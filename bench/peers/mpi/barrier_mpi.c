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

static double seconds_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double slowest_rank(double mine) {
  double m;
  MPI_Allreduce(&mine, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return m;
}

static void barriers(long n) {
  for (long i = 0; i < n; ++i) MPI_Barrier(MPI_COMM_WORLD);
}

static double timed_on_slowest(long n) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = seconds_now();
  barriers(n);
  return slowest_rank(seconds_now() - t0);
}

static int compare_doubles(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
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
      entered = seconds_now();
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double left = seconds_now();
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

/* Accepts --name=value and --name value. Returns the value or NULL. */
static const char* option_value(int argc, char** argv, int* i, const char* name) {
  size_t n = strlen(name);
  if (strncmp(argv[*i], name, n) != 0) return NULL;
  if (argv[*i][n] == '=') return argv[*i] + n + 1;
  if (argv[*i][n] == '\0' && *i + 1 < argc) return argv[++*i];
  return NULL;
}

static int parse_long(const char* s, long min, long* out) {
  char* end;
  long v = strtol(s, &end, 10);
  if (end == s || *end || v < min) return 0;
  *out = v;
  return 1;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, ranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);

  long iters = 0, reps = 7, warmup = 200, verify_rounds = 20;
  double min_time = 0.2;
  int jsonl = 0, no_verify = 0, bad = 0;
  for (int i = 1; i < argc && !bad; ++i) {
    const char* v;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      if (rank == 0) usage();
      MPI_Finalize();
      return 0;
    } else if (!strcmp(argv[i], "--no-verify")) {
      no_verify = 1;
    } else if ((v = option_value(argc, argv, &i, "--iters"))) {
      bad = !parse_long(v, 0, &iters);
    } else if ((v = option_value(argc, argv, &i, "--reps"))) {
      bad = !parse_long(v, 1, &reps);
    } else if ((v = option_value(argc, argv, &i, "--warmup"))) {
      bad = !parse_long(v, 0, &warmup);
    } else if ((v = option_value(argc, argv, &i, "--verify-rounds"))) {
      bad = !parse_long(v, 0, &verify_rounds);
    } else if ((v = option_value(argc, argv, &i, "--min-time"))) {
      char* end;
      min_time = strtod(v, &end);
      bad = end == v || *end || !(min_time > 0);
    } else if ((v = option_value(argc, argv, &i, "--format"))) {
      bad = strcmp(v, "text") && strcmp(v, "jsonl");
      jsonl = !strcmp(v, "jsonl");
    } else {
      bad = 1;
    }
    if (bad && rank == 0) fprintf(stderr, "barrier_mpi: bad option '%s' (see --help)\n", argv[i]);
  }
  if (bad) {
    MPI_Finalize();
    return 2;
  }

  long wrong = no_verify ? 0 : verify_barrier(verify_rounds, rank, ranks);
  long total_wrong = 0;
  MPI_Allreduce(&wrong, &total_wrong, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);

  barriers(warmup);
  int calibrated = iters == 0;
  if (calibrated) {
    /* Grow n until a run takes an eighth of the target, then scale (as team.hpp). */
    long n = 64, cap = 10000000;
    for (;;) {
      double t = timed_on_slowest(n);
      if (t >= min_time / 8 || n >= cap) {
        double scaled = (double)n * min_time / (t > 1e-9 ? t : 1e-9);
        iters = scaled < 1 ? 1 : scaled > cap ? cap : (long)scaled;
        break;
      }
      n = n * 8 < cap ? n * 8 : cap;
    }
  }

  double* us = malloc(sizeof(double) * (size_t)reps);
  for (long r = 0; r < reps; ++r) us[r] = timed_on_slowest(iters) * 1e6 / (double)iters;
  qsort(us, (size_t)reps, sizeof(double), compare_doubles);
  double median = reps % 2 ? us[reps / 2] : (us[reps / 2 - 1] + us[reps / 2]) / 2;

  if (rank == 0) {
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(version, &len);
    for (char* c = version; *c; ++c)
      if (*c == '\n' || *c == '"' || *c == '\\') *c = ' ';
    char* comma = strchr(version, ',');  /* "Open MPI v4.1.4, package: ..." -> "Open MPI v4.1.4" */
    if (comma) *comma = '\0';
    char cpu[256] = "unknown";
    FILE* f = fopen("/proc/cpuinfo", "r");
    if (f) {
      char line[512];
      while (fgets(line, sizeof line, f))
        if (!strncmp(line, "model name", 10)) {
          char* c = strchr(line, ':');
          if (c) {
            c += 2;
            c[strcspn(c, "\n")] = '\0';
            snprintf(cpu, sizeof cpu, "%s", c);
          }
          break;
        }
      fclose(f);
    }
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    if (jsonl) {
      printf("# {\"bench\": \"barrier_latency\", \"backend\": \"mpi\", \"threads\": %d, \"iters\": %ld, "
             "\"iters_calibrated\": %s, \"min_time_s\": %g, \"reps\": %ld, \"warmup\": %ld, \"verify_rounds\": %ld, "
             "\"statistic\": \"slowest rank per repetition; median/min/max over repetitions\", "
             "\"peer\": \"%s\", \"cpu_model\": \"%s\", \"date\": \"%s\"}\n",
             ranks, iters, calibrated ? "true" : "false", min_time, reps, warmup, no_verify ? 0 : verify_rounds,
             version, cpu, date);
      printf("{\"bench\": \"barrier_latency\", \"backend\": \"mpi\", \"threads\": %d, \"iters\": %ld, "
             "\"median_us\": %.6g, \"min_us\": %.6g, \"max_us\": %.6g, \"verified\": %s, \"wrong\": %ld}\n",
             ranks, iters, median, us[0], us[reps - 1], no_verify ? "false" : "true", total_wrong);
    } else {
      printf("# bench=barrier_latency backend=mpi threads=%d iters=%ld iters_calibrated=%s min_time_s=%g reps=%ld "
             "warmup=%ld verify_rounds=%ld peer=\"%s\" cpu_model=\"%s\" date=%s\n",
             ranks, iters, calibrated ? "true" : "false", min_time, reps, warmup, no_verify ? 0 : verify_rounds,
             version, cpu, date);
      printf("# %11s %11s %11s %11s %11s %11s\n", "iters", "median_us", "min_us", "max_us", "verified", "wrong");
      printf("  %11ld %11.6g %11.6g %11.6g %11s %11ld\n", iters, median, us[0], us[reps - 1],
             no_verify ? "false" : "true", total_wrong);
    }
    fflush(stdout);
  }
  free(us);
  MPI_Finalize();
  return total_wrong ? 1 : 0;
}
