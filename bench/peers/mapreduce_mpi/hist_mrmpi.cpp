// Hist on our MapReduce-over-MPI library, as an MR-MPI user writes it (the
// peer of apps/mapreduce/hist, seed 003 §4.3 and Fig. 4.2): one map task per
// pixel gives (colour*256 + value, 1) per colour; collate() brings each key's
// ones to one rank; reduce() adds them; gather(1) puts the 768 counts on rank
// 0. The same generated bitmap as the UPC-MR app (--size, --seed); rank 0
// checks the histogram against one counted sequentially and prints the
// digest the UPC-MR app prints.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "../../../apps/mapreduce/mr_answer.hpp"
#include "../../../apps/mapreduce/mr_inputs.hpp"
#include "mapreduce.hpp"
#include "peer_app.hpp"
#include "peer_steps.hpp"

namespace {

constexpr int colours = 3 * 256;  // keys: red 0-255, green 256-511, blue 512-767

void hist_map(int pixel, mrmpi::key_value* kv, void* ptr) {
  const unsigned char* bgr = static_cast<const unsigned char*>(ptr) + 3 * static_cast<std::int64_t>(pixel);
  const long long one = 1;
  for (int c = 0; c < 3; ++c) {
    const int key = c * 256 + bgr[2 - c];
    kv->add(&key, sizeof key, &one, sizeof one);
  }
}

int run(const mrpeer::options& opt) {
  const int n = static_cast<int>(opt.size);
  const std::vector<unsigned char> bitmap = mrapp::make_bitmap(opt.size, static_cast<std::uint64_t>(opt.seed));
  const unsigned char* pixels = mrapp::bitmap_pixels(bitmap);
  mrmpi::mapreduce mr(MPI_COMM_WORLD, opt.page);

  MPI_Barrier(MPI_COMM_WORLD);
  const double start = mrpeer::now_s();
  const std::uint64_t pairs =
      mrpeer::map_collate_reduce_gather(mr, n, hist_map, const_cast<unsigned char*>(pixels), mrpeer::add_values<long long>);
  const std::vector<long long> histogram = mrpeer::values_by_key<long long>(mr.kv(), colours);
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = mrpeer::now_s() - start;

  bool ok = true;
  if (mr.rank() == 0) {
    std::vector<long long> want(colours, 0);
    for (std::int64_t i = 0; i < n; ++i)
      for (int c = 0; c < 3; ++c) ++want[static_cast<std::size_t>(c * 256 + pixels[3 * i + 2 - c])];
    for (int k = 0; k < colours && ok; ++k)
      if (histogram[static_cast<std::size_t>(k)] != want[static_cast<std::size_t>(k)]) {
        std::printf("hist_mrmpi: value %d of colour %d: %lld pixels, expected %lld\n", k % 256, k / 256,
                    histogram[static_cast<std::size_t>(k)], want[static_cast<std::size_t>(k)]);
        ok = false;
      }
    int top[3] = {0, 0, 0};
    for (int c = 0; c < 3; ++c)
      for (int v = 0; v < 256; ++v)
        if (histogram[static_cast<std::size_t>(c * 256 + v)] > histogram[static_cast<std::size_t>(c * 256 + top[c])]) top[c] = v;
    std::printf("hist: most frequent values: red %d, green %d, blue %d\n", top[0], top[1], top[2]);
  }
  const bool verified = mrpeer::rank0_says(ok);
  return mrpeer::report("hist", opt, seconds, verified, pairs, mrapp::digest_of_counts(histogram.data(), colours));
}

}  // namespace

int main(int argc, char** argv) {
  return mrpeer::main_of(argc, argv, "hist_mrmpi", "Hist on MapReduce over MPI (the peer of apps/mapreduce/hist)",
                         "pixels of the image", 65536, 1 << 28, run);
}
