// Stage 1 of the classroom Stencil: the first UPC version, as most students of
// the study wrote it (seed 003 §2.2.2, Table 2.3's "Quite good" codes): both
// vectors are shared arrays blocked over the threads, and upc_forall gives each
// element to the thread that owns it. Every access goes through the shared
// array (the owner and the offset are computed each time), and the two
// neighbours at each block's ends are read from another thread, one element at
// a time.
//
//   shared [B] double u[N], v[N];                      B = ceil(N / THREADS)
//   upc_forall (i = 1; i < N-1; i++; &v[i]) v[i] = (u[i-1] + u[i] + u[i+1]) / 3;
//   upc_barrier;
//
//   build/tools/upcrun -n 4 build/apps/classroom/stencil/naive [--n=N] [--iterations=I]
#include <cstdint>

#include "stencil.hpp"

namespace {

int run(const stencil::options& opt) {
  const std::int64_t n = opt.n;
  // sloc classroom/stencil/naive decl begin
  const std::size_t block = static_cast<std::size_t>(classroom::block_of(n, THREADS));
  upc::shared_array<double, upc::dynamic_block> u(static_cast<std::size_t>(n), upc::block(block));
  upc::shared_array<double, upc::dynamic_block> v(static_cast<std::size_t>(n), upc::block(block));
  // sloc classroom/stencil/naive decl end

  // sloc classroom/stencil/naive comp begin
  upc_forall (std::int64_t i = 0; i < n; i++, &u[i]) {
    u[i] = stencil::initial_value(i);
    v[i] = stencil::initial_value(i);  // the two ends never change, in either vector
  }
  // sloc classroom/stencil/naive comp end
  // sloc classroom/stencil/naive comm begin
  upc_barrier;
  // sloc classroom/stencil/naive comm end

  classroom::stopwatch clock;
  for (std::int64_t it = 0; it < opt.iterations; ++it) {
    // sloc classroom/stencil/naive comp begin
    const auto& src = it % 2 == 0 ? u : v;
    const auto& dst = it % 2 == 0 ? v : u;
    upc_forall (std::int64_t i = 1; i < n - 1; i++, &dst[i])
      dst[i] = stencil::update(src[i - 1], src[i], src[i + 1]);
    // sloc classroom/stencil/naive comp end
    // sloc classroom/stencil/naive comm begin
    upc_barrier;  // every new value is written before anyone reads it
    // sloc classroom/stencil/naive comm end
  }
  return classroom::on_thread0(clock, [&](double seconds) {
    return stencil::check("naive", opt, stencil::collect(opt.iterations % 2 == 0 ? u : v, n), seconds);
  });
}

}  // namespace

int main(int argc, char** argv) { return classroom::stage_main(stencil::code, "naive", run, argc, argv); }
