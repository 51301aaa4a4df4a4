// Listing 3.14, the thesis's hand-optimised standard UPC code: private memory
// cannot be the source or destination of a standard collective, so thread 0
// copies A's blocks and B into auxiliary shared arrays with upc_memput, every
// thread fetches its part with upc_memget after a barrier, and C comes back the
// same way in reverse. Three barriers, three auxiliary shared arrays.
#include <cstring>

#include "upc.h"
#include "versions.hpp"

namespace dense {
namespace {

class standard final : public version {
 public:
  standard(const layout& shape, local_method how)
      : L(shape),
        how_(how),
        // sloc dense_matmul/standard decl begin
        local_A(L.chunk()),
        local_C(L.chunk()),
        temp_A(L.chunk() * static_cast<std::size_t>(THREADS), upc::block(L.chunk())),  // shared [chunk] double temp_A[...]
        temp_C(L.chunk() * static_cast<std::size_t>(THREADS), upc::block(L.chunk())),
        temp_B(upc_all_alloc(1, L.n * L.n * sizeof(double)))  // shared [] double temp_B[N*N]: on thread 0
  // sloc dense_matmul/standard decl end
  {}
  // sloc dense_matmul/standard decl begin
  ~standard() override { upc_all_free(temp_B); }
  // sloc dense_matmul/standard decl end

  void run(const double* A, double* B, double* C) override {
    const std::size_t chunk = L.chunk(), bytes = chunk * sizeof(double);
    // sloc dense_matmul/standard comm begin
    if (MYTHREAD == 0) {
      std::memcpy(local_A.data(), A, bytes);
      for (int i = 1; i < THREADS; i++) upc_memput(&temp_A[i * chunk], &A[i * chunk], bytes);
    }
    upc_barrier;
    if (MYTHREAD != 0) upc_memget(local_A.data(), &temp_A[MYTHREAD * chunk], bytes);
    if (MYTHREAD == 0) upc_memput(temp_B, B, L.n * L.n * sizeof(double));
    upc_barrier;
    if (MYTHREAD != 0) upc_memget(B, temp_B, L.n * L.n * sizeof(double));
    // sloc dense_matmul/standard comm end

    // sloc dense_matmul/standard comp begin
    compute_submatrix(local_A.data(), B, local_C.data(), L.rows_of(MYTHREAD), L.n, L.n, how_);
    // sloc dense_matmul/standard comp end

    // sloc dense_matmul/standard comm begin
    if (MYTHREAD != 0) upc_memput(&temp_C[MYTHREAD * chunk], local_C.data(), bytes);
    upc_barrier;
    if (MYTHREAD == 0) {
      std::memcpy(C, local_C.data(), bytes);
      for (int i = 1; i < THREADS; i++) upc_memget(&C[i * chunk], &temp_C[i * chunk], bytes);
    }
    // sloc dense_matmul/standard comm end
  }

 private:
  layout L;
  local_method how_;
  // sloc dense_matmul/standard decl begin
  std::vector<double> local_A, local_C;
  upc::shared_array<double, upc::dynamic_block> temp_A, temp_C;
  upc::sptr<double, upc::indefinite> temp_B;
  // sloc dense_matmul/standard decl end
};

}  // namespace

std::unique_ptr<version> make_standard(const layout& shape, local_method how) { return std::make_unique<standard>(shape, how); }

}  // namespace dense
