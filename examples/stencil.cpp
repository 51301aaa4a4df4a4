// A 2-D Jacobi stencil over a blocked shared array, the parallel version of the
// classroom stencil of seed 003 (§2.2): a grid of ROWS_PER_THREAD * THREADS rows
// by COLS columns, distributed by blocks of whole rows (thread t owns rows
// [t * ROWS_PER_THREAD, (t + 1) * ROWS_PER_THREAD)). Each iteration replaces every
// interior point by the average of its four neighbours; the outer frame is fixed.
//
//   upcrun -n 4 ./stencil [iterations]           (default 100)
//
// One iteration on one thread:
//   1. copy its own rows out of the shared grid through a privatised pointer, and
//      fetch the two ghost rows (the neighbours' nearest rows) with upc_memget;
//   2. compute its points with upc_forall, writing into the other shared grid;
//   3. upc_barrier, then the two grids swap roles.
//
//        thread t-1   ...  row r0-1  ──upc_memget──►  ghost row 0
//        thread t          rows r0 .. r0+R-1   ──►    rows 1..R of the local copy
//        thread t+1        row r0+R  ──upc_memget──►  ghost row R+1
//
// Thread 0 then repeats the same iterations sequentially on a private copy and
// compares every point; the results must be identical (same operations in the
// same order), else the exit status is 1.
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "upc.h"

namespace {
constexpr std::size_t COLS = 96;            // points per row
constexpr std::size_t ROWS_PER_THREAD = 16;  // rows each thread owns
constexpr std::size_t BLOCK = ROWS_PER_THREAD * COLS;
constexpr int default_iterations = 100;
}  // namespace

// shared [BLOCK] double grid_a[BLOCK*THREADS], grid_b[BLOCK*THREADS];
// (Braces, because `grid_a(upc::per_thread(BLOCK))` would declare a function.)
upc::shared_array<double, BLOCK> grid_a{upc::per_thread(BLOCK)};
upc::shared_array<double, BLOCK> grid_b{upc::per_thread(BLOCK)};

namespace {
using grid = upc::shared_array<double, BLOCK>;

// The starting value of point (r, c): any deterministic pattern will do.
double initial_value(std::size_t r, std::size_t c) { return static_cast<double>((r * 31 + c * 17) % 97) / 97.0; }

bool on_frame(std::size_t r, std::size_t c, std::size_t rows) { return r == 0 || c == 0 || r == rows - 1 || c == COLS - 1; }

// The stencil itself, shared by the parallel and the sequential version.
double average4(double up, double down, double left, double right) { return 0.25 * (up + down + left + right); }

int parse_iterations(int argc, char** argv) {
  if (argc < 2) return default_iterations;
  errno = 0;
  char* end = nullptr;
  long n = std::strtol(argv[1], &end, 10);
  if (errno != 0 || end == argv[1] || *end != '\0' || n < 0 || n > 1000000) return -1;
  return static_cast<int>(n);
}

// One Jacobi iteration of this thread's rows, from `src` into `dst`.
void iterate(const grid& src, const grid& dst, std::vector<double>& halo) {
  const std::size_t rows = ROWS_PER_THREAD * static_cast<std::size_t>(THREADS);
  const std::size_t first_row = ROWS_PER_THREAD * static_cast<std::size_t>(MYTHREAD);
  const std::size_t row_bytes = COLS * sizeof(double);

  // halo holds rows first_row-1 .. first_row+ROWS_PER_THREAD: own rows at 1..R.
  const double* mine = (&src[first_row * COLS]).local();  // privatised: my block is contiguous
  std::memcpy(&halo[COLS], mine, ROWS_PER_THREAD * row_bytes);
  if (MYTHREAD > 0) upc_memget(&halo[0], &src[(first_row - 1) * COLS], row_bytes);
  if (MYTHREAD < THREADS - 1)
    upc_memget(&halo[(ROWS_PER_THREAD + 1) * COLS], &src[(first_row + ROWS_PER_THREAD) * COLS], row_bytes);

  // Every thread runs the loop; each point is computed by the thread that owns dst[i].
  const int n = static_cast<int>(rows * COLS);
  upc_forall(int i = 0; i < n; i++, &dst[i]) {
    const std::size_t r = static_cast<std::size_t>(i) / COLS, c = static_cast<std::size_t>(i) % COLS;
    const double* h = &halo[(r - first_row + 1) * COLS + c];  // this point in the halo copy
    dst[i] = on_frame(r, c, rows) ? h[0] : average4(h[-static_cast<std::ptrdiff_t>(COLS)], h[COLS], h[-1], h[1]);
  }
}

// The same iterations, sequentially, on a private grid.
std::vector<double> sequential(std::size_t rows, int iterations) {
  std::vector<double> u(rows * COLS), v(rows * COLS);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < COLS; ++c) u[r * COLS + c] = initial_value(r, c);
  for (int it = 0; it < iterations; ++it) {
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < COLS; ++c) {
        const std::size_t i = r * COLS + c;
        v[i] = on_frame(r, c, rows) ? u[i] : average4(u[i - COLS], u[i + COLS], u[i - 1], u[i + 1]);
      }
    u.swap(v);
  }
  return u;
}
}  // namespace

int upc_main(int argc, char** argv) {
  const int iterations = parse_iterations(argc, argv);
  if (iterations < 0) {
    if (MYTHREAD == 0) std::fprintf(stderr, "usage: stencil [iterations, 0 to 1000000], got '%s'\n", argv[1]);
    return 2;
  }
  const std::size_t rows = ROWS_PER_THREAD * static_cast<std::size_t>(THREADS);

  // Initialise the points this thread owns (my_indices skips the others).
  for (std::size_t i : upc::my_indices(grid_a)) grid_a[i] = initial_value(i / COLS, i % COLS);
  upc_barrier;

  std::vector<double> halo((ROWS_PER_THREAD + 2) * COLS);
  for (int it = 0; it < iterations; ++it) {
    const grid& src = it % 2 == 0 ? grid_a : grid_b;
    const grid& dst = it % 2 == 0 ? grid_b : grid_a;
    iterate(src, dst, halo);
    upc_barrier;  // dst complete everywhere before anyone reads it as src
  }
  const grid& result = iterations % 2 == 0 ? grid_a : grid_b;

  int status = 0;
  if (MYTHREAD == 0) {
    const std::vector<double> expected = sequential(rows, iterations);
    std::vector<double> row(COLS);
    std::size_t mismatches = 0;
    double checksum = 0;
    for (std::size_t r = 0; r < rows; ++r) {
      upc_memget(row.data(), &result[r * COLS], COLS * sizeof(double));  // a row never spans two threads
      for (std::size_t c = 0; c < COLS; ++c) {
        checksum += row[c];
        if (row[c] != expected[r * COLS + c] && mismatches++ < 5)
          std::printf("MISMATCH at (%zu, %zu): parallel %.17g, sequential %.17g\n", r, c, row[c], expected[r * COLS + c]);
      }
    }
    std::printf("stencil: %zu x %zu grid, %d iterations on %d threads, checksum %.12f: %s\n", rows, COLS, iterations,
                THREADS, checksum, mismatches == 0 ? "matches the sequential computation" : "FAILED");
    if (mismatches != 0) {
      std::printf("%zu points differ from the sequential computation\n", mismatches);
      status = 1;
    }
  }
  return status;
}
