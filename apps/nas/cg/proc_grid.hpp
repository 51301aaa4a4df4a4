// CG's 2-D processor grid (NPB-MPI's setup_proc_info / setup_submatrix_info):
// THREADS = nprows x npcols, a power of two, npcols = nprows or 2 * nprows;
// thread t is (row t / npcols, column t % npcols). Thread (r, c) holds the
// matrix block of row block r and column block c, and the vectors x, z, p, q,
// r of column block c (replicated down each processor column). Blocks are
// balanced as upc::remap's layouts are: block k of p over 1..n is
// 1 + floor(k n / p) .. floor((k + 1) n / p), so a column block always lies
// inside one row block (every row boundary is a column boundary).
#pragma once
#include <string>

namespace cg {

inline bool is_power_of_two(long t) { return t > 0 && (t & (t - 1)) == 0; }

struct proc_grid {
  int nprows = 1, npcols = 1;
  int row = 0, col = 0;  // this thread's place
  long n = 0;

  proc_grid(long order, int threads, int me) : n(order) {
    int log2 = 0;
    while ((1 << (log2 + 1)) <= threads) ++log2;
    npcols = 1 << ((log2 + 1) / 2);  // the larger extent last, as NPB and grid::automatic
    nprows = threads / npcols;
    row = me / npcols;
    col = me % npcols;
  }

  int thread_of(int r, int c) const { return r * npcols + c; }

  // Block k of p over 1..n (1-based, inclusive).
  long block_lo(int k, int p) const { return 1 + static_cast<long>(static_cast<__int128>(k) * n / p); }
  long block_hi(int k, int p) const { return static_cast<long>(static_cast<__int128>(k + 1) * n / p); }

  long firstrow() const { return block_lo(row, nprows); }
  long lastrow() const { return block_hi(row, nprows); }
  long firstcol() const { return block_lo(col, npcols); }
  long lastcol() const { return block_hi(col, npcols); }
  long nrows() const { return lastrow() - firstrow() + 1; }
  long ncols() const { return lastcol() - firstcol() + 1; }
  long max_rows() const { return block_hi(0, nprows) - block_lo(0, nprows) + 1 + 1; }  // blocks differ by one at most

  std::string text() const { return std::to_string(nprows) + " x " + std::to_string(npcols); }
};

}  // namespace cg
