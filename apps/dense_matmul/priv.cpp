// Listing 3.15: the same kernel with the extended collectives' private forms.
// A's blocks go from thread 0's private memory straight into every thread's
// private local_A (upc_all_scatter_priv), B is broadcast onto every thread's own
// private B (upc_all_broadcast_in_place_priv: thread 0's buffer is the source),
// and the blocks of C come back into thread 0's private C (upc_all_gather_priv).
// No shared array, no barrier and no copy in the program: the library stages the
// bytes through shared memory it manages itself.
#include "upc.h"
#include "upc_collective_ext.h"
#include "versions.hpp"

namespace dense {
namespace {

class priv final : public version {
 public:
  priv(const layout& shape, local_method how)
      : L(shape),
        how_(how),
        // sloc dense_matmul/priv decl begin
        local_A(L.chunk()),
        local_C(L.chunk())
  // sloc dense_matmul/priv decl end
  {}

  void run(const double* A, double* B, double* C) override {
    const std::size_t bytes = L.chunk() * sizeof(double);
    // sloc dense_matmul/priv comm begin
    upc_all_scatter_priv(local_A.data(), A, bytes, sync_mode);
    upc_all_broadcast_in_place_priv(B, L.n * L.n * sizeof(double), sync_mode);
    // sloc dense_matmul/priv comm end

    // sloc dense_matmul/priv comp begin
    compute_submatrix(local_A.data(), B, local_C.data(), L.rows_of(MYTHREAD), L.n, L.n, how_);
    // sloc dense_matmul/priv comp end

    // sloc dense_matmul/priv comm begin
    upc_all_gather_priv(C, local_C.data(), bytes, sync_mode);
    // sloc dense_matmul/priv comm end
  }

 private:
  layout L;
  local_method how_;
  // sloc dense_matmul/priv decl begin
  static constexpr upc_flag_t sync_mode = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;
  std::vector<double> local_A, local_C;
  // sloc dense_matmul/priv decl end
};

}  // namespace

std::unique_ptr<version> make_priv(const layout& shape, local_method how) { return std::make_unique<priv>(shape, how); }

}  // namespace dense
