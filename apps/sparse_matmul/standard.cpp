// The standard UPC version, written as the thesis's Listing 3.14 is for the
// dense kernel ("the equivalent standard UPC implementation requires a
// significantly higher number of SLOCs in order to support the vector-variant
// data transfers using loops and array subscripts"): private memory cannot be a
// collective's source or destination and the chunks differ in size, so thread 0
// copies every thread's chunk of the CSR arrays and B into auxiliary shared
// arrays with upc_memput, each thread fetches its own with upc_memget after a
// barrier, and the blocks of C come back the same way in reverse.
#include <algorithm>

#include "upc.h"
#include "versions.hpp"

namespace sparse {
namespace {

class standard final : public version {
  // sloc sparse_matmul/standard decl begin
  struct blocks {
    std::size_t nz = 1, rows = 0, C = 1;  // the largest chunks: one block of each auxiliary array per thread
  };
  // Thread 0 says how much each thread gets; every thread learns its own and the block sizes.
  blocks share_counts(const csr& A, const std::vector<std::size_t>& first_row) {
    if (MYTHREAD == 0)
      for (int t = 0; t < THREADS; t++) {
        nz_of[t] = static_cast<std::size_t>(A.row_ptr[first_row[t + 1]] - A.row_ptr[first_row[t]]);
        rows_of[t] = first_row[t + 1] - first_row[t];
      }
    upc_barrier;
    blocks b;
    for (int t = 0; t < THREADS; t++) {
      b.nz = std::max<std::size_t>(b.nz, nz_of[t]);
      b.rows = std::max<std::size_t>(b.rows, rows_of[t]);
    }
    b.C = std::max<std::size_t>(1, b.rows * P.n);
    return b;
  }
  // sloc sparse_matmul/standard decl end

 public:
  standard(const problem& p, const csr& A, const std::vector<std::size_t>& first_row)
      : P(p),
        first_row_(first_row),
        // sloc sparse_matmul/standard decl begin
        blk(share_counts(A, first_row)),
        my_nz(nz_of[MYTHREAD]),
        my_rows(rows_of[MYTHREAD]),
        val_dist(std::max<std::size_t>(1, my_nz)),
        C_dist(std::max<std::size_t>(1, my_rows * P.n)),
        col_ind_dist(val_dist.size()),
        row_ptr_dist(my_rows + 1),
        temp_val(blk.nz * THREADS, upc::block(blk.nz)),  // shared [blk.nz] double temp_val[blk.nz*THREADS]
        temp_col(blk.nz * THREADS, upc::block(blk.nz)),
        temp_rows((blk.rows + 1) * THREADS, upc::block(blk.rows + 1)),
        temp_C(blk.C * THREADS, upc::block(blk.C)),
        temp_B(upc_all_alloc(1, P.k * P.n * sizeof(double)))  // shared [] double temp_B[k*n]: on thread 0
  // sloc sparse_matmul/standard decl end
  {}
  // sloc sparse_matmul/standard decl begin
  ~standard() override { upc_all_free(temp_B); }
  // sloc sparse_matmul/standard decl end

  void run(const csr& A, double* B, double* C) override {
    // sloc sparse_matmul/standard comm begin
    if (MYTHREAD == 0) {
      for (int i = 0; i < THREADS; i++) {
        const std::size_t r0 = first_row_[i], r1 = first_row_[i + 1];
        const std::size_t z0 = static_cast<std::size_t>(A.row_ptr[r0]), nz = static_cast<std::size_t>(A.row_ptr[r1]) - z0;
        upc_memput(&temp_val[i * blk.nz], A.val.data() + z0, nz * sizeof(double));
        upc_memput(&temp_col[i * blk.nz], A.col_ind.data() + z0, nz * sizeof(int));
        upc_memput(&temp_rows[i * (blk.rows + 1)], A.row_ptr.data() + r0, (r1 - r0 + 1) * sizeof(int));
      }
      upc_memput(temp_B, B, P.k * P.n * sizeof(double));
    }
    upc_barrier;
    upc_memget(val_dist.data(), &temp_val[MYTHREAD * blk.nz], my_nz * sizeof(double));
    upc_memget(col_ind_dist.data(), &temp_col[MYTHREAD * blk.nz], my_nz * sizeof(int));
    upc_memget(row_ptr_dist.data(), &temp_rows[MYTHREAD * (blk.rows + 1)], (my_rows + 1) * sizeof(int));
    if (MYTHREAD != 0) upc_memget(B, temp_B, P.k * P.n * sizeof(double));
    // sloc sparse_matmul/standard comm end

    // sloc sparse_matmul/standard comp begin
    const int first = row_ptr_dist[0];  // my rows as an independent matrix
    for (int& r : row_ptr_dist) r -= first;
    compute_mm_sparse(val_dist.data(), col_ind_dist.data(), row_ptr_dist.data(), B, C_dist.data(), my_rows, P.n);
    // sloc sparse_matmul/standard comp end

    // sloc sparse_matmul/standard comm begin
    upc_memput(&temp_C[MYTHREAD * blk.C], C_dist.data(), my_rows * P.n * sizeof(double));
    upc_barrier;
    if (MYTHREAD == 0)
      for (int i = 0; i < THREADS; i++)
        upc_memget(C + first_row_[i] * P.n, &temp_C[i * blk.C], (first_row_[i + 1] - first_row_[i]) * P.n * sizeof(double));
    // sloc sparse_matmul/standard comm end
  }

 private:
  problem P;
  std::vector<std::size_t> first_row_;  // thread 0's
  // sloc sparse_matmul/standard decl begin
  upc::shared_array<std::size_t> nz_of{upc::per_thread(1)}, rows_of{upc::per_thread(1)};
  blocks blk;
  std::size_t my_nz, my_rows;
  std::vector<double> val_dist, C_dist;
  std::vector<int> col_ind_dist, row_ptr_dist;
  upc::shared_array<double, upc::dynamic_block> temp_val;
  upc::shared_array<int, upc::dynamic_block> temp_col, temp_rows;
  upc::shared_array<double, upc::dynamic_block> temp_C;
  upc::sptr<double, upc::indefinite> temp_B;
  // sloc sparse_matmul/standard decl end
};

}  // namespace

std::unique_ptr<version> make_standard(const problem& p, const csr& A, const std::vector<std::size_t>& first_row) {
  return std::make_unique<standard>(p, A, first_row);
}

}  // namespace sparse
