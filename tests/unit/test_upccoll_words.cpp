// The engine finds where two members' calls differ and hands back a structured
// difference (field, this member's value, the other's, the other's thread);
// <upccoll.h> words it (lib/api/upccoll_words.cpp). Each field's words, as the
// library has always said them, and the words reaching stderr under --check
// from real disagreements.
#include <doctest/doctest.h>

#include <initializer_list>
#include <string>

#include "../../lib/api/upccoll_words.hpp"
#include "../support/capture_stderr.hpp"
#include "../support/spmd.hpp"
#include "upc.h"
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
    if (coll::executor_of(k.id) == coll::executor::tasks && coll::is_selectable(k.id))
      CHECK(upccoll_front::function_name(k.id) != nullptr);
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
