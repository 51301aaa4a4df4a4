// <upccoll.h> (seed 000 §3): the paper's constants and the error codes' names;
// every call before upccoll_initialize (and after upccoll_finalize) returns
// UPCCOLL_ERROR_UNINITIALIZED; upccoll_initialize takes its options out of argv.
// The other test_upccoll_*.cpp files test the rest of the API beyond the data
// matrix of tests/conformance/test_upccoll.cpp.
#include <cstddef>
#include <string>

#include "upccoll_api_support.hpp"

using namespace uconf;
using namespace upccoll_api_test;
namespace M = upccoll_model;
using M::collective;

TEST_CASE("upccoll.h: the paper's constants and the error codes' names") {
  CHECK(UPC_TEAM_ALL == nullptr);
  CHECK(UPCCOLL_INVALID_HANDLE == 0);
  CHECK(UPC_ASYNC_FENCE == (1 << 6));
  CHECK(UPC_PREDEFINED_OPS == 11);
  CHECK(UPCCOLL_USER_OP_BASE > UPC_MAXLOC);
  const char* names[] = {"UPCCOLL_SUCCESS",        "UPCCOLL_ERROR",          "UPCCOLL_ERROR_TEAM",
                         "UPCCOLL_ERROR_SIZE",     "UPCCOLL_ERROR_RANK",     "UPCCOLL_ERROR_HANDLE",
                         "UPCCOLL_ERROR_SENDBUF",  "UPCCOLL_ERROR_RECVBUF",  "UPCCOLL_ERROR_COUNT",
                         "UPCCOLL_ERROR_DATATYPE", "UPCCOLL_ERROR_UPC_OP",   "UPCCOLL_ERROR_FLAGS",
                         "UPCCOLL_ERROR_ROOT",     "UPCCOLL_ERROR_SENDTYPE", "UPCCOLL_ERROR_RECVTYPE",
                         "UPCCOLL_ERROR_SENDCNTS", "UPCCOLL_ERROR_RECVCNTS", "UPCCOLL_ERROR_SDISPLS",
                         "UPCCOLL_ERROR_RDISPLS",  "UPCCOLL_ERROR_MALLOC",   "UPCCOLL_ERROR_UNINITIALIZED"};
  CHECK(UPCCOLL_ERROR_UNINITIALIZED == 20);
  for (int code = 0; code <= 20; ++code) {
    const char* got = upccoll_error_name(static_cast<upccoll_return_t>(code));
    INFO("code ", code);
    REQUIRE(got != nullptr);
    CHECK(std::string(got) == names[code]);
  }
}

TEST_CASE("before upccoll_initialize every call returns UPCCOLL_ERROR_UNINITIALIZED; after it they work") {
  everywhere(
      [] {
        upc::sptr<void> s = mine(64), r = mine(64 * THREADS);
        int x = -1;
        size_t sz = 0;
        upccoll_team_t nt = sentinel_team;
        upccoll_op_t op = 0;
        UC_EXPECT(upccoll_team_rank(UPC_TEAM_ALL, &x), UPCCOLL_ERROR_UNINITIALIZED);
        UC_EXPECT(upccoll_team_size(UPC_TEAM_ALL, &x), UPCCOLL_ERROR_UNINITIALIZED);
        UC_EXPECT(upccoll_team_split(UPC_TEAM_ALL, 0, MYTHREAD, &nt), UPCCOLL_ERROR_UNINITIALIZED);
        SPMD_CHECK(nt == sentinel_team);
        UC_EXPECT(upccoll_barrier(UPC_TEAM_ALL, 0, nullptr), UPCCOLL_ERROR_UNINITIALIZED);
        UC_EXPECT(upccoll_bcast(s, 4, UPC_INT, r, 4, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_ERROR_UNINITIALIZED);
        UC_EXPECT(upccoll_allreduce(s, r, 4, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_ERROR_UNINITIALIZED);
        UC_EXPECT(upccoll_alltoall(s, 1, UPC_INT, r, 1, UPC_INT, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_ERROR_UNINITIALIZED);
        UC_EXPECT(upccoll_scan(s, r, 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_ERROR_UNINITIALIZED);
        UC_EXPECT(upccoll_op_create(&double_sum, 1, &op), UPCCOLL_ERROR_UNINITIALIZED);
        UC_EXPECT(upccoll_op_free(UPCCOLL_USER_OP_BASE), UPCCOLL_ERROR_UNINITIALIZED);
        UC_OK(upccoll_initialize(nullptr, nullptr));
        UC_OK(upccoll_team_rank(UPC_TEAM_ALL, &x));
        SPMD_CHECK_EQ(x, MYTHREAD);
        UC_OK(upccoll_type_size(UPC_INT, &sz));
        SPMD_CHECK_EQ(sz, sizeof(int));
        UC_OK(upccoll_barrier(UPC_TEAM_ALL, 0, nullptr));
        team_still_works();
        UC_OK(upccoll_finalize());
        // and after upccoll_finalize (docs/teams-and-collectives-2.md, Errors)
        UC_EXPECT(upccoll_barrier(UPC_TEAM_ALL, 0, nullptr), UPCCOLL_ERROR_UNINITIALIZED);
        UC_EXPECT(upccoll_team_rank(UPC_TEAM_ALL, &x), UPCCOLL_ERROR_UNINITIALIZED);
        UC_EXPECT(upccoll_allreduce(s, r, 4, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_ERROR_UNINITIALIZED);
        upc_barrier;
        upc_free(r);
        upc_free(s);
      },
      {1, 2, 3, 5});
}

TEST_CASE("upccoll_type_size (a call like any other) is UPCCOLL_ERROR_UNINITIALIZED before upccoll_initialize") {
  everywhere(
      [] {
        std::size_t sz = 0;
        UC_EXPECT(upccoll_type_size(UPC_INT, &sz), UPCCOLL_ERROR_UNINITIALIZED);
        UC_OK(upccoll_initialize(nullptr, nullptr));
        UC_OK(upccoll_finalize());
      },
      {1, 2});
}

TEST_CASE("upccoll_initialize removes --upccoll-progress options from argv and keeps the rest in order") {
  for (const char* mode : {"inline", "thread"})
    for (upc::backend_kind b : spmd::backends)
      run_ok(3, b, [mode] {
        const std::string opt = std::string("--upccoll-progress=") + mode;
        std::string a0 = "prog", a1 = opt, a2 = "-x", a3 = "--upccoll-progress=inline", a4 = "y";
        char* argv_store[] = {a0.data(), a1.data(), a2.data(), a3.data(), a4.data(), nullptr};
        char** argv = argv_store;
        int argc = 5;
        UC_OK(upccoll_initialize(&argc, &argv));
        SPMD_CHECK_EQ(argc, 3);
        SPMD_CHECK_EQ(std::string(argv[0]), std::string("prog"));
        SPMD_CHECK_EQ(std::string(argv[1]), std::string("-x"));
        SPMD_CHECK_EQ(std::string(argv[2]), std::string("y"));
        // it works in that mode, non-blocking included
        upc::sptr<void> s = mine(8), r = mine(8);
        *L<long>(s) = MYTHREAD;
        upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
        UC_OK(upccoll_allreduce(s, r, 1, UPC_LONG, UPC_ADD, UPC_TEAM_ALL, 0, &h));
        UC_OK(upccoll_wait_status(h));
        SPMD_CHECK_EQ(*L<long>(r), 3L);
        UC_OK(upccoll_finalize());
        upc_free(r);
        upc_free(s);
      });
}
