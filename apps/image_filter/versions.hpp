// The three ways the program moves the image, each in its own file. Every
// version starts as the thesis's Listing 3.13 does: the image `img` and the
// 3 x 3 `filter` in thread 0's private memory; and ends with `filteredImg` there.
//   standard    (standard.cpp)    standard collectives on shared arrays:
//                                 upc_all_scatter, upc_all_broadcast, halo rows with
//                                 upc_memget from the neighbours' blocks, upc_all_gather
//   priv        (priv.cpp)        Listing 3.13: upc_all_scatter_priv,
//                                 upc_all_broadcast_in_place_priv, halo rows with two
//                                 upc_all_permute_priv, upc_all_gather_priv
//   vector_copy (vector_copy.cpp) one upc_all_vector_copy_priv gives every thread its
//                                 rows and their halo rows (overlapping source chunks),
//                                 then the same broadcast and gather as priv
// A version's constructor allocates what it needs (untimed); run() is the timed
// kernel: distribution, filtering, collection.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "layout.hpp"

namespace image {

class version {
 public:
  virtual ~version() = default;
  // img and filtered: thread 0's, layout::padded_rows() x n (others pass nullptr).
  // filter: 9 weights on every thread; thread 0's are the filter, the others'
  // are overwritten with them.
  virtual void run(const double* img, double* filter, double* filtered) = 0;
};

std::unique_ptr<version> make_standard(const layout& shape);
std::unique_ptr<version> make_priv(const layout& shape);
std::unique_ptr<version> make_vector_copy(const layout& shape);

inline const std::vector<std::string>& version_names() {
  static const std::vector<std::string> names{"standard", "priv", "vector_copy"};
  return names;
}

inline std::unique_ptr<version> make_version(const std::string& name, const layout& shape) {
  if (name == "standard") return make_standard(shape);
  if (name == "priv") return make_priv(shape);
  return make_vector_copy(shape);
}

}  // namespace image
