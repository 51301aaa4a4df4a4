// The 1-D FFTs of one UPC thread, by FFTW (replacing NPB's Stockham cfftz /
// fftz2). Lines go through in batches of 16, as NPB's fftblock, with one plan
// per dimension and direction made once (FFTW_ESTIMATE: the same plan on every
// thread and in every process, so the same line gives the same bits whatever
// THREADS or the version). Every line is transformed the same way wherever it
// lives, which is what makes the versions' checksums bit-identical.
#pragma once
#include <fftw3.h>

#include "ft_classes.hpp"

namespace ft {

class line_ffts {
 public:
  static constexpr int batch = 16;
  line_ffts(int nx, int ny, int nz);
  ~line_ffts();
  line_ffts(const line_ffts&) = delete;
  line_ffts& operator=(const line_ffts&) = delete;

  // z-planes [planes][ny][nx]: forward (+1) along x then y, inverse (-1)
  // along y then x, in NPB's order.
  void planes_xy(int direction, cplx* planes, long count);
  // z-lines [lines][nz] (the transposed layout [y][x][z]).
  void lines_z(int direction, cplx* lines, long count);

 private:
  struct pair {
    fftw_plan forward = nullptr, inverse = nullptr;
    fftw_plan of(int direction) const { return direction > 0 ? forward : inverse; }
  };
  void contiguous(fftw_plan plan, int n, cplx* lines, long count);
  void strided_y(int direction, cplx* plane);

  int nx_, ny_, nz_;
  cplx* scratch_ = nullptr;  // batch lines of the longest dimension (fftw_malloc: FFTW's alignment)
  pair x_, y_, z_;
};

}  // namespace ft
