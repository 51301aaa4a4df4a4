// The replicated-vector transpose by the remap operator (seed 004 §4.3):
//   region Row = [*, 1..n]; Col = [1..n, *];
//   var W : [Row] double; P : [Col] double;
//   [Row] W := P#[Index2, src_ind];
// P is the row sum of A * p (row block r on every thread of processor row r),
// W the same vector by column blocks (column block c on every thread of
// processor column c). src_ind picks which replica of P each thread reads, so
// that on 2^k x 2^k and 2^k x 2^(k+1) grids every thread reads from exactly
// one other (Figure 2(c)). The schedule is built once (map saving) and reused
// by every later transpose; its pieces go straight from P into W (§4.5.5).
#pragma once
#include <cstdio>
#include <string>
#include <utility>

#include "../../../harness/team.hpp"
#include "proc_grid.hpp"
#include "upc.h"
#include "upc/remap.hpp"

namespace cg {

class remap_transpose {
 public:
  static constexpr const char* name = "remap";

  // Collective.
  explicit remap_transpose(const proc_grid& g)
      // sloc cg/remap decl begin
      : procs_{g.nprows, g.npcols},
        P_({{1, g.n}, upc::remap::dim::flood(1, g.n)}, procs_, "P"),
        W_({upc::remap::dim::flood(1, g.n), {1, g.n}}, procs_, "W"),
        src_(upc::remap::expr([s = src_ind(g)](const upc::remap::point&) { return s; }, 1)) {
    // sloc cg/remap decl end
    const upc::remap::layout::block p = P_.my_block(), w = W_.my_block();
    if (p.lo[0] != g.firstrow() || p.hi[0] != g.lastrow() || w.lo[1] != g.firstcol() || w.hi[1] != g.lastcol())
      throw upc::error("cg", "the remap arrays' blocks differ from the matrix blocks", MYTHREAD);
    row_sum_ = P_.local();
    w_ = std::as_const(W_).local();
  }
  ~remap_transpose() { upc::remap::forget_schedules(); }  // collective, like the arrays

  double* row_sum() { return row_sum_; }  // my replica of P: the row reduction writes it

  // Collective: my column block of the row sums.
  const double* transpose() {
    // sloc cg/remap comm begin
    upc::remap::gather(W_, P_, {upc::remap::Index2, src_}, {});
    // sloc cg/remap comm end
    const upc::remap::stats& st = upc::remap::last_stats();
    if (!st.reused) inspector_seconds_ += st.inspector_seconds, ++inspections_;
    sources_ = st.sources;
    readers_ = st.readers;
    ++calls_;
    return w_;
  }

  // Collective: what the operator did — how often the inspector ran (once,
  // with map saving) and, on the busiest thread, how many threads one
  // transpose read from and served (1 and 1: the one-to-one pattern).
  std::string summary() const {
    const double inspections = bench::max_over_threads(inspections_), seconds = bench::max_over_threads(inspector_seconds_);
    const double sources = bench::max_over_threads(sources_), readers = bench::max_over_threads(readers_);
    char text[240];
    std::snprintf(text, sizeof text,
                  "%ld transposes, the inspector run %.0f time(s) (%.3f ms); each thread reads from at most %.0f thread(s) and "
                  "serves at most %.0f",
                  calls_, inspections, seconds * 1e3, sources, readers);
    return text;
  }

 private:
  // The paper's formula, for grid coordinates (row, col) of rows x cols:
  // row * floor(n / rows) + (col * floor(n / cols)) mod ceil(n / rows) + 1.
  static long src_ind(const proc_grid& g) {
    // sloc cg/remap decl begin
    const long n = g.n, rows = g.nprows, cols = g.npcols;
    return g.row * (n / rows) + (g.col * (n / cols)) % ((n + rows - 1) / rows) + 1;
    // sloc cg/remap decl end
  }

  // sloc cg/remap decl begin
  upc::remap::grid procs_;
  upc::remap::darray<double> P_, W_;
  upc::remap::map src_;
  // sloc cg/remap decl end
  double* row_sum_ = nullptr;
  const double* w_ = nullptr;
  long calls_ = 0;
  int inspections_ = 0, sources_ = 0, readers_ = 0;
  double inspector_seconds_ = 0;
};

}  // namespace cg
