// Listing 3.16: the CSR arrays go from thread 0's private memory to every
// thread's private buffers with the vector-variant private collectives. The
// values and column indexes are cut into one chunk of nelems[t] nonzeros per
// thread (upc_all_scatter_v_priv); the row pointers with upc_all_vector_copy_priv,
// because a block of r rows needs r + 1 of them and neighbouring chunks share
// one; B is broadcast in place (upc_all_broadcast_in_place_priv); each thread
// multiplies its rows as an independent matrix, and the blocks of C are gathered
// back into thread 0's private C (upc_all_gather_v_priv).
//
// The displacements are absolute indexes of an array whose blocks are each
// thread's private buffer (Appendix A.2.2: dst_blk is "a limit for the number of
// elements in each private destination array"): thread t's chunk starts at
// t * block.
#include <algorithm>
#include <climits>
#include <stdexcept>

#include "upc.h"
#include "upc_collective_ext.h"
#include "versions.hpp"

namespace sparse {
namespace {

class priv final : public version {
 public:
  priv(const problem& p, const csr& A, const std::vector<std::size_t>& first_row) : P(p) {
    // sloc sparse_matmul/priv decl begin
    if (MYTHREAD == 0)
      for (int t = 0; t < THREADS; t++) {
        const std::size_t r0 = first_row[t], r1 = first_row[t + 1];
        nelems[t] = static_cast<std::size_t>(A.row_ptr[r1] - A.row_ptr[r0]);
        nrows[t] = r1 - r0 + 1;  // row pointers of a block of rows
        numvalues[t] = (r1 - r0) * P.n;
        disp_rows_src[t] = static_cast<int>(r0);
      }
    upc_barrier;
    for (int t = 0; t < THREADS; t++) {  // block sizes: the largest chunks (the same on every thread)
      blk_nz = std::max<std::size_t>(blk_nz, nelems[t]);
      blk_C = std::max<std::size_t>(blk_C, numvalues[t]);
    }
    if (static_cast<double>(blk_C) * THREADS > INT_MAX || static_cast<double>(P.m + 1) * THREADS > INT_MAX)
      throw std::length_error("sparse_matmul: the displacements of C exceed an int (the collectives' shared int arrays)");
    disp[MYTHREAD] = MYTHREAD * static_cast<int>(blk_nz);
    disp_rows_dst[MYTHREAD] = MYTHREAD * static_cast<int>(P.m + 1);
    disp_C[MYTHREAD] = MYTHREAD * static_cast<int>(blk_C);
    my_rows = static_cast<std::size_t>(nrows[MYTHREAD]) - 1;
    val_dist.resize(std::max<std::size_t>(1, nelems[MYTHREAD]));
    col_ind_dist.resize(val_dist.size());
    row_ptr_dist.resize(my_rows + 1);
    C_dist.resize(std::max<std::size_t>(1, my_rows * P.n));
    // sloc sparse_matmul/priv decl end
  }

  void run(const csr& A, double* B, double* C) override {
    // sloc sparse_matmul/priv comm begin
    upc_all_scatter_v_priv(val_dist.data(), A.val.data(), disp, nelems, blk_nz, sizeof(double), sync_mode);
    upc_all_scatter_v_priv(col_ind_dist.data(), A.col_ind.data(), disp, nelems, blk_nz, sizeof(int), sync_mode);
    upc_all_vector_copy_priv(row_ptr_dist.data(), A.row_ptr.data(), disp_rows_dst, disp_rows_src, nrows, THREADS, P.m + 1, P.m + 1,
                             sizeof(int), sync_mode);
    upc_all_broadcast_in_place_priv(B, P.k * P.n * sizeof(double), sync_mode);
    // sloc sparse_matmul/priv comm end

    // sloc sparse_matmul/priv comp begin
    const int first = row_ptr_dist[0];  // my rows as an independent matrix
    for (int& r : row_ptr_dist) r -= first;
    compute_mm_sparse(val_dist.data(), col_ind_dist.data(), row_ptr_dist.data(), B, C_dist.data(), my_rows, P.n);
    // sloc sparse_matmul/priv comp end

    // sloc sparse_matmul/priv comm begin
    upc_all_gather_v_priv(C, C_dist.data(), disp_C, numvalues, blk_C, sizeof(double), sync_mode);
    // sloc sparse_matmul/priv comm end
  }

 private:
  problem P;
  // sloc sparse_matmul/priv decl begin
  static constexpr upc_flag_t sync_mode = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;
  upc::shared_array<int> disp{upc::per_thread(1)}, disp_rows_dst{upc::per_thread(1)}, disp_rows_src{upc::per_thread(1)},
      disp_C{upc::per_thread(1)};
  upc::shared_array<std::size_t> nelems{upc::per_thread(1)}, nrows{upc::per_thread(1)}, numvalues{upc::per_thread(1)};
  std::size_t blk_nz = 1, blk_C = 1, my_rows = 0;
  std::vector<double> val_dist, C_dist;
  std::vector<int> col_ind_dist, row_ptr_dist;
  // sloc sparse_matmul/priv decl end
};

}  // namespace

std::unique_ptr<version> make_priv(const problem& p, const csr& A, const std::vector<std::size_t>& first_row) {
  return std::make_unique<priv>(p, A, first_row);
}

}  // namespace sparse
