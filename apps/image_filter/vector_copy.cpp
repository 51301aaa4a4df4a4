// The image filter with one upc_all_vector_copy_priv instead of a scatter and a
// halo exchange: chunk t is thread t's rows with the row above and the row below
// them, read from thread 0's private image and written into thread t's private
// aux. Neighbouring chunks overlap in the source (each halo row is also a
// neighbour's own row), which a scatter cannot express. Then the filter is
// broadcast in place and the blocks gathered, as in priv.cpp.
#include <algorithm>
#include <climits>
#include <stdexcept>

#include "filter.hpp"
#include "upc.h"
#include "upc_collective_ext.h"
#include "versions.hpp"

namespace image {
namespace {

class vector_copy final : public version {
 public:
  explicit vector_copy(const layout& shape)
      : L(shape),
        // sloc image_filter/vector_copy decl begin
        aux((L.rows_per + 2) * L.n),  // halo row, my rows_per rows, halo row
        out(L.chunk())
  {
    const std::size_t n = L.n, first = L.first_row(MYTHREAD), count = L.rows_of(MYTHREAD);
    if (static_cast<double>(aux.size()) * THREADS > INT_MAX || static_cast<double>(L.padded_rows() * n) > INT_MAX)
      throw std::length_error("image_filter: the image is too large for the collective's int displacements");
    const std::size_t top = count > 0 && first > 0 ? first - 1 : first;          // first row to copy
    const std::size_t end = count > 0 ? std::min(n, first + count + 1) : first;   // one past the last
    sdisp[MYTHREAD] = static_cast<int>(top * n);                                  // in thread 0's image
    ddisp[MYTHREAD] = static_cast<int>(MYTHREAD * aux.size() + (top == first ? n : 0));  // in my aux
    nelems[MYTHREAD] = (end - top) * n;
    // sloc image_filter/vector_copy decl end
  }

  void run(const double* img, double* filter, double* filtered) override {
    const std::size_t n = L.n, bytes = L.chunk() * sizeof(double);
    // sloc image_filter/vector_copy comm begin
    upc_all_vector_copy_priv(aux.data(), img, ddisp, sdisp, nelems, THREADS, aux.size(), L.padded_rows() * n, sizeof(double),
                             sync_mode);
    upc_all_broadcast_in_place_priv(filter, 9 * sizeof(double), sync_mode);
    // sloc image_filter/vector_copy comm end

    // sloc image_filter/vector_copy comp begin
    filter_rows(&aux[n], out.data(), L.first_row(MYTHREAD), L.rows_of(MYTHREAD), n, filter);
    // sloc image_filter/vector_copy comp end

    // sloc image_filter/vector_copy comm begin
    upc_all_gather_priv(filtered, out.data(), bytes, sync_mode);
    // sloc image_filter/vector_copy comm end
  }

 private:
  layout L;
  // sloc image_filter/vector_copy decl begin
  static constexpr upc_flag_t sync_mode = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;
  std::vector<double> aux, out;
  upc::shared_array<int> ddisp{upc::per_thread(1)}, sdisp{upc::per_thread(1)};
  upc::shared_array<std::size_t> nelems{upc::per_thread(1)};
  // sloc image_filter/vector_copy decl end
};

}  // namespace

std::unique_ptr<version> make_vector_copy(const layout& shape) { return std::make_unique<vector_copy>(shape); }

}  // namespace image
