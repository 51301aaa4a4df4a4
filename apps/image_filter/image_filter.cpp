// Image filtering, the example of seed 003 §3.2.4 (Listing 3.13): an N x N image
// of doubles and a 3 x 3 filter start in thread 0's private memory; every thread
// filters a block of rows (with the row above and below it, its halo rows) and
// the filtered image ends in thread 0's private memory. The versions differ only
// in how the pixels move (versions.hpp). Thread 0 checks the result against the
// whole image filtered sequentially: the same bits.
//
//   build/tools/upcrun -n 4 build/apps/image_filter/image_filter --n=2048 --variant=all
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "../../harness/cli.hpp"
#include "../../harness/app_result.hpp"
#include "filter.hpp"
#include "launch.hpp"
#include "upc.h"
#include "version_driver.hpp"
#include "versions.hpp"

namespace {

struct options {
  std::int64_t n = 2048;
  std::string variant = "all";
  std::int64_t seed = 2013;
};

// A smoothing filter (the binomial 3 x 3 kernel): weights that are exact in binary.
constexpr double smoothing[9] = {1 / 16.0, 2 / 16.0, 1 / 16.0, 2 / 16.0, 4 / 16.0, 2 / 16.0, 1 / 16.0, 2 / 16.0, 1 / 16.0};

// splitmix64: seeded pixels in [0, 1).
void fill_image(double* p, std::size_t count, std::uint64_t seed) {
  std::uint64_t state = seed;
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    p[i] = static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
  }
}

int run(const options& o) {
  const std::size_t n = static_cast<std::size_t>(o.n);
  const image::layout shape(n, THREADS);
  std::vector<double> img, filtered, expected, filter(9);
  if (MYTHREAD == 0) {
    img.assign(shape.padded_rows() * n, 0.0);  // padding rows stay zero
    filtered.assign(img.size(), 0.0);
    fill_image(img.data(), n * n, static_cast<std::uint64_t>(o.seed));
    std::copy(std::begin(smoothing), std::end(smoothing), filter.begin());
    expected.resize(n * n);
    image::filter_rows(img.data(), expected.data(), 0, n, n, filter.data());
  }
  int failures = 0;
  for (const std::string& name : apps::chosen_variants(o.variant, image::version_names())) {
    std::unique_ptr<image::version> v = image::make_version(name, shape);
    const double seconds = apps::timed_run([&] { v->run(img.data(), filter.data(), filtered.data()); }, filtered, filter);
    if (MYTHREAD != 0) continue;
    const std::size_t wrong = apps::count_differences(filtered.data(), expected,
                                                      [n](std::size_t i) { std::printf("pixel (%zu, %zu)", i / n, i % n); });
    const bool verified = wrong == 0;
    const double mpixels = static_cast<double>(n) * static_cast<double>(n) / seconds / 1e6;
    std::printf("image_filter: %zu x %zu, %d threads (%s), variant %s: %.4f s, %.2f Mpixels/s, %s\n", n, n, THREADS,
                apps::backend_name(), name.c_str(), seconds, mpixels, verified ? "verified (identical to the sequential filter)" : "WRONG");
    if (!verified) std::printf("  %zu of %zu pixels differ from the sequential filter\n", wrong, expected.size());
    apps::result_line({{"app", std::string("image_filter")},
                       {"variant", name},
                       {"size", std::to_string(n)},
                       {"time_s", seconds},
                       {"mpixels_s", mpixels},
                       {"verified", verified}});
    if (!verified) ++failures;
  }
  return failures ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  bench::cli cli("image_filter",
                 "A 3 x 3 filter over an N x N image (seed 003 §3.2.4, Listing 3.13): rows scattered with their halo rows,\n"
                 "the filter broadcast, the filtered rows gathered on thread 0. Variants: standard (upc_all_scatter,\n"
                 "upc_all_broadcast, upc_memget halos, upc_all_gather on shared arrays), priv (upc_all_scatter_priv,\n"
                 "upc_all_broadcast_in_place_priv, upc_all_permute_priv halos, upc_all_gather_priv), vector_copy\n"
                 "(upc_all_vector_copy_priv rows and halos at once), all (each in turn).");
  cli.add_int("n", "rows and columns of the image (any N; blocks of ceil(N/THREADS) rows)", &o.n, 1);
  cli.add_choice("variant", "how the pixels move", &o.variant, apps::variant_choices(image::version_names()));
  cli.add_int("seed", "seed of the random image", &o.seed, 0);
  if (auto status = cli.exit_status(argc, argv, true)) return *status;
  if (o.n > 40000) {  // the vector-variant collectives' displacements are ints
    std::fprintf(stderr, "image_filter: --n=%lld: at most 40000\n", static_cast<long long>(o.n));
    return 2;
  }
  // The shared heap: the standard version's image and result on thread 0 and
  // its two blocks, the library's staging of the priv forms.
  const std::size_t n = static_cast<std::size_t>(o.n);
  const image::layout shape(n, apps::planned_threads());
  const std::size_t heap = sizeof(double) * (4 * shape.padded_rows() * n + 4 * shape.chunk()) + (32u << 20);
  return apps::launch("image_filter", heap, [&] { return run(o); });
}
