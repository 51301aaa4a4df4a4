// LinReg (seed 003 §4.3, after Phoenix's linear regression): the line
// y = slope*x + intercept that fits a list of double-precision point pairs best
// (least squares), with UPC-MR. The map turns a point into six pairs (key:
// which sum, value: the point's term: 1, x, y, x*x, y*y, x*y), or,
// array-based, adds up this thread's block of points and emits the six sums;
// the reduce adds the terms of each key. The points are generated so that
// every sum is exact (mr_inputs.hpp), so the answer is the same bits on every
// thread count, distribution and backend, and is checked for equality against
// the sums computed sequentially.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "mr_answer.hpp"
#include "mr_app.hpp"
#include "mr_inputs.hpp"
#include "upc.h"
#include "upc_mr.h"

namespace {

using mrapp::point;

enum sum_key { N, SX, SY, SXX, SYY, SXY, sums };

mrapp::options opt;
std::vector<point> g_points;  // made before the threads start
std::vector<double> g_sums;   // their sums, computed sequentially

struct point_list {
  const point* points;
  long long count;
};

// sloc mapreduce/linreg comp begin
// Element-by-element map: one point gives its term of each sum.
int linreg_map(void* input, void* key, void* value) {
  const point* p = static_cast<const point*>(input);
  const double term[sums] = {1.0, p->x, p->y, p->x * p->x, p->y * p->y, p->x * p->y};
  for (int k = 0; k < sums; ++k) upc_mr_emit(key, value, &k, sizeof k, &term[k], sizeof(double));
  return 0;
}

// Array-based map: the sums of this thread's block of points.
int linreg_map_array(void* input, void* key, void* value) {
  const point_list* list = static_cast<const point_list*>(input);
  double s[sums] = {0, 0, 0, 0, 0, 0};
  const long long first = MYTHREAD * list->count / THREADS, last = (MYTHREAD + 1) * list->count / THREADS;
  for (long long i = first; i < last; ++i) {
    const point& p = list->points[i];
    s[N] += 1.0, s[SX] += p.x, s[SY] += p.y, s[SXX] += p.x * p.x, s[SYY] += p.y * p.y, s[SXY] += p.x * p.y;
  }
  for (int k = 0; k < sums; ++k) upc_mr_emit(key, value, &k, sizeof k, &s[k], sizeof(double));
  return 0;
}

// Reduce: each sum is the sum of its key's values.
int linreg_reduce(void* keys, void* values, int nelems, void* result) {
  double* s = static_cast<double*>(std::calloc(sums, sizeof(double)));
  if (s == nullptr) return -1;
  for (int i = 0; i < nelems; ++i) s[static_cast<int*>(keys)[i]] += static_cast<double*>(values)[i];
  *static_cast<void**>(result) = s;
  return 0;
}

// The least-squares line from the sums.
void fit(const double* s, double& slope, double& intercept) {
  slope = (s[N] * s[SXY] - s[SX] * s[SY]) / (s[N] * s[SXX] - s[SX] * s[SX]);
  intercept = (s[SY] - slope * s[SX]) / s[N];
}
// sloc mapreduce/linreg comp end

std::vector<double> sums_of(const std::vector<int>& which) {
  std::vector<double> s(sums, 0.0);
  for (int i : which) {
    const point& p = g_points[static_cast<std::size_t>(i)];
    s[N] += 1.0, s[SX] += p.x, s[SY] += p.y, s[SXX] += p.x * p.x, s[SYY] += p.y * p.y, s[SXY] += p.x * p.y;
  }
  return s;
}

bool same(const double* got, const std::vector<double>& want, const char* what) {
  static const char* const names[] = {"n", "sum x", "sum y", "sum x*x", "sum y*y", "sum x*y"};
  if (got == nullptr) {
    std::printf("linreg: thread %d: no sums (%s)\n", MYTHREAD, what);
    return false;
  }
  for (int k = 0; k < sums; ++k)
    if (got[k] != want[static_cast<std::size_t>(k)]) {
      std::printf("linreg: thread %d: %s %s is %.17g, expected %.17g\n", MYTHREAD, what, names[k], got[k],
                  want[static_cast<std::size_t>(k)]);
      return false;
    }
  return true;
}

int linreg() {
  const int n = static_cast<int>(opt.size);
  // sloc mapreduce/linreg decl begin
  std::vector<void*> elements(static_cast<std::size_t>(n));  // the input list: a pointer per point
  for (int i = 0; i < n; ++i) elements[static_cast<std::size_t>(i)] = &g_points[static_cast<std::size_t>(i)];
  std::vector<int> weights = mrapp::weights_with_threshold(opt, std::vector<int>(static_cast<std::size_t>(n), 1));
  point_list whole{g_points.data(), n};
  // sloc mapreduce/linreg decl end

  upc_barrier;
  const double start = mrapp::now_s();
  // sloc mapreduce/linreg comp begin
  const int pairs = opt.array_map() ? ApplyMap(linreg_map_array, &whole, n, UPC_MR_USER_DISTR, 0, nullptr)
                                    : ApplyMap(linreg_map, elements.data(), n, UPC_MR_FRAMEWORK_DISTR, opt.algorithm(),
                                               mrapp::weights_for(opt, weights));
  // sloc mapreduce/linreg comp end
  // sloc mapreduce/linreg comm begin
  double* s = static_cast<double*>(ApplyReduce(linreg_reduce, pairs, opt.gath_flag(), opt.coll_flag(), sizeof(int), sizeof(double)));
  // sloc mapreduce/linreg comm end
  // sloc mapreduce/linreg comp begin
  double slope = 0, intercept = 0;
  if (s != nullptr) fit(s, slope, intercept);
  // sloc mapreduce/linreg comp end
  upc_barrier;
  const double seconds = mrapp::now_s() - start;

  bool ok = true;
  const int g = opt.gath_flag();
  if (g == UPC_MR_NOCOMM) {
    ok = same(s, sums_of(mrapp::my_elements(opt, n, weights)), "portion:");
  } else if (g == UPC_MR_ALLCOMM || g == MYTHREAD) {
    ok = same(s, g_sums, "");
    double want_slope, want_intercept;
    fit(g_sums.data(), want_slope, want_intercept);
    if (ok && (slope != want_slope || intercept != want_intercept)) {
      std::printf("linreg: thread %d: y = %.17g x + %.17g, expected %.17g x + %.17g\n", MYTHREAD, slope, intercept, want_slope,
                  want_intercept);
      ok = false;
    }
    if (MYTHREAD == g || (g == UPC_MR_ALLCOMM && MYTHREAD == 0))
      std::printf("linreg: y = %.6f x + %.6f from %lld points\n", slope, intercept, static_cast<long long>(n));
  } else {
    ok = s == nullptr;
  }
  const bool verified = mrapp::everyone(ok);
  bench::record extra;
  if (g == UPC_MR_ALLCOMM || g == 0) extra = {{"slope", slope}, {"intercept", intercept}};
  if (s && mrapp::prints_answer(opt)) extra.push_back({"answer", mrapp::digest_of_sums(s, sums)});
  std::free(s);
  return mrapp::report("linreg", opt, seconds, verified, pairs, extra);
}

}  // namespace

int main(int argc, char** argv) {
  opt.size = 100000;
  bench::cli cli("linreg", "UPC-MR LinReg (seed 003 §4.3): the least-squares line through generated point pairs");
  cli.add_int("size", "points", &opt.size, 1);
  if (auto status = mrapp::parse(cli, opt, argc, argv, "linreg", mrapp::max_exact_points)) return *status;
  g_points = mrapp::make_points(opt.size, static_cast<std::uint64_t>(opt.seed));
  g_sums = sums_of(mrapp::every_element(opt.size));
  // pairs: 6 per point of 12 bytes (element map), or 6 per thread
  const std::uint64_t pair_bytes = opt.array_map() ? 4096 : static_cast<std::uint64_t>(opt.size) * 6 * 20;
  return apps::launch("linreg", mrapp::heap_for(pair_bytes), linreg);
}
