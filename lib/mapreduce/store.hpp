// The intermediate key/value pairs of one thread (seed 003 §4.2.1: "each thread
// keeps its own sublist of intermediate elements stored in the private memory
// space ... managed by the framework transparently to the user"). ApplyMap
// fills it through upc_mr_emit; ApplyReduce moves and reduces it.
#pragma once
#include <cstddef>
#include <vector>

namespace upc::mr {

// A key size or value size seen in every pair so far, or one of these.
constexpr int no_pairs_yet = -1;
constexpr int sizes_differ = -2;

struct pair_store {
  std::vector<unsigned char> keys, values;  // every key's bytes, every value's, in emission order
  std::vector<int> key_sizes, value_sizes;  // one per pair
  int key_size = no_pairs_yet, value_size = no_pairs_yet;
  bool mapping = false;     // inside ApplyMap's calls of mapfunc: upc_mr_emit is allowed
  int last_algorithm = -1;  // the distribution the last ApplyMap used
  // The addresses mapfunc receives as `key` and `value` (upc_mr_emit checks them).
  char key_handle = 0, value_handle = 0;

  std::size_t count() const noexcept { return key_sizes.size(); }
  void clear();
};

// The calling UPC thread's store (each thread, and each process, has its own).
pair_store& store();

}  // namespace upc::mr
