// The two ways the program moves the matrices, each in its own file. Both start
// as the thesis's §3.4.2 does: the CSR matrix A (m x k) and the dense B (k x n)
// in thread 0's private memory, and end with C = A x B (m x n) there.
//   standard (standard.cpp)  auxiliary shared arrays with one block per thread,
//                            filled by thread 0 with upc_memput loops, read with
//                            upc_memget after a barrier; C back the same way
//   priv     (priv.cpp)      Listing 3.16: upc_all_scatter_v_priv (values and
//                            column indexes), upc_all_vector_copy_priv (row
//                            pointers), upc_all_broadcast_in_place_priv (B),
//                            upc_all_gather_v_priv (C)
// A version's constructor does the set-up (the per-thread counts and
// displacements, the buffers: untimed); run() is the timed kernel.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "csr.hpp"

namespace sparse {

struct problem {
  std::size_t m = 0, k = 0, n = 0;  // A is m x k, B is k x n, C is m x n
};

class version {
 public:
  virtual ~version() = default;
  // A and C: thread 0's (others pass an empty A and nullptr). B: k x n on every
  // thread; thread 0's holds the operand, the others' are overwritten with it.
  virtual void run(const csr& A, double* B, double* C) = 0;
};

// first_row: the split (split.hpp), meaningful on thread 0 only, as is A.
std::unique_ptr<version> make_standard(const problem& p, const csr& A, const std::vector<std::size_t>& first_row);
std::unique_ptr<version> make_priv(const problem& p, const csr& A, const std::vector<std::size_t>& first_row);

inline const std::vector<std::string>& version_names() {
  static const std::vector<std::string> names{"standard", "priv"};
  return names;
}

inline std::unique_ptr<version> make_version(const std::string& name, const problem& p, const csr& A,
                                             const std::vector<std::size_t>& first_row) {
  return name == "standard" ? make_standard(p, A, first_row) : make_priv(p, A, first_row);
}

}  // namespace sparse
