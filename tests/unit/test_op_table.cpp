// The one table of upc_op_t values (lib/runtime/op_names.hpp) against the
// specifications, written out here independently: each bit's name, the
// engine's operation it computes on elements, and which libraries take
// it (UPC 1.3 §7.3.1 and §7.4 for the collectives and atomics, the UPC
// Collectives 2.0 paper for <upccoll.h>, with this project's UPC_LOGXOR); and
// what a library that refuses an op says.
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "../../lib/api/collective_checks.hpp"
#include "../../lib/api/upccoll_types.hpp"
#include "../../lib/runtime/op_names.hpp"
#include "../support/spmd.hpp"
#include "upc_collective.h"

namespace {

using upc::coll::elem_op;
namespace lib = upc::detail::op_library;

struct expected_op {
  upc_op_t bit;
  const char* name;
  std::optional<elem_op> element;  // what it computes on elements (none: an atomic access)
  bool collectives;                // taken by the UPC collectives (UPC 1.3 §7.3.1)
  bool upccoll;                    // a predefined op of <upccoll.h>
  bool atomics;                    // an atomic operation (UPC 1.3 §7.4.2)
};

const expected_op spec[] = {
    {UPC_ADD, "UPC_ADD", elem_op::add, true, true, true},
    {UPC_MULT, "UPC_MULT", elem_op::mult, true, true, true},
    {UPC_AND, "UPC_AND", elem_op::bit_and, true, true, true},
    {UPC_OR, "UPC_OR", elem_op::bit_or, true, true, true},
    {UPC_XOR, "UPC_XOR", elem_op::bit_xor, true, true, true},
    {UPC_LOGAND, "UPC_LOGAND", elem_op::log_and, true, true, false},
    {UPC_LOGOR, "UPC_LOGOR", elem_op::log_or, true, true, false},
    {UPC_MIN, "UPC_MIN", elem_op::min, true, true, true},
    {UPC_MAX, "UPC_MAX", elem_op::max, true, true, true},
    {UPC_FUNC, "UPC_FUNC", elem_op::value_function, true, false, false},
    {UPC_NONCOMM_FUNC, "UPC_NONCOMM_FUNC", elem_op::value_function, true, false, false},
    {UPC_MINLOC, "UPC_MINLOC", elem_op::minloc, false, true, false},
    {UPC_MAXLOC, "UPC_MAXLOC", elem_op::maxloc, false, true, false},
    {UPC_GET, "UPC_GET", std::nullopt, false, false, true},
    {UPC_SET, "UPC_SET", std::nullopt, false, false, true},
    {UPC_CSWAP, "UPC_CSWAP", std::nullopt, false, false, true},
    {UPC_SUB, "UPC_SUB", std::nullopt, false, false, true},
    {UPC_INC, "UPC_INC", std::nullopt, false, false, true},
    {UPC_DEC, "UPC_DEC", std::nullopt, false, false, true},
    {UPC_LOGXOR, "UPC_LOGXOR", elem_op::log_xor, false, true, false},
};

// What a library that takes the op computes (none where it does not take it).
std::optional<elem_op> computed_by(const expected_op& e, bool takes) { return takes ? e.element : std::nullopt; }

}  // namespace

TEST_CASE("op table: every upc_op_t bit once, with its name, engine op and libraries as the specifications give") {
  REQUIRE(upc::detail::upc_op_count == sizeof spec / sizeof spec[0]);
  for (const expected_op& e : spec) {
    INFO(std::string(e.name));
    const upc::detail::upc_op_row* row = upc::detail::find_op(e.bit);
    REQUIRE(row != nullptr);
    CHECK(std::string(row->name) == e.name);
    CHECK(std::string(upc::detail::op_name(e.bit)) == e.name);
    CHECK(row->accepted_by(lib::upc_collectives) == e.collectives);
    CHECK(row->accepted_by(lib::upccoll) == e.upccoll);
    CHECK(row->accepted_by(lib::atomics) == e.atomics);
    CHECK(upc::coll::element_op_for(e.bit, lib::upc_collectives) == computed_by(e, e.collectives));
    CHECK(upc::coll::element_op_for(e.bit, lib::upccoll) == computed_by(e, e.upccoll));
    CHECK(upc::coll::element_op_for(e.bit, lib::atomics) == computed_by(e, e.atomics));
    if (e.collectives) CHECK(upc::coll::element_op_of(e.bit) == *e.element);
    CHECK(upc::coll::upccoll_types::predefined(e.bit) == computed_by(e, e.upccoll));
    const char* upccoll_name = upc::coll::upccoll_types::op_name(e.bit);
    CHECK((e.upccoll ? std::string(upccoll_name ? upccoll_name : "(null)") == e.name : upccoll_name == nullptr));
  }
  // not exactly one known bit
  for (upc_op_t v : {upc_op_t{0}, upc_op_t{UPC_ADD | UPC_MULT}, upc_op_t{1} << 20, upc_op_t{1} << 40}) {
    INFO(v);
    CHECK(upc::detail::find_op(v) == nullptr);
    CHECK(upc::detail::op_name(v) == nullptr);
    CHECK(upc::coll::upccoll_types::op_name(v) == nullptr);
    CHECK_FALSE(upc::coll::element_op_for(v, lib::upc_collectives | lib::upccoll | lib::atomics).has_value());
  }
}

TEST_CASE("op table: a UPC collective refuses an op it does not take by listing those it takes, in bit order") {
  const std::string list =
      "is not one of UPC_ADD, UPC_MULT, UPC_AND, UPC_OR, UPC_XOR, UPC_LOGAND, UPC_LOGOR, UPC_MIN, UPC_MAX, UPC_FUNC, "
      "UPC_NONCOMM_FUNC";
  for (upc_op_t op : {upc_op_t{UPC_MINLOC}, upc_op_t{UPC_GET}, upc_op_t{UPC_ADD | UPC_MULT}}) {
    INFO(op);
    const std::string e = spmd::run_failing(2, upc::backend_kind::threads, [op] {
      upc::shared_array<int> src(upc::per_thread(1));
      upc::shared<int> dst;
      upc_all_reduceI(&dst, src, op, THREADS, 1, nullptr, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    });
    if (spmd::skip_run(2, upc::backend_kind::threads)) continue;
    CHECK(spmd::contains(e, "upc_all_reduceI: op " + std::to_string(op) + " " + list));
  }
}
