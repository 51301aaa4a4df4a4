// FT's transpose as seed 004 §4.2 writes it in ZPL, with upcemu's remap
// operator (docs/remap.md): the working arrays are distributed arrays over the
// two layouts' regions, and each transpose is one gather
//   [ZYX] X1 (z-planes)  ->  [YXZ] X2 (y-rows):  X2 := X1#[Index3, Index1, Index2]
//   [YXZ] X2             ->  [ZYX] X1:           X1 := X2#[Index2, Index3, Index1]
// (the regions here are z-y-x and y-x-z, NPB's Fortran layouts in row-major
// order). Both arrays are dead around each transpose, as in NPB, which the
// operator is told (§4.5.4); map saving keeps each direction's schedule, so its
// inspector runs once (in the untimed warm-up).
#include "transpose.hpp"
#include "upc.h"
#include "upc/remap.hpp"

namespace ft {

namespace {

using namespace upc::remap;

class remap_transpose final : public transpose {
 public:
  explicit remap_transpose(const shape& s)
      // sloc ft/remap decl begin
      : ZYX_{{1, s.nz}, {1, s.ny}, {1, s.nx}},
        YXZ_{{1, s.ny}, {1, s.nx}, {1, s.nz}},
        X1_(ZYX_, grid{s.threads, 1, 1}, "X1"),
        X2_(YXZ_, grid{s.threads, 1, 1}, "X2") {
    dead_.dead_source = dead_.dead_destination = true;
    // sloc ft/remap decl end
    my_x1_ = X1_.local();
    my_x2_ = X2_.local();
  }
  ~remap_transpose() override { forget_schedules(); }

  cplx* first() override { return my_x1_; }
  cplx* second() override { return my_x2_; }

  cplx* to_pencils(cplx*, cplx*) override {
    // sloc ft/remap comm begin
    gather(X2_, X1_, {Index3, Index1, Index2}, dead_);
    // sloc ft/remap comm end
    note_inspector();
    return my_x2_;
  }
  cplx* to_slabs(cplx*, cplx*) override {
    // sloc ft/remap comm begin
    gather(X1_, X2_, {Index2, Index3, Index1}, dead_);
    // sloc ft/remap comm end
    note_inspector();
    return my_x1_;
  }
  double inspector_seconds() const override { return inspector_; }

 private:
  void note_inspector() { inspector_ += last_stats().inspector_seconds; }

  // sloc ft/remap decl begin
  region ZYX_, YXZ_;
  darray<cplx> X1_, X2_;
  options dead_;
  // sloc ft/remap decl end
  cplx *my_x1_ = nullptr, *my_x2_ = nullptr;
  double inspector_ = 0;
};

}  // namespace

std::unique_ptr<transpose> make_remap(const shape& s) { return std::make_unique<remap_transpose>(s); }

}  // namespace ft
