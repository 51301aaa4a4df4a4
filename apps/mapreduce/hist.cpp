// Hist (seed 003 §4.3, after Phoenix's histogram): the histogram of a 24-bit
// bitmap image with UPC-MR — how many pixels have each value (0-255) of each
// colour. The map turns a pixel into three pairs (colour*256 + value, 1), or,
// array-based, counts this thread's block of pixels and emits one pair per
// value seen; the reduce adds the counts of equal keys. Checked against the
// histogram computed sequentially (or, with --gather=none, against the
// histogram of the pixels this thread mapped).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "mr_answer.hpp"
#include "mr_app.hpp"
#include "mr_inputs.hpp"
#include "upc.h"
#include "upc_mr.h"

namespace {

constexpr int colours = 3 * 256;  // keys: red 0-255, green 256-511, blue 512-767

mrapp::options opt;
std::vector<unsigned char> g_bitmap;  // the image file, made before the threads start
std::vector<long long> g_histogram;   // its histogram, computed sequentially

struct image {
  const unsigned char* pixels;  // B, G, R triples
  long long count;
};

// sloc mapreduce/hist comp begin
// Element-by-element map: one pixel gives a pair per colour.
int hist_map(void* pixel, void* key, void* value) {
  const unsigned char* bgr = static_cast<const unsigned char*>(pixel);
  const long long one = 1;
  for (int c = 0; c < 3; ++c) {
    const int k = c * 256 + bgr[2 - c];
    upc_mr_emit(key, value, &k, sizeof k, &one, sizeof one);
  }
  return 0;
}

// Array-based map: this thread's block of the pixels, counted here first.
int hist_map_array(void* input, void* key, void* value) {
  const image* img = static_cast<const image*>(input);
  std::vector<long long> count(colours, 0);
  const long long first = MYTHREAD * img->count / THREADS, last = (MYTHREAD + 1) * img->count / THREADS;
  for (long long i = first; i < last; ++i)
    for (int c = 0; c < 3; ++c) ++count[static_cast<std::size_t>(c * 256 + img->pixels[3 * i + 2 - c])];
  for (int k = 0; k < colours; ++k)
    if (count[static_cast<std::size_t>(k)]) upc_mr_emit(key, value, &k, sizeof k, &count[static_cast<std::size_t>(k)], sizeof(long long));
  return 0;
}

// Reduce: the counts of each key added up into the histogram.
int hist_reduce(void* keys, void* values, int nelems, void* result) {
  long long* histogram = static_cast<long long*>(std::calloc(colours, sizeof(long long)));
  if (histogram == nullptr) return -1;
  for (int i = 0; i < nelems; ++i) histogram[static_cast<int*>(keys)[i]] += static_cast<long long*>(values)[i];
  *static_cast<void**>(result) = histogram;
  return 0;
}
// sloc mapreduce/hist comp end

std::vector<long long> histogram_of(const unsigned char* pixels, const std::vector<int>& which) {
  std::vector<long long> h(colours, 0);
  for (int i : which)
    for (int c = 0; c < 3; ++c) ++h[static_cast<std::size_t>(c * 256 + pixels[3 * static_cast<long long>(i) + 2 - c])];
  return h;
}

bool same(const long long* got, const std::vector<long long>& want, const char* what) {
  if (got == nullptr) {
    std::printf("hist: thread %d: no histogram (%s)\n", MYTHREAD, what);
    return false;
  }
  for (int k = 0; k < colours; ++k)
    if (got[k] != want[static_cast<std::size_t>(k)]) {
      std::printf("hist: thread %d: %s value %d of colour %d: %lld pixels, expected %lld\n", MYTHREAD, what, k % 256, k / 256,
                  got[k], want[static_cast<std::size_t>(k)]);
      return false;
    }
  return true;
}

int hist() {
  const int n = static_cast<int>(opt.size);
  const unsigned char* pixels = mrapp::bitmap_pixels(g_bitmap);
  // sloc mapreduce/hist decl begin
  std::vector<void*> elements(static_cast<std::size_t>(n));  // the input list: a pointer per pixel
  for (int i = 0; i < n; ++i) elements[static_cast<std::size_t>(i)] = const_cast<unsigned char*>(pixels + 3 * static_cast<long long>(i));
  std::vector<int> weights = mrapp::weights_with_threshold(opt, std::vector<int>(static_cast<std::size_t>(n), 1));
  image whole{pixels, n};
  // sloc mapreduce/hist decl end

  upc_barrier;
  const double start = mrapp::now_s();
  // sloc mapreduce/hist comp begin
  const int pairs = opt.array_map() ? ApplyMap(hist_map_array, &whole, n, UPC_MR_USER_DISTR, 0, nullptr)
                                    : ApplyMap(hist_map, elements.data(), n, UPC_MR_FRAMEWORK_DISTR, opt.algorithm(),
                                               mrapp::weights_for(opt, weights));
  // sloc mapreduce/hist comp end
  // sloc mapreduce/hist comm begin
  long long* histogram = static_cast<long long*>(
      ApplyReduce(hist_reduce, pairs, opt.gath_flag(), opt.coll_flag(), sizeof(int), sizeof(long long)));
  // sloc mapreduce/hist comm end
  upc_barrier;
  const double seconds = mrapp::now_s() - start;

  const bool verified = mrapp::verify_reduced(
      opt, histogram, [&] { return histogram_of(pixels, mrapp::my_elements(opt, n, weights)); }, g_histogram, "histogram:", same);
  if (MYTHREAD == 0 && histogram) {
    int top[3] = {0, 0, 0};
    for (int c = 0; c < 3; ++c)
      for (int v = 0; v < 256; ++v)
        if (histogram[c * 256 + v] > histogram[c * 256 + top[c]]) top[c] = v;
    std::printf("hist: most frequent values: red %d, green %d, blue %d\n", top[0], top[1], top[2]);
  }
  bench::record extra;
  if (histogram && mrapp::prints_answer(opt)) extra = {{"answer", mrapp::digest_of_counts(histogram, colours)}};
  std::free(histogram);
  return mrapp::report("hist", opt, seconds, verified, pairs, extra);
}

}  // namespace

int main(int argc, char** argv) {
  opt.size = 65536;
  bench::cli cli("hist", "UPC-MR Hist (seed 003 §4.3): the histogram of a generated 24-bit bitmap");
  cli.add_int("size", "pixels of the image", &opt.size, 0);
  if (auto status = mrapp::parse(cli, opt, argc, argv, "hist", 1 << 28)) return *status;
  g_bitmap = mrapp::make_bitmap(opt.size, static_cast<std::uint64_t>(opt.seed));
  g_histogram = histogram_of(mrapp::bitmap_pixels(g_bitmap), mrapp::every_element(opt.size));
  // pairs: 3 per pixel of 12 bytes (element map), or at most 768 per thread
  const std::uint64_t pair_bytes = opt.array_map() ? 768ULL * 12 * 64 : static_cast<std::uint64_t>(opt.size) * 3 * 20;
  return apps::launch("hist", mrapp::heap_for(pair_bytes), hist);
}
