// The image filter with the standard UPC collectives: they move shared data
// only, so thread 0 first copies the image and the filter into shared memory it
// owns; upc_all_scatter gives every thread its block of rows, upc_all_broadcast
// the filter; each thread fetches its halo rows (the last row of the previous
// block, the first of the next) with upc_memget, filters into its block of a
// shared result, and upc_all_gather collects it on thread 0, which copies it out.
#include "filter.hpp"
#include "upc.h"
#include "upc_collective.h"
#include "versions.hpp"

namespace image {
namespace {

class standard final : public version {
 public:
  explicit standard(const layout& shape)
      : L(shape),
        // sloc image_filter/standard decl begin
        img_root(upc_all_alloc(1, L.padded_rows() * L.n * sizeof(double))),  // shared [] double img_root[...]: on thread 0
        result_root(upc_all_alloc(1, L.padded_rows() * L.n * sizeof(double))),
        filter_root(upc_all_alloc(1, 9 * sizeof(double))),
        rows(L.chunk() * static_cast<std::size_t>(THREADS), upc::block(L.chunk())),  // shared [chunk] double rows[...]
        filtered_rows(L.chunk() * static_cast<std::size_t>(THREADS), upc::block(L.chunk())),
        filter_all{upc::per_thread(9)},  // shared [9] double filter_all[9*THREADS]
        aux((L.rows_per + 2) * L.n)
  // sloc image_filter/standard decl end
  {}
  // sloc image_filter/standard decl begin
  ~standard() override {
    upc_all_free(img_root);
    upc_all_free(result_root);
    upc_all_free(filter_root);
  }
  // sloc image_filter/standard decl end

  void run(const double* img, double* filter, double* filtered) override {
    const std::size_t n = L.n, chunk = L.chunk(), all = L.padded_rows() * n * sizeof(double);
    const std::size_t first = L.first_row(MYTHREAD), count = L.rows_of(MYTHREAD);
    // sloc image_filter/standard comm begin
    if (MYTHREAD == 0) {
      upc_memput(img_root, img, all);
      upc_memput(filter_root, filter, 9 * sizeof(double));
    }
    upc_all_scatter(rows, img_root, chunk * sizeof(double), sync_mode);
    upc_all_broadcast(filter_all, filter_root, 9 * sizeof(double), sync_mode);
    upc_memget(filter, &filter_all[MYTHREAD * 9], 9 * sizeof(double));
    upc_memget(&aux[n], &rows[MYTHREAD * chunk], count * n * sizeof(double));
    if (count > 0 && first > 0) upc_memget(&aux[0], &rows[(first - 1) * n], n * sizeof(double));
    if (count > 0 && first + count < n) upc_memget(&aux[(count + 1) * n], &rows[(first + count) * n], n * sizeof(double));
    // sloc image_filter/standard comm end

    // sloc image_filter/standard comp begin
    double* out = (&filtered_rows[MYTHREAD * chunk]).local();
    filter_rows(&aux[n], out, first, count, n, filter);
    // sloc image_filter/standard comp end

    // sloc image_filter/standard comm begin
    upc_all_gather(result_root, filtered_rows, chunk * sizeof(double), sync_mode);
    if (MYTHREAD == 0) upc_memget(filtered, result_root, all);
    // sloc image_filter/standard comm end
  }

 private:
  layout L;
  // sloc image_filter/standard decl begin
  static constexpr upc_flag_t sync_mode = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;
  upc::sptr<double, upc::indefinite> img_root, result_root, filter_root;
  upc::shared_array<double, upc::dynamic_block> rows, filtered_rows;
  upc::shared_array<double, 9> filter_all;
  std::vector<double> aux;  // halo row, my rows, halo row
  // sloc image_filter/standard decl end
};

}  // namespace

std::unique_ptr<version> make_standard(const layout& shape) { return std::make_unique<standard>(shape); }

}  // namespace image
