// A sparse matrix in Compressed Sparse Row form (values, column indexes, row
// pointers, as the thesis's Listing 3.16 names them), the seeded generator of
// this program's matrices, and the thesis's computeMMSparse.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sparse {

struct csr {
  std::size_t rows = 0, cols = 0;
  std::vector<int> row_ptr;     // rows + 1 entries: row i is [row_ptr[i], row_ptr[i+1])
  std::vector<int> col_ind;     // column of each nonzero, increasing within a row
  std::vector<double> val;      // the nonzeros
  std::size_t nonzeros() const { return val.size(); }
};

// splitmix64: a seeded stream of 64-bit words.
struct random_stream {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }     // [0, 1)
  double signed_unit() { return 2.0 * uniform() - 1.0; }                         // [-1, 1)
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(uniform() * static_cast<double>(n)); }
};

// The largest number of nonzeros generate() can make (for sizing the heap).
inline std::size_t most_nonzeros(std::size_t rows, std::size_t cols, double density) {
  const double per_row = std::min(static_cast<double>(cols), 1.75 * 1.5 * density * static_cast<double>(cols) + 1.0);
  return rows * static_cast<std::size_t>(per_row);
}

// A rows x cols matrix with about density * rows * cols nonzeros, spread
// unevenly: the expected count of row i grows linearly from 0.25 to 1.75 times
// the mean down the matrix, times a random factor in [0.5, 1.5). Splitting the
// rows evenly would load the last threads about seven times more than the first.
inline csr generate(std::size_t rows, std::size_t cols, double density, std::uint64_t seed) {
  csr a;
  a.rows = rows;
  a.cols = cols;
  a.row_ptr.reserve(rows + 1);
  a.row_ptr.push_back(0);
  random_stream r{seed};
  std::vector<char> taken(cols, 0);
  std::vector<int> chosen;
  for (std::size_t i = 0; i < rows; ++i) {
    const double slope = rows > 1 ? static_cast<double>(i) / static_cast<double>(rows - 1) : 0.5;
    const double expected = density * static_cast<double>(cols) * (0.25 + 1.5 * slope) * (0.5 + r.uniform());
    const std::size_t count = std::min(cols, static_cast<std::size_t>(expected + r.uniform()));  // rounded at random
    chosen.clear();
    for (std::size_t j = cols - count; j < cols; ++j) {  // Floyd's sampling: `count` distinct columns
      const std::size_t t = r.below(j + 1);
      const std::size_t pick = taken[t] ? j : t;
      taken[pick] = 1;
      chosen.push_back(static_cast<int>(pick));
    }
    std::sort(chosen.begin(), chosen.end());
    for (int c : chosen) {
      taken[static_cast<std::size_t>(c)] = 0;
      a.col_ind.push_back(c);
      a.val.push_back(r.signed_unit());
    }
    a.row_ptr.push_back(static_cast<int>(a.col_ind.size()));
  }
  return a;
}

// A dense rows x n matrix of seeded entries in [-1, 1).
inline void fill_dense(double* p, std::size_t count, std::uint64_t seed) {
  random_stream r{seed};
  for (std::size_t i = 0; i < count; ++i) p[i] = r.signed_unit();
}

// sloc sparse_matmul/standard comp begin
// sloc sparse_matmul/priv comp begin
// computeMMSparse: C (rows x n) = A (rows x cols, CSR) x B (cols x n), row-major.
// Each row of C sums its row's nonzeros in CSR order, so a block of rows gives
// the same bits as the whole matrix.
inline void compute_mm_sparse(const double* val, const int* col_ind, const int* row_ptr, const double* B, double* C,
                              std::size_t rows, std::size_t n) {
  for (std::size_t i = 0; i < rows; ++i) {
    double* c = C + i * n;
    for (std::size_t j = 0; j < n; ++j) c[j] = 0.0;
    for (int p = row_ptr[i]; p < row_ptr[i + 1]; ++p) {
      const double a = val[p];
      const double* b = B + static_cast<std::size_t>(col_ind[p]) * n;
      for (std::size_t j = 0; j < n; ++j) c[j] += a * b[j];
    }
  }
}
// sloc sparse_matmul/priv comp end
// sloc sparse_matmul/standard comp end

}  // namespace sparse
