// The engine's one table of element types × operations (lib/coll/element_ops.hpp),
// checked against the rule it documents, written out here independently, and
// against plain C++ arithmetic for every path it has: typed and unaligned
// combines, folds, scans with and without a prefix, the two function forms.
#include <doctest/doctest.h>

#include <climits>
#include <cstring>
#include <vector>

#include "../../lib/coll/element_ops.hpp"

using namespace upc::coll;

namespace {

// The documented rule, by class.
bool documented(elem_op op, type_class c) {
  const bool integer = c == type_class::integer, real = c == type_class::real;
  switch (op) {
    case elem_op::add:
    case elem_op::mult: return c != type_class::pair;
    case elem_op::bit_and:
    case elem_op::bit_or:
    case elem_op::bit_xor: return integer;
    case elem_op::log_and:
    case elem_op::log_or:
    case elem_op::log_xor:
    case elem_op::min:
    case elem_op::max:
    case elem_op::value_function: return integer || real;
    case elem_op::minloc:
    case elem_op::maxloc: return c == type_class::pair;
    case elem_op::buffer_function: return true;
  }
  return false;
}

int first_of(int a, int) { return a; }
int weighted(int a, int b) { return 2 * a - b; }

// MPI's convention: inout = in op inout, here "in - inout" (not commutative).
void minus(void* in, void* inout, std::size_t n, int type) {
  CHECK(type == 77);
  for (std::size_t i = 0; i < n; ++i) static_cast<int*>(inout)[i] = static_cast<int*>(in)[i] - static_cast<int*>(inout)[i];
}

}  // namespace

TEST_CASE("element ops: which operations apply to which types") {
#define EACH_TYPE(id, T, cls) elem_type::id,
  const elem_type types[] = {UPCEMU_ELEMENT_TYPES(EACH_TYPE)};
#undef EACH_TYPE
#define EACH_OP(id) elem_op::id,
  const elem_op ops[] = {UPCEMU_ELEMENT_OPS(EACH_OP)};
#undef EACH_OP
  int bound = 0;
  for (elem_type t : types)
    for (elem_op op : ops) {
      INFO(info(t).name, " ", name_of(op));
      CHECK(defined(op, t) == documented(op, info(t).cls));
      const int dummy = 0;
      const element_op e = bind(t, op, &dummy, 0);
      CHECK(e.valid() == defined(op, t));
      if (e.valid()) {
        ++bound;
        CHECK(e.size == info(t).size);
      }
    }
  CHECK(bound > 100);
  CHECK(info(elem_type::ldouble_int).size == sizeof(value_index<long double>));
  // A function op without a function is not usable.
  CHECK(!bind(elem_type::s_int, elem_op::value_function).valid());
}

