// NAS Parallel Benchmark FT (NPB 3.x): a 3-D PDE solved by forward and inverse
// 3-D FFTs on NPB's 1-D (slab) decomposition, with the global transpose written
// four ways — upc_memget from a shared array (seed 003 Listing 3.19), the
// extended exchange on private memory and in place (Listing 3.20), and the
// ZPL remap operator (seed 004 §4.2). The 1-D FFTs are FFTW's. Verified against
// NPB's official checksums; every version gives the same bits.
//
//   build/tools/upcrun -n 4 build/apps/nas/ft/ft_upc --class=S --variant=all
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "../../../harness/cli.hpp"
#include "../../../harness/team.hpp"
#include "ft_classes.hpp"
#include "ft_kernel.hpp"
#include "launch.hpp"
#include "line_fft.hpp"
#include "npb_report.hpp"
#include "transpose.hpp"
#include "upc.h"

namespace {

using namespace ft;

const char* const variants[] = {"memget", "priv", "in_place_priv", "remap"};

struct params {
  std::string cls = "S", variant = "all";
};

std::unique_ptr<transpose> make(const std::string& variant, const shape& s) {
  if (variant == "memget") return make_memget(s);
  if (variant == "priv") return make_priv(s);
  if (variant == "in_place_priv") return make_in_place_priv(s);
  return make_remap(s);
}

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct outcome {
  std::vector<cplx> sums;  // thread 0: the checksum of each iteration
  double seconds = 0;      // thread 0: the timed part
  bool verified = false;   // every thread
};

// One run of the benchmark with one version's transposes. The checksum points
// go to a shared array; thread 0 adds them up in NPB's order (j = 1 ... 1024)
// whatever THREADS, so the sums are the same bits on any number of threads.
outcome solve(const problem_class& c, const shape& s, transpose& t, line_ffts& fft) {
  const long z_lines = s.nyl * s.nx;
  std::vector<cplx> u0(static_cast<std::size_t>(s.local));        // the state in Fourier space (pencils)
  std::vector<double> factor(static_cast<std::size_t>(s.local));  // the evolution factors (pencils)
  upc::shared_array<cplx> points(static_cast<std::size_t>(c.niter) * 1024);
  upc::shared<int> all_verified;
  cplx *slab = t.first(), *other = t.second();

  // Untimed, as NPB's first pass: touches every array; builds remap's schedules.
  initial_conditions(s, slab);
  fft.planes_xy(+1, slab, s.nzl);
  cplx* pencil = t.to_pencils(slab, other);
  fft.lines_z(+1, pencil, z_lines);
  fft.lines_z(-1, pencil, z_lines);
  t.to_slabs(pencil, pencil == slab ? other : slab);
  upc_barrier;

  outcome out;
  const double start = seconds_now();
  evolution_factors(s, factor.data());
  initial_conditions(s, slab);
  fft.planes_xy(+1, slab, s.nzl);  // forward 3-D FFT: x, y, transpose, z
  pencil = t.to_pencils(slab, other);
  cplx* spare = pencil == slab ? other : slab;
  fft.lines_z(+1, pencil, z_lines);
  std::copy(pencil, pencil + s.local, u0.begin());
  for (int iter = 1; iter <= c.niter; ++iter) {
    evolve(s, u0.data(), factor.data(), pencil);
    fft.lines_z(-1, pencil, z_lines);  // inverse 3-D FFT: z, transpose, y, x
    cplx* result = t.to_slabs(pencil, spare);
    fft.planes_xy(-1, result, s.nzl);
    checksum_points(s, result, [&](int j, cplx v) { points[static_cast<std::size_t>(iter - 1) * 1024 + j - 1] = v; });
  }
  upc_barrier;
  if (MYTHREAD == 0) {
    bool ok = true;
    for (int iter = 1; iter <= c.niter; ++iter) {
      cplx sum = 0;
      for (int j = 1; j <= 1024; ++j)
        sum += static_cast<cplx>(points[static_cast<std::size_t>(iter - 1) * 1024 + j - 1]);
      sum /= static_cast<double>(c.total());
      out.sums.push_back(sum);
      ok = ok && relative_error(sum, c.reference[static_cast<std::size_t>(iter - 1)]) <= epsilon;
    }
    out.seconds = seconds_now() - start;
    all_verified = ok ? 1 : 0;
  }
  upc_barrier;
  out.verified = all_verified == 1;
  return out;
}

// FNV-1a over the sums' bytes: equal digests across THREADS, backends and
// versions say the sums are the same bits.
unsigned long long digest(const std::vector<cplx>& sums) {
  unsigned long long h = 14695981039346656037ULL;
  const auto* bytes = reinterpret_cast<const unsigned char*>(sums.data());
  for (std::size_t i = 0; i < sums.size() * sizeof(cplx); ++i) h = (h ^ bytes[i]) * 1099511628211ULL;
  return h;
}

void print_checksums(const problem_class& c, const outcome& o) {
  for (int iter = 1; iter <= c.niter; ++iter) {
    const cplx sum = o.sums[static_cast<std::size_t>(iter - 1)];
    std::printf(" T =%5d     Checksum =%22.12e%22.12e   (error %.2e)\n", iter, sum.real(), sum.imag(),
                relative_error(sum, c.reference[static_cast<std::size_t>(iter - 1)]));
  }
  std::printf(" Result verification %s (checksums' bits: %016llx)\n", o.verified ? "successful" : "failed",
              digest(o.sums));
}

int body(const params& p, const problem_class& c) {
  const shape s(c, THREADS, MYTHREAD);
  line_ffts fft(c.nx, c.ny, c.nz);  // FFTW plans, made once, outside the timed part
  const std::string size = std::to_string(c.nx) + "x" + std::to_string(c.ny) + "x" + std::to_string(c.nz);
  std::vector<cplx> first_sums;
  std::string first_variant;
  int failures = 0;
  for (const char* variant : variants) {
    if (p.variant != "all" && p.variant != variant) continue;
    if (MYTHREAD == 0)
      std::printf(
          "\n\n NAS Parallel Benchmarks (upcemu) - FT Benchmark\n\n Size: %s, iterations: %d, threads: %d, transpose: "
          "%s\n\n",
          size.c_str(), c.niter, THREADS, variant);
    outcome o;
    double inspector = 0;
    {
      std::unique_ptr<transpose> t = make(variant, s);
      o = solve(c, s, *t, fft);
      inspector = bench::max_over_threads(t->inspector_seconds());
      upc_barrier;  // the version's arrays are freed together
    }
    if (!o.verified) ++failures;
    if (MYTHREAD != 0) continue;
    print_checksums(c, o);
    if (inspector > 0) std::printf(" Remap inspector (untimed warm-up, slowest thread): %.4f s\n", inspector);
    if (first_sums.empty()) {
      first_sums = o.sums;
      first_variant = variant;
    } else {
      double worst = 0;
      for (std::size_t i = 0; i < o.sums.size(); ++i) worst = std::max(worst, relative_error(o.sums[i], first_sums[i]));
      if (o.sums == first_sums)
        std::printf(" Checksums bit-identical to %s's\n", first_variant.c_str());
      else
        std::printf(" Checksums differ from %s's by up to %.2e (relative)\n", first_variant.c_str(), worst);
    }
    npb::print({"FT", variant, c.name, size, c.niter, o.seconds, mops(c, o.seconds), "floating point", o.verified});
  }
  return failures ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  params p;
  bench::cli cli("ft_upc",
                 "NAS Parallel Benchmark FT (NPB 3.x classes and verification) on NPB's slab decomposition, with\n"
                 "the global transpose by upc_memget (seed 003 Listing 3.19), upc_all_exchange_priv and\n"
                 "upc_all_exchange_in_place_priv (Listing 3.20), or the remap operator (seed 004 §4.2);\n"
                 "all runs and verifies each. THREADS must divide ny and nz of the class.");
  cli.add_choice("class", "NPB class: S 64x64x64, W 128x128x32, A 256x256x128 (6 iterations), B 512x256x256 (20)",
                 &p.cls, {"S", "W", "A", "B"});
  cli.add_choice("variant", "the transpose", &p.variant, {"memget", "priv", "in_place_priv", "remap", "all"});
  if (const auto status = cli.exit_status(argc, argv, true)) return *status;
  const problem_class& c = *find_class(p.cls[0]);

  const int threads = apps::planned_threads();  // 1 when the settings are bad: apps::launch says what is wrong
  if (c.ny % threads != 0 || c.nz % threads != 0) {
    std::fprintf(
        stderr,
        "ft_upc: THREADS=%d does not divide class %c's ny=%d and nz=%d: each thread holds nz/THREADS z-planes and "
        "ny/THREADS y-rows (use a power of two up to %d)\n",
        threads, c.name, c.ny, c.nz, std::min(c.ny, c.nz));
    return 2;
  }
  // per thread: two working arrays (shared in memget and remap) and room for
  // the remap schedule and the collectives' staging
  const std::size_t local_bytes = static_cast<std::size_t>(c.total() / threads) * sizeof(cplx);
  return apps::launch("ft_upc", 4 * local_bytes + (16ULL << 20), [&] { return body(p, c); });
}
