// Which rows each thread multiplies: consecutive blocks of rows chosen so that
// every thread gets about nonzeros / THREADS nonzeros (the thesis: "selecting
// the number of rows that each thread should process to obtain balanced
// workloads"). Thread t gets rows [first_row[t], first_row[t+1]).
#pragma once
#include <cstddef>
#include <vector>

#include "csr.hpp"

namespace sparse {

inline std::vector<std::size_t> split_by_nonzeros(const csr& a, int threads) {
  const std::size_t T = static_cast<std::size_t>(threads), nz = a.nonzeros();
  std::vector<std::size_t> first_row(T + 1, a.rows);
  first_row[0] = 0;
  std::size_t row = 0;
  for (std::size_t t = 1; t < T; ++t) {
    const std::size_t target = (nz * t + T - 1) / T;  // thread t starts at the first row that begins at or after this nonzero
    while (row < a.rows && static_cast<std::size_t>(a.row_ptr[row]) < target) ++row;
    first_row[t] = row;
  }
  return first_row;
}

}  // namespace sparse
