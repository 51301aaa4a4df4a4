// The full conformance matrix of the standard collectives: every case of
// coll_harness.hpp at every THREADS count, for every algorithm and both
// backends (the default suite runs all of it only up to THREADS 4 and samples
// above). THREADS 1 to 8 are suite 'full' (CI), THREADS 16 (eight threads a
// core on CI's two) suite 'long', as together they take most of an hour:
//
//     meson test -C build --setup all --suite full
//     meson test -C build --setup long --suite long
//
// or ./build/tests/conformance/conformance_full_tests -tc='*broadcast*' for one
// collective.
#include "coll_harness.hpp"

using namespace conf;
using coll_model::movement;

namespace {
constexpr int up_to_8[] = {1, 2, 3, 4, 5, 7, 8};
constexpr int at_16[] = {16};
}  // namespace

TEST_CASE("full conformance: upc_all_broadcast") { run_movement_matrix(movement::broadcast, level::full, up_to_8); }
TEST_CASE("full conformance: upc_all_scatter") { run_movement_matrix(movement::scatter, level::full, up_to_8); }
TEST_CASE("full conformance: upc_all_gather") { run_movement_matrix(movement::gather, level::full, up_to_8); }
TEST_CASE("full conformance: upc_all_gather_all") { run_movement_matrix(movement::gather_all, level::full, up_to_8); }
TEST_CASE("full conformance: upc_all_exchange") { run_movement_matrix(movement::exchange, level::full, up_to_8); }
TEST_CASE("full conformance: upc_all_permute") { run_movement_matrix(movement::permute, level::full, up_to_8); }
TEST_CASE("full conformance: upc_all_reduceT") { run_reduce_matrix(false, level::full, up_to_8); }
TEST_CASE("full conformance: upc_all_prefix_reduceT") { run_reduce_matrix(true, level::full, up_to_8); }
TEST_CASE("full conformance: upc_all_sort") { run_sort_matrix(level::full, up_to_8); }

TEST_CASE("full conformance at THREADS 16: upc_all_broadcast") { run_movement_matrix(movement::broadcast, level::full, at_16); }
TEST_CASE("full conformance at THREADS 16: upc_all_scatter") { run_movement_matrix(movement::scatter, level::full, at_16); }
TEST_CASE("full conformance at THREADS 16: upc_all_gather") { run_movement_matrix(movement::gather, level::full, at_16); }
TEST_CASE("full conformance at THREADS 16: upc_all_gather_all") { run_movement_matrix(movement::gather_all, level::full, at_16); }
TEST_CASE("full conformance at THREADS 16: upc_all_exchange") { run_movement_matrix(movement::exchange, level::full, at_16); }
TEST_CASE("full conformance at THREADS 16: upc_all_permute") { run_movement_matrix(movement::permute, level::full, at_16); }
TEST_CASE("full conformance at THREADS 16: upc_all_reduceT") { run_reduce_matrix(false, level::full, at_16); }
TEST_CASE("full conformance at THREADS 16: upc_all_prefix_reduceT") { run_reduce_matrix(true, level::full, at_16); }
TEST_CASE("full conformance at THREADS 16: upc_all_sort") { run_sort_matrix(level::full, at_16); }
