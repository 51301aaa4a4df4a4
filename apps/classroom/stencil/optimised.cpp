// Stage 2 of the classroom Stencil: privatisation and bulk copies (seed 003
// §2.1.1, Listing 2.1; the one "Excellent" code of Table 2.3). The vectors stay
// shared and blocked as in the naive stage, but each thread
//   - takes a pointer to local memory to its own block once (privatisation:
//     no owner/offset arithmetic per element), and works through it;
//   - fetches the two neighbours it needs from other threads, the last element
//     of the previous block and the first of the next, with upc_memget;
//   - loops over its own elements only (no upc_forall testing every index).
//
//   double *mine = (double *) &u[first];               // my block, privatised
//   upc_memget(&left, &u[first - 1], sizeof(double));  // the neighbours' edges
//   upc_memget(&right, &u[first + count], sizeof(double));
//
//   build/tools/upcrun -n 4 build/apps/classroom/stencil/optimised [--n=N] [--iterations=I]
#include <algorithm>
#include <cstdint>

#include "stencil.hpp"

namespace {

int run(const stencil::options& opt) {
  const std::int64_t n = opt.n;
  // sloc classroom/stencil/optimised decl begin
  const std::size_t block = static_cast<std::size_t>(classroom::block_of(n, THREADS));
  upc::shared_array<double, upc::dynamic_block> u(static_cast<std::size_t>(n), upc::block(block));
  upc::shared_array<double, upc::dynamic_block> v(static_cast<std::size_t>(n), upc::block(block));
  const auto [first, count] = classroom::part_of(n, THREADS, MYTHREAD);
  double* my_u = count > 0 ? (&u[static_cast<std::size_t>(first)]).local() : nullptr;  // privatisation
  double* my_v = count > 0 ? (&v[static_cast<std::size_t>(first)]).local() : nullptr;
  // the elements this thread updates, as local indices: all of its own but the two ends of the vector
  const std::int64_t lo = std::max<std::int64_t>(first, 1) - first, hi = std::min(first + count, n - 1) - first;
  // sloc classroom/stencil/optimised decl end

  // sloc classroom/stencil/optimised comp begin
  for (std::int64_t j = 0; j < count; ++j) my_u[j] = my_v[j] = stencil::initial_value(first + j);
  // sloc classroom/stencil/optimised comp end
  // sloc classroom/stencil/optimised comm begin
  upc_barrier;
  // sloc classroom/stencil/optimised comm end

  classroom::stopwatch clock;
  for (std::int64_t it = 0; it < opt.iterations; ++it) {
    // sloc classroom/stencil/optimised comm begin
    const auto& src = it % 2 == 0 ? u : v;
    double left = 0, right = 0;  // the neighbours' edges
    if (count > 0 && first > 0) upc_memget(&left, &src[static_cast<std::size_t>(first - 1)], sizeof(double));
    if (count > 0 && first + count < n) upc_memget(&right, &src[static_cast<std::size_t>(first + count)], sizeof(double));
    // sloc classroom/stencil/optimised comm end
    // sloc classroom/stencil/optimised comp begin
    const double* s = it % 2 == 0 ? my_u : my_v;
    double* d = it % 2 == 0 ? my_v : my_u;
    const auto edge = [&](std::int64_t j) {  // an element next to another thread's block
      return stencil::update(j > 0 ? s[j - 1] : left, s[j], j + 1 < count ? s[j + 1] : right);
    };
    if (lo < hi) d[lo] = edge(lo);
    for (std::int64_t j = lo + 1; j < hi - 1; ++j) d[j] = stencil::update(s[j - 1], s[j], s[j + 1]);
    if (hi - 1 > lo) d[hi - 1] = edge(hi - 1);
    // sloc classroom/stencil/optimised comp end
    // sloc classroom/stencil/optimised comm begin
    upc_barrier;  // the new values are complete before the next iteration reads the edges
    // sloc classroom/stencil/optimised comm end
  }
  return classroom::on_thread0(clock, [&](double seconds) {
    return stencil::check("optimised", opt, stencil::collect(opt.iterations % 2 == 0 ? u : v, n), seconds);
  });
}

}  // namespace

int main(int argc, char** argv) { return classroom::stage_main(stencil::code, "optimised", run, argc, argv); }
