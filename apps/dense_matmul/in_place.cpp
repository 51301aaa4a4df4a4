// The kernel with shared ends: thread 0 puts A and B into shared memory it owns,
// the standard upc_all_scatter hands every thread its block of A, the extended
// upc_all_broadcast_in_place copies thread 0's block of a replicated B onto
// every other block (the collective the thesis measures in its Figure 3.12 for
// this kernel), each thread multiplies its own blocks through privatised
// pointers, and the standard upc_all_gather collects C on thread 0. One copy in
// and one copy out of shared memory on thread 0; no barrier in the program.
#include "upc.h"
#include "upc_collective.h"
#include "upc_collective_ext.h"
#include "versions.hpp"

namespace dense {
namespace {

class in_place final : public version {
 public:
  in_place(const layout& shape, local_method how)
      : L(shape),
        how_(how),
        // sloc dense_matmul/in_place decl begin
        A_root(upc_all_alloc(1, L.padded_rows() * L.n * sizeof(double))),  // shared [] double A_root[...]: on thread 0
        C_root(upc_all_alloc(1, L.padded_rows() * L.n * sizeof(double))),
        A_dist(L.chunk() * static_cast<std::size_t>(THREADS), upc::block(L.chunk())),  // shared [chunk] double
        C_dist(L.chunk() * static_cast<std::size_t>(THREADS), upc::block(L.chunk())),
        B_all(L.n * L.n * static_cast<std::size_t>(THREADS), upc::block(L.n * L.n))  // shared [N*N] double B_all[N*N*THREADS]
  // sloc dense_matmul/in_place decl end
  {}
  // sloc dense_matmul/in_place decl begin
  ~in_place() override {
    upc_all_free(A_root);
    upc_all_free(C_root);
  }
  // sloc dense_matmul/in_place decl end

  void run(const double* A, double* B, double* C) override {
    const std::size_t chunk = L.chunk(), bytes = chunk * sizeof(double), all = L.padded_rows() * L.n * sizeof(double);
    // sloc dense_matmul/in_place comm begin
    if (MYTHREAD == 0) {
      upc_memput(A_root, A, all);
      upc_memput(B_all, B, L.n * L.n * sizeof(double));
    }
    upc_all_scatter(A_dist, A_root, bytes, sync_mode);
    upc_all_broadcast_in_place(B_all, L.n * L.n * sizeof(double), sync_mode);
    // sloc dense_matmul/in_place comm end

    // sloc dense_matmul/in_place comp begin
    const double* my_A = (&A_dist[MYTHREAD * chunk]).local();
    const double* my_B = (&B_all[MYTHREAD * L.n * L.n]).local();
    double* my_C = (&C_dist[MYTHREAD * chunk]).local();
    compute_submatrix(my_A, my_B, my_C, L.rows_of(MYTHREAD), L.n, L.n, how_);
    // sloc dense_matmul/in_place comp end

    // sloc dense_matmul/in_place comm begin
    upc_all_gather(C_root, C_dist, bytes, sync_mode);
    if (MYTHREAD == 0) upc_memget(C, C_root, all);
    // sloc dense_matmul/in_place comm end
  }

 private:
  layout L;
  local_method how_;
  // sloc dense_matmul/in_place decl begin
  static constexpr upc_flag_t sync_mode = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;
  upc::sptr<double, upc::indefinite> A_root, C_root;
  upc::shared_array<double, upc::dynamic_block> A_dist, C_dist, B_all;
  // sloc dense_matmul/in_place decl end
};

}  // namespace

std::unique_ptr<version> make_in_place(const layout& shape, local_method how) { return std::make_unique<in_place>(shape, how); }

}  // namespace dense
