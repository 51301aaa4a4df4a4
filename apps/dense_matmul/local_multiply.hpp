// The thesis's computeSubmatrix: C (rows x n) = A (rows x inner) x B (inner x n),
// all row-major, on one thread. The thesis called a sequential MKL routine; here
// OpenBLAS's cblas_dgemm (one BLAS thread: the UPC threads are the parallelism),
// or the plain triple loop for comparison.
#pragma once
#include <cblas.h>

#include <cstddef>
#include <string>

namespace dense {

enum class local_method { blas, loops };

inline local_method parse_local(const std::string& s) { return s == "loops" ? local_method::loops : local_method::blas; }
inline const char* name_of(local_method m) { return m == local_method::loops ? "loops" : "blas"; }

// sloc dense_matmul/standard comp begin
// sloc dense_matmul/priv comp begin
// sloc dense_matmul/in_place comp begin
inline void compute_submatrix(const double* A, const double* B, double* C, std::size_t rows, std::size_t inner, std::size_t n,
                              local_method how) {
  if (rows == 0) return;
  if (how == local_method::blas) {
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(rows), static_cast<int>(n), static_cast<int>(inner), 1.0,
                A, static_cast<int>(inner), B, static_cast<int>(n), 0.0, C, static_cast<int>(n));
    return;
  }
  for (std::size_t i = 0; i < rows; ++i) {  // i-k-j: the inner loop runs along rows of B and C
    double* c = C + i * n;
    for (std::size_t j = 0; j < n; ++j) c[j] = 0.0;
    for (std::size_t k = 0; k < inner; ++k) {
      const double a = A[i * inner + k];
      const double* b = B + k * n;
      for (std::size_t j = 0; j < n; ++j) c[j] += a * b[j];
    }
  }
}
// sloc dense_matmul/in_place comp end
// sloc dense_matmul/priv comp end
// sloc dense_matmul/standard comp end

}  // namespace dense
