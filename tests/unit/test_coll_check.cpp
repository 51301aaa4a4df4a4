// --check for collectives: every thread must make the same collective call with
// the same single-valued arguments; the report names the argument and both values.
#include "../support/spmd.hpp"
#include "upc_collective.h"

namespace {
int first_nonzero(int a, int b) { return a != 0 ? a : b; }

std::string run_checked(upc::backend_kind b, const std::function<void()>& body) {
  upc::launch_options o = spmd::options(3, b);
  o.check = true;
  o.timeout_seconds = 30;
  upc::run_result r = upc::run(o, body);
  INFO("backend=", spmd::name(b), " error: ", r.error);
  CHECK(r.failed);
  return r.error;
}
}  // namespace

TEST_CASE("--check: a collective argument that differs between threads is named with both values") {
  for (upc::backend_kind b : spmd::backends) {
    std::string e = run_checked(b, [] {
      upc::sptr<void> src = upc_all_alloc(THREADS, 64), dst = upc_all_alloc(THREADS, 64);
      upc_all_broadcast(dst, src, MYTHREAD == 2 ? 16 : 8, 0);
    });
    CHECK(spmd::contains(e, "upc_all_broadcast: argument nbytes must be single-valued: thread 0 passed 8, this thread passed 16 (thread 2)"));
  }
}

TEST_CASE("--check: different collectives at the same point are reported") {
  for (upc::backend_kind b : spmd::backends) {
    std::string e = run_checked(b, [] {
      upc::sptr<void> src = upc_all_alloc(THREADS, 64), dst = upc_all_alloc(THREADS, 64);
      if (MYTHREAD == 0) upc_all_scatter(dst, src, 8, 0);
      else upc_all_broadcast(dst, src, 8, 0);
    });
    CHECK(spmd::contains(e, "thread 0 called scatter at this point: every thread must make the same collective calls"));
  }
}

TEST_CASE("--check: upc_all_reduceI on one thread and upc_all_reduceF on another are told apart") {
  std::string e = run_checked(upc::backend_kind::threads, [] {
    upc::sptr<void> src = upc_all_alloc(THREADS, 16), dst = upc_all_alloc(1, 16);
    if (MYTHREAD == 1) upc_all_reduceF(dst, src, UPC_ADD, THREADS, 1, nullptr, 0);
    else upc_all_reduceI(dst, src, UPC_ADD, THREADS, 1, nullptr, 0);
  });
  CHECK(spmd::contains(e, "argument element type (the T of upc_all_reduceT) must be single-valued"));
}

TEST_CASE("--check: a different user function is reported; the same one passes") {
  std::string e = run_checked(upc::backend_kind::threads, [] {
    upc::sptr<void> src = upc_all_alloc(THREADS, 16), dst = upc_all_alloc(1, 16);
    auto other = [](int a, int b) { return a + b; };
    upc_all_reduceI(dst, src, UPC_NONCOMM_FUNC, THREADS, 1, MYTHREAD == 1 ? +other : first_nonzero, 0);
  });
  CHECK(spmd::contains(e, "argument func must be single-valued"));
  upc::launch_options o = spmd::options(3, upc::backend_kind::processes);
  o.check = true;
  upc::run_result ok = upc::run(o, [] {
    upc::shared_array<int> src(upc::per_thread(1));
    upc::shared<int> dst;
    src[MYTHREAD] = MYTHREAD == 0 ? 0 : 10 + MYTHREAD;
    upc_all_reduceI(&dst, src, UPC_NONCOMM_FUNC, THREADS, 1, first_nonzero, 0);
    SPMD_CHECK_EQ(dst.get(), 11);
  });
  INFO(ok.error);
  CHECK(ok.ok());
}
