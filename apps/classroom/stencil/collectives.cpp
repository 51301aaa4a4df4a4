// Stage 3 of the classroom Stencil: the UPC standard collectives
// (<upc_collective.h>, seed 003 §2.1.2) instead of hand-written copies. The
// vector starts on thread 0 and ends there, as the sequential program's does:
//   - upc_all_scatter hands each thread its block of thread 0's vector;
//   - every iteration, upc_all_gather_all gives every thread the two end
//     elements of every block, so each finds its neighbours' edges there;
//   - upc_all_gather brings the blocks back to thread 0.
// The computation works on the privatised blocks, as in the optimised stage.
//
// The standard collectives move the same number of bytes for every thread,
// from and to shared memory only (the limitations of §2.1.2): the vector is
// padded to THREADS equal blocks, the edges go through a shared array, and the
// whole vector is a shared array on thread 0.
//
//   upc_all_scatter(u, whole, B * sizeof(double), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
//   upc_all_gather_all(all_edges, edges, 2 * sizeof(double), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
//   upc_all_gather(whole, u, B * sizeof(double), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
//
//   build/tools/upcrun -n 4 build/apps/classroom/stencil/collectives [--n=N] [--iterations=I]
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "stencil.hpp"
#include "upc_collective.h"

namespace {

constexpr upc_flag_t sync_all = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;

int run(const stencil::options& opt) {
  const std::int64_t n = opt.n;
  // sloc classroom/stencil/collectives decl begin
  const std::size_t block = static_cast<std::size_t>(classroom::block_of(n, THREADS));
  const std::size_t padded = block * static_cast<std::size_t>(THREADS);  // equal blocks for the collectives
  const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
  upc::shared_array<double, upc::indefinite> whole(padded);  // shared [] double whole[...]: on thread 0
  upc::shared_array<double, upc::dynamic_block> u(padded, upc::block(block)), v(padded, upc::block(block));
  upc::shared_array<double, 2> edges(upc::per_thread(2));                          // shared [2] double edges[2*THREADS]
  upc::shared_array<double, upc::dynamic_block> all_edges(2 * T * T, upc::block(2 * T));  // every thread gets all of them
  const auto [first, count] = classroom::part_of(n, THREADS, MYTHREAD);
  double* my_u = (&u[me * block]).local();
  double* my_v = (&v[me * block]).local();
  double* my_edges = (&edges[2 * me]).local();
  const double* every_edge = (&all_edges[2 * T * me]).local();
  const std::int64_t lo = std::max<std::int64_t>(first, 1) - first, hi = std::min(first + count, n - 1) - first;
  // sloc classroom/stencil/collectives decl end

  // sloc classroom/stencil/collectives comp begin
  if (MYTHREAD == 0) {  // thread 0 holds the starting vector, as the sequential program does
    double* w = whole.data().local();
    for (std::int64_t i = 0; i < n; ++i) w[i] = stencil::initial_value(i);
  }
  // sloc classroom/stencil/collectives comp end
  // sloc classroom/stencil/collectives comm begin
  upc_all_scatter(u, whole, block * sizeof(double), sync_all);
  // sloc classroom/stencil/collectives comm end
  // sloc classroom/stencil/collectives comp begin
  std::memcpy(my_v, my_u, block * sizeof(double));  // the two ends never change, in either vector
  // sloc classroom/stencil/collectives comp end

  upc_barrier;
  classroom::stopwatch clock;
  for (std::int64_t it = 0; it < opt.iterations; ++it) {
    const double* s = it % 2 == 0 ? my_u : my_v;
    double* d = it % 2 == 0 ? my_v : my_u;
    // sloc classroom/stencil/collectives comm begin
    if (count > 0) my_edges[0] = s[0], my_edges[1] = s[count - 1];
    upc_all_gather_all(all_edges, edges, 2 * sizeof(double), sync_all);
    const double left = MYTHREAD > 0 ? every_edge[2 * (me - 1) + 1] : 0;    // the last element of the previous block
    const double right = me + 1 < T ? every_edge[2 * (me + 1)] : 0;        // the first element of the next block
    // sloc classroom/stencil/collectives comm end
    // sloc classroom/stencil/collectives comp begin
    const auto edge = [&](std::int64_t j) {
      return stencil::update(j > 0 ? s[j - 1] : left, s[j], j + 1 < count ? s[j + 1] : right);
    };
    if (lo < hi) d[lo] = edge(lo);
    for (std::int64_t j = lo + 1; j < hi - 1; ++j) d[j] = stencil::update(s[j - 1], s[j], s[j + 1]);
    if (hi - 1 > lo) d[hi - 1] = edge(hi - 1);
    // sloc classroom/stencil/collectives comp end
  }
  // sloc classroom/stencil/collectives comm begin
  upc_all_gather(whole, opt.iterations % 2 == 0 ? u : v, block * sizeof(double), sync_all);
  // sloc classroom/stencil/collectives comm end
  const double seconds = clock.seconds();

  if (MYTHREAD != 0) return 0;
  const double* w = whole.data().local();
  return stencil::check("collectives", opt, std::vector<double>(w, w + n), seconds);
}

}  // namespace

int main(int argc, char** argv) { return classroom::stage_main(stencil::code, "collectives", run, argc, argv); }
