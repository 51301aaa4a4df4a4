// ApplyMap's work distributions (distribution.cpp), shared with ApplyMap.
#pragma once

namespace upc::mr {

const char* algorithm_name(int algorithm);
bool needs_weights(int algorithm);
// Stops the run (upc::error from `function`) on a bad thread count, element
// count, algorithm or weights.
void check_distribution_args(const char* function, int threads, int nelems, int algorithm, const int* weights);
// owner[i] for every element; returns the algorithm used (BEST_FIT resolved).
// The arguments must have passed check_distribution_args.
int distribute(int threads, int nelems, int algorithm, const int* weights, int* owner);
// max - min of the threads' loads (weights: one per element, or NULL for 1 each)
long long max_load_difference(int threads, int nelems, const int* owner, const int* weights);

}  // namespace upc::mr
