// NPB CG's test matrix (makea, sprnvc, vecset, sparse of NPB-MPI / NPB-UPC):
// a sum of n outer products of random sparse vectors with geometrically
// decreasing weights, plus (rcond - shift) on the diagonal. Every thread runs
// the whole random sequence (it is cheap) and keeps the elements of its block
// rows firstrow..lastrow x columns firstcol..lastcol, so the block is the same
// whichever grid it belongs to.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "cg_class.hpp"
#include "npb_random.hpp"

namespace cg {

// Calls visit(row, column, value) (1-based) for every element NPB's makea
// generates, in its order: for each outer row iouter, the sparse vector v
// (sprnvc: nonzer distinct random positions, then vecset puts 0.5 at iouter)
// times size * v, size shrinking by rcond^(1/n); then the diagonal shift.
// Duplicates are summed later, in this order.
template <class Visit>
void for_each_generated_element(const problem_class& c, Visit&& visit) {
  const long n = c.na;
  double tran = npb::default_seed;
  const double amult = npb::default_multiplier;
  npb::randlc(tran, amult);  // NPB's main draws zeta = randlc(tran, amult) before makea
  long nn1 = 1;              // the smallest power of two not less than n
  do nn1 *= 2;
  while (nn1 < n);

  std::vector<char> mark(static_cast<std::size_t>(n) + 1, 0);
  std::vector<double> v;
  std::vector<long> iv;
  double size = 1.0;
  const double ratio = std::pow(rcond, 1.0 / static_cast<double>(n));
  for (long iouter = 1; iouter <= n; ++iouter) {
    // sprnvc: nonzer distinct positions in 1..n, each with a random value
    v.clear();
    iv.clear();
    while (static_cast<long>(v.size()) < c.nonzer) {
      const double vecelt = npb::randlc(tran, amult);
      const double vecloc = npb::randlc(tran, amult);
      const long i = static_cast<long>(static_cast<double>(nn1) * vecloc) + 1;  // icnvrt
      if (i > n || mark[static_cast<std::size_t>(i)]) continue;
      mark[static_cast<std::size_t>(i)] = 1;
      v.push_back(vecelt);
      iv.push_back(i);
    }
    for (long i : iv) mark[static_cast<std::size_t>(i)] = 0;
    // vecset: element iouter becomes 0.5 (added when absent)
    bool set = false;
    for (std::size_t k = 0; k < iv.size(); ++k)
      if (iv[k] == iouter) {
        v[k] = 0.5;
        set = true;
      }
    if (!set) {
      v.push_back(0.5);
      iv.push_back(iouter);
    }
    for (std::size_t col = 0; col < iv.size(); ++col) {
      const double scale = size * v[col];
      for (std::size_t row = 0; row < iv.size(); ++row) visit(iv[row], iv[col], v[row] * scale);
    }
    size *= ratio;
  }
  for (long i = 1; i <= n; ++i) visit(i, i, rcond - c.shift);
}

// A block of the matrix in compressed rows: row j (0-based within the block)
// holds a[rowstr[j] .. rowstr[j+1]), columns colidx (0-based within the block).
struct block_matrix {
  std::vector<long> rowstr;
  std::vector<int> colidx;
  std::vector<double> a;
};

// Rows firstrow..lastrow, columns firstcol..lastcol (1-based, inclusive), as
// NPB's sparse makes them: the generated elements bucketed by row in their
// order, duplicates summed in that order, each row's columns in the order
// they first became nonzero, exact zeros dropped.
inline block_matrix make_block(const problem_class& c, long firstrow, long lastrow, long firstcol, long lastcol) {
  const long nrows = lastrow - firstrow + 1, ncols = lastcol - firstcol + 1;
  auto mine = [&](long row, long col) { return row >= firstrow && row <= lastrow && col >= firstcol && col <= lastcol; };

  // Two passes over the generator instead of a list of every element: count
  // per row, then place each element in its row's bucket.
  std::vector<long> start(static_cast<std::size_t>(nrows) + 1, 0);
  for_each_generated_element(c, [&](long row, long col, double) {
    if (mine(row, col)) ++start[static_cast<std::size_t>(row - firstrow + 1)];
  });
  for (long j = 0; j < nrows; ++j) start[static_cast<std::size_t>(j + 1)] += start[static_cast<std::size_t>(j)];
  std::vector<int> bucket_col(static_cast<std::size_t>(start.back()));
  std::vector<double> bucket_val(bucket_col.size());
  std::vector<long> fill(start.begin(), start.end() - 1);
  for_each_generated_element(c, [&](long row, long col, double value) {
    if (!mine(row, col)) return;
    const std::size_t k = static_cast<std::size_t>(fill[static_cast<std::size_t>(row - firstrow)]++);
    bucket_col[k] = static_cast<int>(col - firstcol);
    bucket_val[k] = value;
  });

  block_matrix m;
  m.rowstr.assign(static_cast<std::size_t>(nrows) + 1, 0);
  m.colidx.reserve(bucket_col.size());
  m.a.reserve(bucket_col.size());
  std::vector<double> x(static_cast<std::size_t>(ncols), 0.0);
  std::vector<char> marked(static_cast<std::size_t>(ncols), 0);
  std::vector<int> nzloc;
  for (long j = 0; j < nrows; ++j) {
    nzloc.clear();
    for (long k = start[static_cast<std::size_t>(j)]; k < start[static_cast<std::size_t>(j + 1)]; ++k) {
      const std::size_t i = static_cast<std::size_t>(bucket_col[static_cast<std::size_t>(k)]);
      x[i] += bucket_val[static_cast<std::size_t>(k)];
      if (!marked[i] && x[i] != 0.0) {
        marked[i] = 1;
        nzloc.push_back(static_cast<int>(i));
      }
    }
    for (int col : nzloc) {
      const std::size_t i = static_cast<std::size_t>(col);
      marked[i] = 0;
      const double xi = x[i];
      x[i] = 0.0;
      if (xi != 0.0) {
        m.a.push_back(xi);
        m.colidx.push_back(col);
      }
    }
    m.rowstr[static_cast<std::size_t>(j + 1)] = static_cast<long>(m.a.size());
  }
  return m;
}

}  // namespace cg
