#include "line_fft.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <new>

namespace ft {

namespace {

// FFTW's planner is not thread-safe (only fftw_execute is): on the threads
// backend the UPC threads of one process plan one at a time. Each process of
// the processes backend has its own FFTW and its own copy of this mutex.
std::mutex& planner_lock() {
  static std::mutex m;
  return m;
}

// NPB's forward transform (is = 1 in cfftz) multiplies by exp(+2 pi i jk/n):
// FFTW's "backward" sign. Its inverse is FFTW's forward. Neither is scaled.
int fftw_sign(int npb_direction) { return npb_direction > 0 ? FFTW_BACKWARD : FFTW_FORWARD; }

fftw_complex* as_fftw(cplx* p) { return reinterpret_cast<fftw_complex*>(p); }

}  // namespace

line_ffts::line_ffts(int nx, int ny, int nz) : nx_(nx), ny_(ny), nz_(nz) {
  const int longest = std::max({nx, ny, nz});
  std::lock_guard<std::mutex> hold(planner_lock());
  scratch_ = static_cast<cplx*>(fftw_malloc(sizeof(cplx) * static_cast<std::size_t>(batch) * longest));
  if (!scratch_) throw std::bad_alloc();
  fftw_complex* s = as_fftw(scratch_);
  // batch lines one after the other (x and z lines are contiguous in the arrays)
  auto contiguous_plan = [&](int n, int direction) {
    return fftw_plan_many_dft(1, &n, batch, s, nullptr, 1, n, s, nullptr, 1, n, fftw_sign(direction), FFTW_ESTIMATE);
  };
  // batch y lines interleaved, as NPB's y1[j][i] block: element j of line i at j*batch + i
  auto interleaved_plan = [&](int n, int direction) {
    return fftw_plan_many_dft(1, &n, batch, s, nullptr, batch, 1, s, nullptr, batch, 1, fftw_sign(direction),
                              FFTW_ESTIMATE);
  };
  x_ = {contiguous_plan(nx, +1), contiguous_plan(nx, -1)};
  y_ = {interleaved_plan(ny, +1), interleaved_plan(ny, -1)};
  z_ = {contiguous_plan(nz, +1), contiguous_plan(nz, -1)};
  for (fftw_plan p : {x_.forward, x_.inverse, y_.forward, y_.inverse, z_.forward, z_.inverse})
    if (!p) throw std::bad_alloc();
}

line_ffts::~line_ffts() {
  std::lock_guard<std::mutex> hold(planner_lock());
  for (fftw_plan p : {x_.forward, x_.inverse, y_.forward, y_.inverse, z_.forward, z_.inverse}) fftw_destroy_plan(p);
  fftw_free(scratch_);
}

// count lines of n, one after the other; in place when the array has the
// scratch's alignment (the plan is the same either way), else through it.
void line_ffts::contiguous(fftw_plan plan, int n, cplx* lines, long count) {
  const bool same_alignment =
      fftw_alignment_of(reinterpret_cast<double*>(lines)) == fftw_alignment_of(reinterpret_cast<double*>(scratch_));
  const std::size_t block = static_cast<std::size_t>(batch) * n;
  for (long first = 0; first < count; first += batch) {
    cplx* at = lines + first * n;
    if (same_alignment) {
      fftw_execute_dft(plan, as_fftw(at), as_fftw(at));
    } else {
      std::memcpy(static_cast<void*>(scratch_), at, block * sizeof(cplx));
      fftw_execute_dft(plan, as_fftw(scratch_), as_fftw(scratch_));
      std::memcpy(static_cast<void*>(at), scratch_, block * sizeof(cplx));
    }
  }
}

// The y lines of one plane [ny][nx], batch columns at a time.
void line_ffts::strided_y(int direction, cplx* plane) {
  const fftw_plan plan = y_.of(direction);
  for (int x0 = 0; x0 < nx_; x0 += batch) {
    for (int y = 0; y < ny_; ++y)
      std::memcpy(static_cast<void*>(scratch_ + y * batch), plane + static_cast<long>(y) * nx_ + x0,
                  batch * sizeof(cplx));
    fftw_execute_dft(plan, as_fftw(scratch_), as_fftw(scratch_));
    for (int y = 0; y < ny_; ++y)
      std::memcpy(static_cast<void*>(plane + static_cast<long>(y) * nx_ + x0), scratch_ + y * batch,
                  batch * sizeof(cplx));
  }
}

void line_ffts::planes_xy(int direction, cplx* planes, long count) {
  const fftw_plan x_dir = x_.of(direction);
  for (long k = 0; k < count; ++k) {
    cplx* plane = planes + k * static_cast<long>(nx_) * ny_;
    if (direction > 0) {
      contiguous(x_dir, nx_, plane, ny_);
      strided_y(direction, plane);
    } else {
      strided_y(direction, plane);
      contiguous(x_dir, nx_, plane, ny_);
    }
  }
}

void line_ffts::lines_z(int direction, cplx* lines, long count) { contiguous(z_.of(direction), nz_, lines, count); }

}  // namespace ft
