// ApplyMap's work distributions (seed 003 §4.2.1, Figure 4.1): which thread maps
// each input element. BLOCK and CYCLIC look only at positions; BALANCED is the
// thesis's greedy heuristic on the weights; BEST_FIT takes BLOCK, else CYCLIC,
// when its largest load difference is within the threshold in weights[0], and
// BALANCED otherwise. Pure functions of (threads, nelems, weights): every thread
// computes the same assignment without communicating.
#include <algorithm>
#include <string>
#include <vector>

#include "distribution.hpp"
#include "upc/error.hpp"
#include "upc_mr.h"

namespace upc::mr {

using detail::fail;

const char* algorithm_name(int algorithm) {
  switch (algorithm) {
    case UPC_MR_BLOCK: return "UPC_MR_BLOCK";
    case UPC_MR_CYCLIC: return "UPC_MR_CYCLIC";
    case UPC_MR_BALANCED: return "UPC_MR_BALANCED";
    case UPC_MR_BEST_FIT: return "UPC_MR_BEST_FIT";
    default: return "?";
  }
}

bool needs_weights(int algorithm) { return algorithm == UPC_MR_BALANCED || algorithm == UPC_MR_BEST_FIT; }

void check_distribution_args(const char* function, int threads, int nelems, int algorithm, const int* weights) {
  if (threads < 1) fail(function, "threads = " + std::to_string(threads) + ": must be at least 1");
  if (nelems < 0) fail(function, "nelems = " + std::to_string(nelems) + " is negative");
  if (algorithm < UPC_MR_BLOCK || algorithm > UPC_MR_BEST_FIT)
    fail(function, "algorithm = " + std::to_string(algorithm) +
                       " is not UPC_MR_BLOCK (0), UPC_MR_CYCLIC (1), UPC_MR_BALANCED (2) or UPC_MR_BEST_FIT (3)");
  if (!needs_weights(algorithm)) return;
  if (weights == nullptr)
    fail(function, std::string("weights is NULL, but ") + algorithm_name(algorithm) +
                       (algorithm == UPC_MR_BEST_FIT ? " needs the threshold in weights[0] and a weight per element after it"
                                                     : " needs a weight per element"));
  const int first = algorithm == UPC_MR_BEST_FIT ? 1 : 0;
  if (algorithm == UPC_MR_BEST_FIT && weights[0] < 0)
    fail(function, "weights[0] = " + std::to_string(weights[0]) + ": the threshold of UPC_MR_BEST_FIT must not be negative");
  for (int i = 0; i < nelems; ++i)
    if (weights[first + i] <= 0)
      fail(function, "weights[" + std::to_string(first + i) + "] = " + std::to_string(weights[first + i]) +
                         ": the weight of element " + std::to_string(i) + " must be a positive integer");
}

namespace {

void block(int threads, int nelems, int* owner) {
  // the first nelems % threads threads get one element more
  const int base = nelems / threads, extra = nelems % threads;
  int i = 0;
  for (int t = 0; t < threads; ++t)
    for (int k = 0; k < base + (t < extra ? 1 : 0); ++k) owner[i++] = t;
}

void cyclic(int threads, int nelems, int* owner) {
  for (int i = 0; i < nelems; ++i) owner[i] = i % threads;
}

void balanced(int threads, int nelems, const int* w, int* owner) {
  std::vector<long long> load(static_cast<std::size_t>(threads), 0);
  for (int i = 0; i < nelems; ++i) {
    // min_element returns the first minimum: ties go to the lowest thread
    const auto t = std::min_element(load.begin(), load.end()) - load.begin();
    owner[i] = static_cast<int>(t);
    load[static_cast<std::size_t>(t)] += w[i];
  }
}

}  // namespace

int distribute(int threads, int nelems, int algorithm, const int* weights, int* owner) {
  switch (algorithm) {
    case UPC_MR_BLOCK: block(threads, nelems, owner); return UPC_MR_BLOCK;
    case UPC_MR_CYCLIC: cyclic(threads, nelems, owner); return UPC_MR_CYCLIC;
    case UPC_MR_BALANCED: balanced(threads, nelems, weights, owner); return UPC_MR_BALANCED;
    default: break;
  }
  // BEST_FIT: the first of BLOCK, CYCLIC within the threshold, else BALANCED
  const long long threshold = weights[0];
  const int* w = weights + 1;
  block(threads, nelems, owner);
  if (max_load_difference(threads, nelems, owner, w) <= threshold) return UPC_MR_BLOCK;
  cyclic(threads, nelems, owner);
  if (max_load_difference(threads, nelems, owner, w) <= threshold) return UPC_MR_CYCLIC;
  balanced(threads, nelems, w, owner);
  return UPC_MR_BALANCED;
}

long long max_load_difference(int threads, int nelems, const int* owner, const int* weights) {
  std::vector<long long> load(static_cast<std::size_t>(threads), 0);
  for (int i = 0; i < nelems; ++i) load[static_cast<std::size_t>(owner[i])] += weights ? weights[i] : 1;
  const auto [lo, hi] = std::minmax_element(load.begin(), load.end());
  return *hi - *lo;
}

}  // namespace upc::mr

int upc_mr_distribute(int threads, int nelems, int algorithm, const int* weights, int* owner) {
  upc::mr::check_distribution_args("upc_mr_distribute", threads, nelems, algorithm, weights);
  if (nelems > 0 && owner == nullptr) upc::detail::fail("upc_mr_distribute", "owner is NULL");
  return upc::mr::distribute(threads, nelems, algorithm, weights, owner);
}

long long upc_mr_max_load_difference(int threads, int nelems, const int* owner, const int* weights) {
  const char* f = "upc_mr_max_load_difference";
  if (threads < 1) upc::detail::fail(f, "threads = " + std::to_string(threads) + ": must be at least 1");
  if (nelems < 0) upc::detail::fail(f, "nelems = " + std::to_string(nelems) + " is negative");
  if (nelems > 0 && owner == nullptr) upc::detail::fail(f, "owner is NULL");
  for (int i = 0; i < nelems; ++i)
    if (owner[i] < 0 || owner[i] >= threads)
      upc::detail::fail(f, "owner[" + std::to_string(i) + "] = " + std::to_string(owner[i]) + " is not a thread of 0.." +
                               std::to_string(threads - 1));
  return upc::mr::max_load_difference(threads, nelems, owner, weights);
}
