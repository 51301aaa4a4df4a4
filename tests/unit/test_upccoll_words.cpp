// The engine finds where two members' calls differ and hands back a structured
// difference (field, this member's value, the other's, the other's thread);
// <upccoll.h> words it (lib/api/upccoll_words.cpp). Each field's words, as the
// library has always said them, and the words reaching stderr under --check
// from real disagreements. And the kinds' names: by what they compute, the
// former (upccoll_*) names still accepted.
#include <doctest/doctest.h>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

#include "../../lib/api/upccoll_words.hpp"
#include "../support/capture_stderr.hpp"
#include "../support/spmd.hpp"
#include "upc.h"
#include "upc/coll.hpp"
#include "upccoll.h"

namespace coll = upc::coll;
using field = coll::tasks::difference::field;

namespace {

std::string say(field what, std::uint64_t mine, std::uint64_t theirs, int thread, int receiver = -1) {
  return upccoll_front::words(coll::tasks::failure{coll::status::failed, {what, mine, theirs, thread, receiver}, {}});
}

}  // namespace

TEST_CASE("upccoll words: every field of the engine's difference, in the library's words") {
  CHECK(say(field::failed_call, 0, 0, 3) == "thread 3 failed its call");
  CHECK(say(field::kind, std::uint64_t(coll::collective::member_broadcast), std::uint64_t(coll::collective::member_scatter), 2) ==
        "thread 2 called upccoll_scatter");
  CHECK(say(field::kind, 0, std::uint64_t(coll::collective::member_exclusive_scan), 1) == "thread 1 called upccoll_scan");
  CHECK(say(field::sync_flags, 5, 9, 4) == "the sync flags are 5 on this thread but 9 on thread 4");
  CHECK(say(field::in_place, 1, 0, 3) ==
        "sendbuf is UPCCOLL_IN_PLACE on this thread but is not on thread 3 (every member passes it, or none)");
  CHECK(say(field::in_place, 0, 1, 3) ==
        "sendbuf is not UPCCOLL_IN_PLACE on this thread but is on thread 3 (every member passes it, or none)");
  CHECK(say(field::root, 1, 2, 3) == "root is 1 on this thread but 2 on thread 3");
  CHECK(say(field::type, 4, 7, 0) == "dt is 4 on this thread but 7 on thread 0");
  CHECK(say(field::op, 0, 0, 5) == "op differs between this thread and thread 5");
  CHECK(say(field::block_counts, 0, 0, 5) == "recvcounts differ between this thread and thread 5");
  CHECK(say(field::count, 10, 12, 1) == "count is 10 on this thread but 12 on thread 1");
  CHECK(say(field::block_bytes, 8, 16, 2, 3) == "thread 2 sends 8 bytes to thread 3, which expects 16");
  CHECK(say(field::own_bytes, 8, 16, 2, 2) == "thread 2 sends 8 bytes to itself but receives 16");
  // Anything else: the engine's own words, as they are.
  CHECK(upccoll_front::words(coll::tasks::failure{coll::status::failed, {}, "the members' arguments disagree"}) ==
        "the members' arguments disagree");
}

TEST_CASE("upccoll words: the kinds this library starts have its function names; others none") {
  CHECK(std::string(upccoll_front::function_name(coll::collective::member_gather_allv)) == "upccoll_allgatherv");
  CHECK(std::string(upccoll_front::function_name(coll::collective::member_inclusive_scan)) == "upccoll_scan_inclusive");
  CHECK(upccoll_front::function_name(coll::collective::broadcast) == nullptr);
  for (const coll::kind_info& k : coll::kinds)
    if (coll::is_nonblocking(k.id)) CHECK(upccoll_front::function_name(k.id) != nullptr);
}

TEST_CASE("kind names: the non-blocking kinds are named by what they compute; their former names are still accepted") {
  const std::vector<std::string> names = upc::coll::collectives();
  auto listed = [&](const char* n) { return std::find(names.begin(), names.end(), n) != names.end(); };
  CHECK(std::string(coll::name_of(coll::collective::member_broadcast)) == "ibroadcast");
  CHECK(std::string(coll::name_of(coll::collective::member_exclusive_scan)) == "iscan_exclusive");
  for (const upc::detail::former_name& f : upc::detail::former_collective_names) {
    INFO(f.former);
    CHECK(listed(f.name));
    CHECK(!listed(f.former));
    coll::collective by_former{}, by_name{};
    REQUIRE(coll::parse_collective(f.former, by_former));
    REQUIRE(coll::parse_collective(f.name, by_name));
    CHECK(by_former == by_name);
    // The upccoll function that starts the kind is the name it had.
    CHECK(std::string(upccoll_front::function_name(by_name)) == f.former);
    CHECK(upc::coll::algorithms(f.former) == upc::coll::algorithms(f.name));
    const std::string rule = std::string(f.former) + ":" + upc::coll::algorithms(f.name).front();
    CHECK_NOTHROW(upc::coll::check_rules(rule, "UPCEMU_COLL"));
  }
  // Forcing by the former name forces the kind (a small allreduce is redundant on auto).
  upc::coll::force_algorithm("upccoll_allreduce", "chunked");
  upc::run_result r;
  if (!spmd::skip_run(2, upc::backend_kind::threads)) {
    r = upc::run(spmd::options(2, upc::backend_kind::threads), [] {
      upccoll_initialize(nullptr, nullptr);
      upc::sptr<void> s = upc_alloc(8), d = upc_alloc(8);
      upccoll_allreduce(s, d, 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr);
      if (upc::coll::last_algorithm() != "chunked") upc_global_exit(1);
      upc_free(d);
      upc_free(s);
      upccoll_finalize();
    });
    CHECK(r.ok());
  }
  upc::coll::reset_algorithms();
  CHECK_THROWS(upc::coll::check_rules("upccoll_nothing:pull", "UPCEMU_COLL"));
}

