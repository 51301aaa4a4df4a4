// The full conformance matrix of the UPC Collectives 2.0 API: every case of
// upccoll_harness.hpp (every count 0..16K+3 bytes × every data type or (type, op)
// of the collective, with sync flags, completions, sub-teams, roots, garbage
// arguments and late threads cycling) at every THREADS count of DESIGN.md §3.3,
// for every registered algorithm and "auto", on both backends. Opt-in, as it
// takes minutes:
//
//     meson test -C build --suite full
//
// or ./build/tests/conformance/conformance_upccoll_full_tests -tc='*alltoallv*' for one.
#include "upccoll_harness.hpp"

using namespace uconf;
using upccoll_model::collective;

namespace {
constexpr std::initializer_list<int> all_threads = {1, 2, 3, 4, 5, 7, 8, 16};
}

TEST_CASE("full conformance: upccoll_barrier") { run_matrix(collective::barrier, level::full, all_threads); }
TEST_CASE("full conformance: upccoll_bcast") { run_matrix(collective::bcast, level::full, all_threads); }
TEST_CASE("full conformance: upccoll_scatter") { run_matrix(collective::scatter, level::full, all_threads); }
TEST_CASE("full conformance: upccoll_scatterv") { run_matrix(collective::scatterv, level::full, all_threads); }
TEST_CASE("full conformance: upccoll_gather") { run_matrix(collective::gather, level::full, all_threads); }
TEST_CASE("full conformance: upccoll_gatherv") { run_matrix(collective::gatherv, level::full, all_threads); }
TEST_CASE("full conformance: upccoll_allgather") { run_matrix(collective::allgather, level::full, all_threads); }
TEST_CASE("full conformance: upccoll_allgatherv") { run_matrix(collective::allgatherv, level::full, all_threads); }
TEST_CASE("full conformance: upccoll_alltoall") { run_matrix(collective::alltoall, level::full, all_threads); }
TEST_CASE("full conformance: upccoll_alltoallv") { run_matrix(collective::alltoallv, level::full, all_threads); }
TEST_CASE("full conformance: upccoll_reduce") { run_matrix(collective::reduce, level::full, all_threads); }
TEST_CASE("full conformance: upccoll_allreduce") { run_matrix(collective::allreduce, level::full, all_threads); }
TEST_CASE("full conformance: upccoll_reduce_scatter") { run_matrix(collective::reduce_scatter, level::full, all_threads); }
TEST_CASE("full conformance: upccoll_scan") { run_matrix(collective::scan, level::full, all_threads); }
TEST_CASE("full conformance: upccoll_scan_inclusive") { run_matrix(collective::scan_inclusive, level::full, all_threads); }
