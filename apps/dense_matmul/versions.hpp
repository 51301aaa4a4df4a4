// The three ways the program moves the matrices, each in its own file. Every
// version starts from the same place, as the thesis's Listings 3.14 and 3.15
// do: A and B in thread 0's private memory, and ends with C there.
//   standard  (standard.cpp)  Listing 3.14: auxiliary shared arrays, upc_memput /
//                             upc_memget loops and three barriers
//   priv      (priv.cpp)      Listing 3.15: upc_all_scatter_priv,
//                             upc_all_broadcast_in_place_priv, upc_all_gather_priv
//   in_place  (in_place.cpp)  shared ends: upc_all_scatter and upc_all_gather of the
//                             standard library, B with upc_all_broadcast_in_place
//                             (the collective of the thesis's Figure 3.12)
// A version's constructor allocates what it needs (untimed); run() is the timed
// kernel: distribution, local multiply, collection.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "layout.hpp"
#include "local_multiply.hpp"

namespace dense {

class version {
 public:
  virtual ~version() = default;
  // A and C: thread 0's, layout::padded_rows() x n (others may pass nullptr).
  // B: n x n on every thread; thread 0's holds the operand, the others' are
  // overwritten with it.
  virtual void run(const double* A, double* B, double* C) = 0;
};

std::unique_ptr<version> make_standard(const layout& shape, local_method how);
std::unique_ptr<version> make_priv(const layout& shape, local_method how);
std::unique_ptr<version> make_in_place(const layout& shape, local_method how);

inline const std::vector<std::string>& version_names() {
  static const std::vector<std::string> names{"standard", "priv", "in_place"};
  return names;
}

inline std::unique_ptr<version> make_version(const std::string& name, const layout& shape, local_method how) {
  if (name == "standard") return make_standard(shape, how);
  if (name == "priv") return make_priv(shape, how);
  return make_in_place(shape, how);
}

}  // namespace dense
