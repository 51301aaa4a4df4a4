// ApplyMap (seed 003 §4.2.1, Listing 4.1): the "Map" stage. Element-by-element
// map: the threads split the input list by a distribution algorithm
// (distribution.cpp) and each applies mapfunc to its elements; array-based map:
// mapfunc gets the whole input on every thread and splits it itself. Either
// way the pairs it emits stay in the thread's private store (store.hpp).
#include <cstdint>
#include <string>
#include <vector>

#include "agreement.hpp"
#include "distribution.hpp"
#include "store.hpp"
#include "upc/error.hpp"
#include "upc_mr.h"

namespace {

using upc::detail::fail;
constexpr const char* apply_map_name = "ApplyMap";

// A digest of the weights, to check that every thread passed the same ones.
long long digest(const int* w, int n) {
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a over the values
  for (int i = 0; i < n; ++i) {
    h ^= static_cast<std::uint32_t>(w[i]);
    h *= 1099511628211ULL;
  }
  return static_cast<long long>(h >> 1);
}

// mapfunc's handles are valid (upc_mr_emit allowed) for this scope only, also
// when mapfunc throws (a failed run).
struct mapping_scope {
  upc::mr::pair_store& s;
  explicit mapping_scope(upc::mr::pair_store& st) : s(st) { s.mapping = true; }
  ~mapping_scope() { s.mapping = false; }
};

void check_result(int r, const std::string& where) {
  if (r < 0) fail(apply_map_name, "mapfunc returned " + std::to_string(r) + " for " + where + ": a negative value means it failed");
}

}  // namespace

int ApplyMap(int (*mapfunc)(void*, void*, void*), void* inputElems, int nelems, int userDefDistrFlag, int algorithm,
             int* weights) {
  upc::mr::pair_store& s = upc::mr::store();
  if (s.mapping) fail(apply_map_name, "called from inside a map function");
  if (mapfunc == nullptr) fail(apply_map_name, "mapfunc is NULL");
  if (nelems < 0) fail(apply_map_name, "nelems = " + std::to_string(nelems) + " is negative");
  if (userDefDistrFlag != UPC_MR_FRAMEWORK_DISTR && userDefDistrFlag != UPC_MR_USER_DISTR)
    fail(apply_map_name, "userDefDistrFlag = " + std::to_string(userDefDistrFlag) +
                " is neither 0 (element-by-element map, distributed by `algorithm`) nor 1 (array-based map: mapfunc divides the "
                "work)");
  const bool by_element = userDefDistrFlag == UPC_MR_FRAMEWORK_DISTR;
  long long weights_digest = 0;
  if (by_element) {
    upc::mr::check_distribution_args(apply_map_name, THREADS, nelems, algorithm, weights);
    if (nelems > 0 && inputElems == nullptr) fail(apply_map_name, "inputElems is NULL with nelems = " + std::to_string(nelems));
    if (upc::mr::needs_weights(algorithm))
      weights_digest = digest(weights, nelems + (algorithm == UPC_MR_BEST_FIT ? 1 : 0));
  }
  // the same call on every thread (the array-based map ignores algorithm and weights)
  upc::mr::agree(apply_map_name, {{"nelems", nelems},
                     {"userDefDistrFlag", userDefDistrFlag},
                     {"algorithm", by_element ? algorithm : -1},
                     {"weights (their values)", weights_digest}});

  s.clear();
  mapping_scope scope(s);
  void* key = &s.key_handle;
  void* value = &s.value_handle;
  if (!by_element) {
    s.last_algorithm = -1;
    check_result(mapfunc(inputElems, key, value), "the input array (array-based map)");
    return static_cast<int>(s.count());
  }
  std::vector<int> owner(static_cast<std::size_t>(nelems));
  s.last_algorithm = upc::mr::distribute(THREADS, nelems, algorithm, weights, owner.data());
  void** elems = static_cast<void**>(inputElems);
  for (int i = 0; i < nelems; ++i)
    if (owner[static_cast<std::size_t>(i)] == MYTHREAD) check_result(mapfunc(elems[i], key, value), "element " + std::to_string(i));
  return static_cast<int>(s.count());
}