TEST_CASE("upccoll words: members that disagree read the difference in the library's words under --check") {
  if (spmd::skip_run(3, upc::backend_kind::threads)) return;
  upc::launch_options o = spmd::options(3, upc::backend_kind::threads);
  o.check = true;
  o.timeout_seconds = 60;
  upc::run_result r;
  const std::string err = upc::test::stderr_of([&] {
    r = upc::run(o, [] {
      if (upccoll_initialize(nullptr, nullptr) != UPCCOLL_SUCCESS) upc_global_exit(1);
      upc::sptr<void> s = upc_alloc(64), d = upc_alloc(64 * THREADS);
      auto expect = [](upccoll_return_t got, upccoll_return_t want) {
        if (got != want) upc_global_exit(2);
      };
      // The root: thread 0 names 0, the others 1.
      expect(upccoll_bcast(s, 1, UPC_INT, d, 1, UPC_INT, MYTHREAD == 0 ? 0 : 1, UPC_TEAM_ALL, 0, nullptr),
             UPCCOLL_ERROR_ROOT);
      // In place on thread 2 only.
      expect(upccoll_allreduce(MYTHREAD == 2 ? UPCCOLL_IN_PLACE : s, d, 1, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr),
             UPCCOLL_ERROR_SENDBUF);
      // Another collective on thread 1.
      expect(MYTHREAD == 1 ? upccoll_scatter(s, 1, UPC_INT, d, 1, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr)
                           : upccoll_bcast(s, 1, UPC_INT, d, 1, UPC_INT, 0, UPC_TEAM_ALL, 0, nullptr),
             UPCCOLL_ERROR);
      upc_free(d);
      upc_free(s);
      if (upccoll_finalize() != UPCCOLL_SUCCESS) upc_global_exit(3);
    });
  });
  INFO(err);
  CHECK(r.ok());
  // On the mpi backend each rank's stderr holds its own reports only: the words
  // are checked where one process holds every thread's.
  if (spmd::mpi_ranks() > 0) return;
  // The first member to see a difference reports it: which one depends on timing.
  auto one_of = [&](std::initializer_list<const char*> texts) {
    for (const char* t : texts)
      if (spmd::contains(err, t)) return true;
    return false;
  };
  CHECK(one_of({"upccoll_bcast: root is 0 on this thread but 1 on thread 1 (seen by thread 0): UPCCOLL_ERROR_ROOT",
                "upccoll_bcast: root is 0 on this thread but 1 on thread 2 (seen by thread 0): UPCCOLL_ERROR_ROOT",
                "upccoll_bcast: root is 1 on this thread but 0 on thread 0 (seen by thread 1): UPCCOLL_ERROR_ROOT",
                "upccoll_bcast: root is 1 on this thread but 0 on thread 0 (seen by thread 2): UPCCOLL_ERROR_ROOT"}));
  CHECK(one_of({"upccoll_allreduce: sendbuf is not UPCCOLL_IN_PLACE on this thread but is on thread 2 (every member "
                "passes it, or none) (seen by thread ",
                "upccoll_allreduce: sendbuf is UPCCOLL_IN_PLACE on this thread but is not on thread 0 (every member "
                "passes it, or none) (seen by thread 2): UPCCOLL_ERROR_SENDBUF",
                "upccoll_allreduce: sendbuf is UPCCOLL_IN_PLACE on this thread but is not on thread 1 (every member "
                "passes it, or none) (seen by thread 2): UPCCOLL_ERROR_SENDBUF"}));
  CHECK(one_of({"thread 1 called upccoll_scatter (seen by thread 0): UPCCOLL_ERROR\n",
                "thread 1 called upccoll_scatter (seen by thread 2): UPCCOLL_ERROR\n",
                "thread 0 called upccoll_bcast (seen by thread 1): UPCCOLL_ERROR\n",
                "thread 2 called upccoll_bcast (seen by thread 1): UPCCOLL_ERROR\n"}));
}
