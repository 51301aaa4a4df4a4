// LinReg on our MapReduce-over-MPI library (the peer of apps/mapreduce/linreg,
// seed 003 §4.3): one map task per point gives its term of each of the six sums
// (key 0-5: 1, x, y, x*x, y*y, x*y); collate() and reduce() add each key's
// terms; gather(1) puts the sums on rank 0, which fits the line. The same
// generated points as the UPC-MR app, whose sums are exact, so rank 0 checks
// them for equality against the sums taken sequentially.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "../../../apps/mapreduce/mr_answer.hpp"
#include "../../../apps/mapreduce/mr_inputs.hpp"
#include "mapreduce.hpp"
#include "peer_app.hpp"
#include "peer_steps.hpp"

namespace {

constexpr int sums = 6;

void linreg_map(int index, mrmpi::key_value* kv, void* ptr) {
  const mrapp::point& p = static_cast<const mrapp::point*>(ptr)[index];
  const double term[sums] = {1.0, p.x, p.y, p.x * p.x, p.y * p.y, p.x * p.y};
  for (int k = 0; k < sums; ++k) kv->add(&k, sizeof k, &term[k], sizeof(double));
}

void fit(const double* s, double& slope, double& intercept) {
  slope = (s[0] * s[5] - s[1] * s[2]) / (s[0] * s[3] - s[1] * s[1]);
  intercept = (s[2] - slope * s[1]) / s[0];
}

int run(const mrpeer::options& opt) {
  std::vector<mrapp::point> points = mrapp::make_points(opt.size, static_cast<std::uint64_t>(opt.seed));
  mrmpi::mapreduce mr(MPI_COMM_WORLD, opt.page);

  MPI_Barrier(MPI_COMM_WORLD);
  const double start = mrpeer::now_s();
  const std::uint64_t pairs =
      mrpeer::map_collate_reduce_gather(mr, opt.size, linreg_map, points.data(), mrpeer::add_values<double>);
  const std::vector<double> s = mrpeer::values_by_key<double>(mr.kv(), sums);
  double slope = 0, intercept = 0;
  if (mr.rank() == 0) fit(s.data(), slope, intercept);
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = mrpeer::now_s() - start;

  bool ok = true;
  if (mr.rank() == 0) {
    double want[sums] = {0, 0, 0, 0, 0, 0};
    for (const mrapp::point& p : points)
      want[0] += 1.0, want[1] += p.x, want[2] += p.y, want[3] += p.x * p.x, want[4] += p.y * p.y, want[5] += p.x * p.y;
    for (int k = 0; k < sums && ok; ++k)
      if (s[k] != want[k]) {
        std::printf("linreg_mrmpi: sum %d is %.17g, expected %.17g\n", k, s[k], want[k]);
        ok = false;
      }
    std::printf("linreg: y = %.6f x + %.6f from %lld points\n", slope, intercept, static_cast<long long>(opt.size));
  }
  const bool verified = mrpeer::rank0_says(ok);
  return mrpeer::report("linreg", opt, seconds, verified, pairs, mrapp::digest_of_sums(s.data(), sums),
                        {{"slope", slope}, {"intercept", intercept}});
}

}  // namespace

int main(int argc, char** argv) {
  return mrpeer::main_of(argc, argv, "linreg_mrmpi", "LinReg on MapReduce over MPI (the peer of apps/mapreduce/linreg)", "points",
                         100000, mrapp::max_exact_points, run);
}
