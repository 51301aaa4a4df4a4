// Listing 3.13 with its halo rows: the image's blocks of rows go from thread 0's
// private memory into every thread's private aux (upc_all_scatter_priv), the
// filter is broadcast in place (upc_all_broadcast_in_place_priv), and the halo
// rows come from the neighbours' private blocks with two private permutations:
// each thread's last row to the next thread's top halo, its first row to the
// previous thread's bottom halo (the wrapped-round rows land in halos that the
// image's first and last rows do not use). Each thread filters in private memory
// and upc_all_gather_priv collects the blocks in thread 0's private filteredImg.
// The listing itself filters each block on its own, without halo rows, which
// does not give the whole image's result at the blocks' edges.
#include "filter.hpp"
#include "upc.h"
#include "upc_collective_ext.h"
#include "versions.hpp"

namespace image {
namespace {

class priv final : public version {
 public:
  explicit priv(const layout& shape)
      : L(shape),
        // sloc image_filter/priv decl begin
        aux((L.rows_per + 2) * L.n),  // halo row, my rows_per rows, halo row
        out(L.chunk())
  {
    to_next[MYTHREAD] = (MYTHREAD + 1) % THREADS;
    to_previous[MYTHREAD] = (MYTHREAD + THREADS - 1) % THREADS;
    // sloc image_filter/priv decl end
  }

  void run(const double* img, double* filter, double* filtered) override {
    const std::size_t n = L.n, row = n * sizeof(double), bytes = L.chunk() * sizeof(double);
    // sloc image_filter/priv comm begin
    upc_all_scatter_priv(&aux[n], img, bytes, sync_mode);
    upc_all_broadcast_in_place_priv(filter, 9 * sizeof(double), sync_mode);
    upc_all_permute_priv(&aux[0], &aux[L.rows_per * n], to_next, row, sync_mode);
    upc_all_permute_priv(&aux[(L.rows_per + 1) * n], &aux[n], to_previous, row, sync_mode);
    // sloc image_filter/priv comm end

    // sloc image_filter/priv comp begin
    filter_rows(&aux[n], out.data(), L.first_row(MYTHREAD), L.rows_of(MYTHREAD), n, filter);
    // sloc image_filter/priv comp end

    // sloc image_filter/priv comm begin
    upc_all_gather_priv(filtered, out.data(), bytes, sync_mode);
    // sloc image_filter/priv comm end
  }

 private:
  layout L;
  // sloc image_filter/priv decl begin
  static constexpr upc_flag_t sync_mode = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;
  std::vector<double> aux, out;
  upc::shared_array<int> to_next{upc::per_thread(1)}, to_previous{upc::per_thread(1)};  // permutations
  // sloc image_filter/priv decl end
};

}  // namespace

std::unique_ptr<version> make_priv(const layout& shape) { return std::make_unique<priv>(shape); }

}  // namespace image
