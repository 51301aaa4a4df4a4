// upc_poll (issue 8, friction: missing name). upcemu has no progress to make;
// upc_poll stops the calling thread when the run is being stopped, so a loop that
// never otherwise calls the runtime ends with the run instead of running on.
#include <atomic>
#include <chrono>

#include "../support/spmd.hpp"

namespace {
std::atomic<int> g_polls_outlived_run{0};
}  // namespace

TEST_CASE("upc_poll returns at once in a healthy run, on both backends") {
  spmd::run_everywhere(
      [] {
        for (int i = 0; i < 1000; ++i) upc_poll();
        upc_barrier;
        upc_poll();
      },
      {1, 3});
}

TEST_CASE("upc_poll stops a computing thread when another thread fails (threads backend)") {
  // Without the abort check, the pollers would loop until their deadline and
  // return normally, which the counter records.
  if (spmd::skip_run(4, upc::backend_kind::threads)) return;
  g_polls_outlived_run = 0;  // under mpi, each rank counts its own thread
  upc::launch_options o = spmd::options(4, upc::backend_kind::threads);
  const upc::run_result r = upc::run(o, [] {
    if (MYTHREAD == 0) throw std::runtime_error("thread 0 gives up");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) upc_poll();
    ++g_polls_outlived_run;
  });
  INFO("error: ", r.error);
  CHECK(r.failed);
  CHECK(r.failed_thread == 0);
  CHECK(r.error.find("thread 0 gives up") != std::string::npos);
  CHECK(g_polls_outlived_run.load() == 0);
}

TEST_CASE("upc_poll stops a computing thread after upc_global_exit (threads backend)") {
  if (spmd::skip_single_run(3)) return;
  g_polls_outlived_run = 0;
  upc::launch_options o = spmd::options(3, upc::backend_kind::threads);
  const upc::run_result r = upc::run(o, [] {
    if (MYTHREAD == 2) upc_global_exit(7);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) upc_poll();
    ++g_polls_outlived_run;
  });
  CHECK(r.exit_code == 7);
  CHECK(g_polls_outlived_run.load() == 0);
}

TEST_CASE("upc_poll outside a UPC thread is a clear error") {
  const std::string e = spmd::error_of([] { upc_poll(); });
  CHECK(e.find("MYTHREAD") != std::string::npos);
}
