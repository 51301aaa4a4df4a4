// The full conformance matrix of the standard collectives: every case of
// coll_harness.hpp at every THREADS count, for every algorithm and both
// backends (the default suite runs all of it only up to THREADS 4 and samples
// above). Opt-in, as it takes minutes:
//
//     meson test -C build --suite full
//
// or ./build/tests/conformance/conformance_full_tests -tc='*broadcast*' for one
// collective.
#include "coll_harness.hpp"

using namespace conf;
using coll_model::movement;

TEST_CASE("full conformance: upc_all_broadcast") { run_movement_matrix(movement::broadcast, level::full); }
TEST_CASE("full conformance: upc_all_scatter") { run_movement_matrix(movement::scatter, level::full); }
TEST_CASE("full conformance: upc_all_gather") { run_movement_matrix(movement::gather, level::full); }
TEST_CASE("full conformance: upc_all_gather_all") { run_movement_matrix(movement::gather_all, level::full); }
TEST_CASE("full conformance: upc_all_exchange") { run_movement_matrix(movement::exchange, level::full); }
TEST_CASE("full conformance: upc_all_permute") { run_movement_matrix(movement::permute, level::full); }
TEST_CASE("full conformance: upc_all_reduceT") { run_reduce_matrix(false, level::full); }
TEST_CASE("full conformance: upc_all_prefix_reduceT") { run_reduce_matrix(true, level::full); }
TEST_CASE("full conformance: upc_all_sort") { run_sort_matrix(level::full); }
