// Stage 1 of the classroom 2-D Stencil: the first UPC version. Both grids are
// shared arrays blocked by whole rows, upc_forall gives each row to the thread
// that owns it, and every point is read and written through the shared array;
// the neighbours' rows above and below a thread's block are read from their
// owners one point at a time.
//
//   shared [R*C] double u[ROWS][C], v[ROWS][C];          R = ceil(ROWS / THREADS)
//   upc_forall (r = 1; r < ROWS-1; r++; &v[r][0])
//     for (c = 1; c < C-1; c++) v[r][c] = (u[r-1][c] + u[r+1][c] + u[r][c-1] + u[r][c+1]) / 4;
//   upc_barrier;
//
//   build/tools/upcrun -n 4 build/apps/classroom/stencil2d/naive [--rows=R] [--cols=C] [--iterations=I]
#include <cstdint>

#include "stencil2d.hpp"

namespace {

int run(const stencil2d::options& opt) {
  const std::int64_t R = opt.rows, C = opt.cols;
  // sloc classroom/stencil2d/naive decl begin
  const std::size_t block = static_cast<std::size_t>(classroom::block_of(R, THREADS) * C);  // whole rows
  upc::shared_array<double, upc::dynamic_block> u(static_cast<std::size_t>(R * C), upc::block(block));
  upc::shared_array<double, upc::dynamic_block> v(static_cast<std::size_t>(R * C), upc::block(block));
  // sloc classroom/stencil2d/naive decl end

  // sloc classroom/stencil2d/naive comp begin
  upc_forall (std::int64_t i = 0; i < R * C; i++, &u[i]) {
    u[i] = stencil2d::initial_value(i / C, i % C);
    v[i] = stencil2d::initial_value(i / C, i % C);  // the frame never changes, in either grid
  }
  // sloc classroom/stencil2d/naive comp end
  // sloc classroom/stencil2d/naive comm begin
  upc_barrier;
  // sloc classroom/stencil2d/naive comm end

  classroom::stopwatch clock;
  for (std::int64_t it = 0; it < opt.iterations; ++it) {
    // sloc classroom/stencil2d/naive comp begin
    const auto& src = it % 2 == 0 ? u : v;
    const auto& dst = it % 2 == 0 ? v : u;
    upc_forall (std::int64_t r = 1; r < R - 1; r++, &dst[r * C])
      for (std::int64_t c = 1; c < C - 1; ++c)
        dst[r * C + c] = stencil2d::update(src[(r - 1) * C + c], src[(r + 1) * C + c], src[r * C + c - 1], src[r * C + c + 1]);
    // sloc classroom/stencil2d/naive comp end
    // sloc classroom/stencil2d/naive comm begin
    upc_barrier;  // every new value is written before anyone reads it
    // sloc classroom/stencil2d/naive comm end
  }
  return classroom::on_thread0(clock, [&](double seconds) {
    return stencil2d::check("naive", opt, stencil2d::collect(opt.iterations % 2 == 0 ? u : v, opt), seconds);
  });
}

}  // namespace

int main(int argc, char** argv) { return classroom::stage_main(stencil2d::code, "naive", run, argc, argv); }