TEST_CASE("element ops: combine, fold and scan agree with plain arithmetic") {
  SUBCASE("integer add wraps, never undefined") {
    int acc[3] = {INT_MAX, -5, 7};
    const int in[3] = {1, 5, -9};
    bind(elem_type::s_int, elem_op::add).combine(acc, in, 3);
    CHECK(acc[0] == INT_MIN);
    CHECK(acc[1] == 0);
    CHECK(acc[2] == -2);
  }
  SUBCASE("unaligned buffers take the byte path and give the same answer") {
    std::vector<char> a(1 + 4 * sizeof(double)), b(1 + 4 * sizeof(double));
    const double x[4] = {1.5, -2.0, 3.25, 1e300}, y[4] = {2.0, 2.0, -1.0, 1e10};
    std::memcpy(a.data() + 1, x, sizeof x);
    std::memcpy(b.data() + 1, y, sizeof y);
    bind(elem_type::r_double, elem_op::mult).combine(a.data() + 1, b.data() + 1, 4);
    double r[4];
    std::memcpy(r, a.data() + 1, sizeof r);
    for (int i = 0; i < 4; ++i) CHECK(r[i] == x[i] * y[i]);
  }
  SUBCASE("fold is a left fold, min and max keep the first of equals") {
    const double v[4] = {3.0, -1.0, 8.0, 0.5};
    double acc = 10.0;
    bind(elem_type::r_double, elem_op::add).fold(&acc, v, 4);
    CHECK(acc == ((((10.0 + 3.0) + -1.0) + 8.0) + 0.5));
    int m = 4;
    const int w[3] = {9, 2, 7};
    bind(elem_type::s_int, elem_op::min).fold(&m, w, 3);
    CHECK(m == 2);
  }
  SUBCASE("value functions see their operands in index order") {
    int acc = 100;
    const int v[3] = {1, 2, 3};
    bind(elem_type::s_int, elem_op::value_function, reinterpret_cast<const void*>(weighted), 0, false).fold(&acc, v, 3);
    CHECK(acc == weighted(weighted(weighted(100, 1), 2), 3));
    int first = 5;
    bind(elem_type::s_int, elem_op::value_function, reinterpret_cast<const void*>(first_of)).fold(&first, v, 3);
    CHECK(first == 5);
  }
  SUBCASE("buffer functions: acc = acc op in through MPI's (in, inout)") {
    int acc[2] = {10, 20};
    const int in[2] = {1, 2};
    bind(elem_type::s_int, elem_op::buffer_function, reinterpret_cast<const void*>(minus), 77).combine(acc, in, 2);
    CHECK(acc[0] == 9);
    CHECK(acc[1] == 18);
    int f = 100;
    const int more[3] = {1, 2, 3};
    bind(elem_type::s_int, elem_op::buffer_function, reinterpret_cast<const void*>(minus), 77).fold(&f, more, 3);
    CHECK(f == ((100 - 1) - 2) - 3);
  }
  SUBCASE("scan: inclusive, with and without a prefix") {
    const long in[4] = {1, 2, 3, 4};
    long out[4];
    const element_op add = bind(elem_type::s_long, elem_op::add);
    add.scan(out, in, 4, nullptr);
    CHECK(out[0] == 1);
    CHECK(out[3] == 10);
    const long prefix = 100;
    add.scan(out, in, 4, &prefix);
    CHECK(out[0] == 101);
    CHECK(out[2] == 106);
    int iout[3];
    const int iin[3] = {5, 6, 7};
    const int ipre = 1;
    bind(elem_type::s_int, elem_op::buffer_function, reinterpret_cast<const void*>(minus), 77).scan(iout, iin, 3, &ipre);
    CHECK(iout[0] == 1 - 5);
    CHECK(iout[1] == 1 - (5 - 6));
    CHECK(iout[2] == 1 - ((5 - 6) - 7));
  }
  SUBCASE("minloc and maxloc: the better value, the lower index on ties") {
    value_index<double> acc[3] = {{1.0, 4}, {2.0, 9}, {5.0, 1}};
    const value_index<double> in[3] = {{0.5, 7}, {2.0, 3}, {5.0, 8}};
    bind(elem_type::double_int, elem_op::minloc).combine(acc, in, 3);
    CHECK(acc[0].value == 0.5);
    CHECK(acc[0].index == 7);
    CHECK(acc[1].index == 3);
    CHECK(acc[2].index == 1);
    value_index<int> m = {3, 5};
    const value_index<int> more[2] = {{3, 2}, {1, 0}};
    bind(elem_type::int_int, elem_op::maxloc).fold(&m, more, 2);
    CHECK(m.value == 3);
    CHECK(m.index == 2);
  }
  SUBCASE("logical ops give 0 or 1, on reals too") {
    double a[3] = {0.0, 2.5, -1.0};
    const double b[3] = {3.0, 0.0, 4.0};
    bind(elem_type::r_double, elem_op::log_xor).combine(a, b, 3);
    CHECK(a[0] == 1.0);
    CHECK(a[1] == 1.0);
    CHECK(a[2] == 0.0);
  }
}
