// How the parallel versions split the particles and the matrix D (§5.4.1,
// §5.4.3, §5.4.4). Every thread computes the same split from (N, THREADS).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace brownian {

// sloc brownian/cholesky decl begin
// sloc brownian/fixman_balanced decl begin
// sloc brownian/fixman_minimum decl begin
// Particles in consecutive blocks of b = ceil(N / THREADS): thread t owns
// particles [t b, (t+1) b) (the last blocks may be short or empty), hence
// the rows [3 t b, 3 (t+1) b) of D. A vector laid out in THREADS pieces of
// 3 b rows keeps every row at its own index, which is what the in-place
// allgather and exchange move (their pieces must all be the same size).
struct particle_blocks {
  int particles = 0, threads = 1, per_thread = 1;
  particle_blocks(int n, int t) : particles(n), threads(t), per_thread((n + t - 1) / t) {}
  int first(int t) const { return std::min(t * per_thread, particles); }
  int last(int t) const { return std::min((t + 1) * per_thread, particles); }
  int piece_rows() const { return 3 * per_thread; }
  std::size_t padded_rows() const { return static_cast<std::size_t>(piece_rows()) * static_cast<std::size_t>(threads); }
};
// sloc brownian/fixman_minimum decl end
// sloc brownian/fixman_balanced decl end
// sloc brownian/cholesky decl end

// sloc brownian/cholesky decl begin
// §5.4.3, Figure 5.3: consecutive rows of the upper triangle of D (row i holds
// the n - i elements j >= i) go to thread p until the elements assigned so far
// reach nlocalelems·(p+1), nlocalelems = n(n+1)/2 / THREADS. Returns the first
// row of every thread and n at the end (THREADS + 1 entries).
inline std::vector<int> balanced_rows(int n, int threads) {
  std::vector<int> first(static_cast<std::size_t>(threads) + 1, n);
  first[0] = 0;
  const double nlocalelems = static_cast<double>(n) * (n + 1) / 2.0 / threads;
  double assigned = 0;
  int p = 0;
  for (int i = 0; i < n && p + 1 < threads; ++i) {
    assigned += n - i;
    if (assigned >= nlocalelems * (p + 1)) first[static_cast<std::size_t>(++p)] = i + 1;
  }
  for (int q = p + 1; q <= threads; ++q) first[static_cast<std::size_t>(q)] = n;
  return first;
}
// sloc brownian/cholesky decl end

// sloc brownian/fixman_balanced decl begin
// §5.4.4, Figure 5.4: the N(N-1)/2 blocks above the diagonal, numbered row by
// row ((0,1), (0,2), ..., (1,2), ...), in THREADS consecutive chunks of (almost)
// equal size, whatever particles they belong to. A thread's chunk is a list of
// runs along block rows: particle ip with particles [jp_first, jp_last).
struct block_run {
  int ip, jp_first, jp_last;
};

inline std::vector<block_run> offdiagonal_runs(int particles, int threads, int t) {
  const std::int64_t N = particles, total = N * (N - 1) / 2;
  const std::int64_t lo = total * t / threads, hi = total * (t + 1) / threads;
  std::vector<block_run> runs;
  std::int64_t row_start = 0;  // number of the first block of row ip
  for (int ip = 0; ip + 1 < particles && row_start < hi; ++ip) {
    const std::int64_t row_end = row_start + (N - 1 - ip);
    const std::int64_t a = std::max(lo, row_start), b = std::min(hi, row_end);
    if (a < b)
      runs.push_back(block_run{ip, static_cast<int>(ip + 1 + (a - row_start)), static_cast<int>(ip + 1 + (b - row_start))});
    row_start = row_end;
  }
  return runs;
}
// sloc brownian/fixman_balanced decl end

}  // namespace brownian
