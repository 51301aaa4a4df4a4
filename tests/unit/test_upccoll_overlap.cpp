// <upccoll.h> overlapping send and receive areas (issue 8.3): aliased or
// partly overlapping areas are refused on every member and nothing is written;
// overlap is judged on the exact bytes; UPCCOLL_IN_PLACE where MPI puts it
// works and anywhere else fails on every member; the --check report.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "upccoll_api_support.hpp"

using namespace uconf;
using namespace upccoll_api_test;
namespace M = upccoll_model;
using M::collective;

namespace {

// A buffer of this thread, with pointers into it at byte offsets.
struct arena {
  upc::sptr<void> base;
  std::size_t bytes;
  explicit arena(std::size_t n) : base(mine(n)), bytes(n) {}
  upc::sptr<void> at(std::size_t off) const {
    upc::shared_address a = base.address();
    a.offset += off;
    return upc::sptr<void>(a);
  }
  int* ints() const { return L<int>(base); }
  void fill(int salt) const {
    for (std::size_t i = 0; i < bytes / sizeof(int); ++i) ints()[i] = salt * 1000 + static_cast<int>(i);
  }
  bool holds(int salt) const {
    for (std::size_t i = 0; i < bytes / sizeof(int); ++i)
      if (ints()[i] != salt * 1000 + static_cast<int>(i)) return false;
    return true;
  }
};

enum class completion_kind { blocking, handle, fence };
const char* name_of(completion_kind k) {
  return k == completion_kind::blocking ? "blocking" : k == completion_kind::handle ? "handle" : "UPC_ASYNC_FENCE";
}

using collective_call = std::function<upccoll_return_t(upc::sptr<void> s, upc::sptr<void> r, upccoll_flag_t, upccoll_handle_t*)>;

// The code this member's call ends with: the call's own, or its handle's.
upccoll_return_t ends_with(completion_kind how, const collective_call& call, upc::sptr<void> s, upc::sptr<void> r) {
  upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
  switch (how) {
    case completion_kind::blocking: return call(s, r, 0, nullptr);
    case completion_kind::handle: {
      const upccoll_return_t rc = call(s, r, 0, &h);
      return rc != UPCCOLL_SUCCESS ? rc : upccoll_wait_status(h);
    }
    case completion_kind::fence: {
      const upccoll_return_t rc = call(s, r, UPC_ASYNC_FENCE, &h);
      upccoll_fence();
      return rc;
    }
  }
  return UPCCOLL_ERROR;
}

// Every collective called with two ints per block (P blocks where it has
// several), the root the team's last rank; `s` and `r` the send and receive
// pointers every member passes.
struct overlap_case {
  const char* name;
  bool rooted;        // only the root reads and writes: only it errs
  bool exclusive;     // an exclusive scan: with one member nothing is written
  collective_call call;
};

std::vector<overlap_case> overlap_cases(upccoll_team_t team, int P, std::vector<std::size_t>& two, std::vector<std::size_t>& displ) {
  two.assign(P, 2);
  displ.resize(P);
  for (int t = 0; t < P; ++t) displ[t] = 2 * static_cast<std::size_t>(t);
  const int root = P - 1;
  std::size_t* c = two.data();
  std::size_t* d = displ.data();
  using S = upc::sptr<void>;
  using F = upccoll_flag_t;
  using H = upccoll_handle_t*;
  return {
      {"upccoll_bcast", true, false, [=](S s, S r, F f, H h) { return upccoll_bcast(s, 2, UPC_INT, r, 2, UPC_INT, root, team, f, h); }},
      {"upccoll_scatter", true, false, [=](S s, S r, F f, H h) { return upccoll_scatter(s, 2, UPC_INT, r, 2, UPC_INT, root, team, f, h); }},
      {"upccoll_scatterv", true, false, [=](S s, S r, F f, H h) { return upccoll_scatterv(s, c, d, UPC_INT, r, 2, UPC_INT, root, team, f, h); }},
      {"upccoll_gather", true, false, [=](S s, S r, F f, H h) { return upccoll_gather(s, 2, UPC_INT, r, 2, UPC_INT, root, team, f, h); }},
      {"upccoll_gatherv", true, false, [=](S s, S r, F f, H h) { return upccoll_gatherv(s, 2, UPC_INT, r, c, d, UPC_INT, root, team, f, h); }},
      {"upccoll_allgather", false, false, [=](S s, S r, F f, H h) { return upccoll_allgather(s, 2, UPC_INT, r, 2, UPC_INT, team, f, h); }},
      {"upccoll_allgatherv", false, false, [=](S s, S r, F f, H h) { return upccoll_allgatherv(s, 2, UPC_INT, r, c, d, UPC_INT, team, f, h); }},
      {"upccoll_alltoall", false, false, [=](S s, S r, F f, H h) { return upccoll_alltoall(s, 2, UPC_INT, r, 2, UPC_INT, team, f, h); }},
      {"upccoll_alltoallv", false, false, [=](S s, S r, F f, H h) { return upccoll_alltoallv(s, c, d, UPC_INT, r, c, d, UPC_INT, team, f, h); }},
      {"upccoll_reduce", true, false, [=](S s, S r, F f, H h) { return upccoll_reduce(s, r, 2, UPC_INT, UPC_ADD, root, team, f, h); }},
      {"upccoll_allreduce", false, false, [=](S s, S r, F f, H h) { return upccoll_allreduce(s, r, 2, UPC_INT, UPC_ADD, team, f, h); }},
      {"upccoll_reduce_scatter", false, false, [=](S s, S r, F f, H h) { return upccoll_reduce_scatter(s, r, c, UPC_INT, UPC_ADD, team, f, h); }},
      {"upccoll_scan", false, true, [=](S s, S r, F f, H h) { return upccoll_scan(s, r, 2, UPC_INT, UPC_ADD, team, f, h); }},
      {"upccoll_exscan", false, true, [=](S s, S r, F f, H h) { return upccoll_exscan(s, r, 2, UPC_INT, UPC_ADD, team, f, h); }},
      {"upccoll_scan_inclusive", false, false, [=](S s, S r, F f, H h) { return upccoll_scan_inclusive(s, r, 2, UPC_INT, UPC_ADD, team, f, h); }},
  };
}

// Every collective with sendbuf == recvbuf and with the two a few bytes apart:
// UPCCOLL_ERROR_RECVBUF on every member of the team, and nothing written.
void overlap_refused_body(upccoll_team_t team, completion_kind how) {
  int P = 0, me = 0;
  UC_OK(upccoll_team_size(team, &P));
  UC_OK(upccoll_team_rank(team, &me));
  std::vector<std::size_t> two, displ;
  const arena a(sizeof(int) * (4 * static_cast<std::size_t>(P) + 8));
  for (const overlap_case& oc : overlap_cases(team, P, two, displ))
    for (std::size_t shift : {std::size_t{0}, std::size_t{4}, std::size_t{8} * static_cast<std::size_t>(P) - 4})
      for (bool recv_after : {true, false}) {
        if (shift == 0 && !recv_after) continue;
        const std::string what = std::string(oc.name) + (shift == 0 ? " sendbuf == recvbuf" : " recvbuf " +
                                 std::string(recv_after ? "+" : "-") + std::to_string(shift) + " bytes from sendbuf") +
                                 ", " + name_of(how) + ", team of " + std::to_string(P);
        const upc::sptr<void> s = a.at(recv_after ? 0 : shift), r = a.at(recv_after ? shift : 0);
        // bytes the call reads and writes at the root / everywhere all overlap
        // for these shifts, but a buffer of one block (shift past it) does not
        const bool one_block_apart = shift >= 8 && (std::string(oc.name) == "upccoll_bcast" ||
                                      std::string(oc.name) == "upccoll_reduce" || std::string(oc.name) == "upccoll_allreduce" ||
                                      std::string(oc.name).find("scan") != std::string::npos ||
                                      (std::string(oc.name) == "upccoll_scatter" && !recv_after) ||
                                      (std::string(oc.name) == "upccoll_scatterv" && !recv_after) ||
                                      (std::string(oc.name) == "upccoll_gather" && recv_after) ||
                                      (std::string(oc.name) == "upccoll_gatherv" && recv_after) ||
                                      (std::string(oc.name) == "upccoll_allgather" && recv_after) ||
                                      (std::string(oc.name) == "upccoll_allgatherv" && recv_after) ||
                                      (std::string(oc.name) == "upccoll_reduce_scatter" && !recv_after));
        const bool nothing_written = oc.exclusive && P == 1;
        const bool expect_error = !one_block_apart && !nothing_written;
        a.fill(MYTHREAD + 1);
        upc_barrier;
        const upccoll_return_t rc = ends_with(how, oc.call, s, r);
        if (!expect_error) {
          // not an overlap after all: the call runs (the data need not be checked here)
          expect_rc(rc, UPCCOLL_SUCCESS, what);
        } else if (how == completion_kind::fence && ((oc.rooted && me != P - 1) || (oc.exclusive && me == 0))) {
          // a fence-completed call of a member that made no mistake (a non-root;
          // rank 0 of an exclusive scan, which writes nothing) succeeds;
          // upccoll_fence reports the collective's error under --check
          if (rc != UPCCOLL_SUCCESS) expect_rc(rc, UPCCOLL_ERROR_RECVBUF, what);
        } else {
          expect_rc(rc, UPCCOLL_ERROR_RECVBUF, what);
        }
        if (expect_error && !a.holds(MYTHREAD + 1)) fail(what + ": the refused call wrote into the buffer");
        upc_barrier;
      }
  team_still_works(team);
}

// The same buffer for both sides is fine when the blocks each side uses are
// apart: v-variants' blocks interleaved, allgatherv's send block in a gap.
void disjoint_blocks_body(upccoll_team_t team) {
  int P = 0, me = 0;
  UC_OK(upccoll_team_size(team, &P));
  UC_OK(upccoll_team_rank(team, &me));
  const std::size_t n = static_cast<std::size_t>(P);
  const arena a(sizeof(int) * (4 * n + 8));
  int* x = a.ints();
  std::vector<std::size_t> one(n, 1), even(n), odd(n);
  for (std::size_t t = 0; t < n; ++t) {
    even[t] = 2 * t;
    odd[t] = 2 * t + 1;
  }
  const std::vector<int> mem = members_of(team);
  // alltoallv: send from the even ints, receive into the odd ones
  for (std::size_t t = 0; t < n; ++t) x[2 * t] = 100 * me + static_cast<int>(t);
  UC_OK(upccoll_alltoallv(a.base, one.data(), even.data(), UPC_INT, a.base, one.data(), odd.data(), UPC_INT, team, 0, nullptr));
  for (std::size_t t = 0; t < n; ++t) {
    SPMD_CHECK_EQ(x[2 * t + 1], 100 * static_cast<int>(t) + me);
    SPMD_CHECK_EQ(x[2 * t], 100 * me + static_cast<int>(t));  // the sent ints are as they were
  }
  // allgatherv: the send int sits in the gap after the receive blocks' odd slots
  x[2 * n] = 7 * mem[me];
  UC_OK(upccoll_allgatherv(a.at(sizeof(int) * 2 * n), 1, UPC_INT, a.base, one.data(), odd.data(), UPC_INT, team, 0, nullptr));
  for (std::size_t t = 0; t < n; ++t) SPMD_CHECK_EQ(x[2 * t + 1], 7 * mem[t]);
  // ... and one receive block moved onto the send int: refused
  std::vector<std::size_t> bad = odd;
  bad[n - 1] = 2 * n;
  UC_EXPECT(upccoll_allgatherv(a.at(sizeof(int) * 2 * n), 1, UPC_INT, a.base, one.data(), bad.data(), UPC_INT, team, 0, nullptr),
            UPCCOLL_ERROR_RECVBUF);
  // scatterv / gatherv at the root, within one buffer
  const int root = 0;
  for (std::size_t t = 0; t < n; ++t) x[2 * t] = 10 * static_cast<int>(t) + 1;
  UC_OK(upccoll_scatterv(a.base, one.data(), even.data(), UPC_INT, a.at(sizeof(int)), 1, UPC_INT, root, team, 0, nullptr));
  SPMD_CHECK_EQ(x[1], me == root ? 1 : 10 * me + 1);
  x[2 * n + 1] = 3 * me;
  UC_OK(upccoll_gatherv(a.at(sizeof(int) * (2 * n + 1)), 1, UPC_INT, a.base, one.data(), even.data(), UPC_INT, root, team, 0,
                        nullptr));
  if (me == root)
    for (std::size_t t = 0; t < n; ++t) SPMD_CHECK_EQ(x[2 * t], 3 * static_cast<int>(t));
  team_still_works(team);
}

// UPCCOLL_IN_PLACE where MPI puts it works (the matrix checks the data); where
// it does not, or on some members only, the call fails on every member.
void in_place_misuse_body(upccoll_team_t team) {
  int P = 0, me = 0;
  UC_OK(upccoll_team_size(team, &P));
  UC_OK(upccoll_team_rank(team, &me));
  const int last = P - 1;
  const arena a(sizeof(int) * (4 * static_cast<std::size_t>(P) + 8)), b(sizeof(int) * (4 * static_cast<std::size_t>(P) + 8));
  std::vector<std::size_t> one(P, 1), disp(P);
  for (int t = 0; t < P; ++t) disp[t] = static_cast<std::size_t>(t);
  const upc::sptr<void> IP = UPCCOLL_IN_PLACE, s = a.base, r = b.base;
  // in the argument MPI does not use for it
  UC_EXPECT(upccoll_allreduce(s, IP, 1, UPC_INT, UPC_ADD, team, 0, nullptr), UPCCOLL_ERROR_RECVBUF);
  UC_EXPECT(upccoll_alltoall(s, 1, UPC_INT, IP, 1, UPC_INT, team, 0, nullptr), UPCCOLL_ERROR_RECVBUF);
  UC_EXPECT(upccoll_bcast(me == last ? IP : s, 1, UPC_INT, r, 1, UPC_INT, last, team, 0, nullptr), UPCCOLL_ERROR_SENDBUF);
  UC_EXPECT(upccoll_gather(s, 1, UPC_INT, me == last ? IP : r, 1, UPC_INT, last, team, 0, nullptr), UPCCOLL_ERROR_RECVBUF);
  if (P >= 2) {
    // on a member that is not the root (the root's call is fine: the error reaches it)
    UC_EXPECT(upccoll_reduce(me == 0 ? IP : s, r, 1, UPC_INT, UPC_ADD, last, team, 0, nullptr), UPCCOLL_ERROR_SENDBUF);
    UC_EXPECT(upccoll_gather(me == 0 ? IP : s, 1, UPC_INT, r, 1, UPC_INT, last, team, 0, nullptr), UPCCOLL_ERROR_SENDBUF);
    UC_EXPECT(upccoll_gatherv(me == 0 ? IP : s, 1, UPC_INT, r, one.data(), disp.data(), UPC_INT, last, team, 0, nullptr),
              UPCCOLL_ERROR_SENDBUF);
    UC_EXPECT(upccoll_bcast(s, 1, UPC_INT, me == 0 ? IP : r, 1, UPC_INT, last, team, 0, nullptr), UPCCOLL_ERROR_RECVBUF);
    UC_EXPECT(upccoll_scatter(s, 1, UPC_INT, me == 0 ? IP : r, 1, UPC_INT, last, team, 0, nullptr), UPCCOLL_ERROR_RECVBUF);
    UC_EXPECT(upccoll_scatterv(s, one.data(), disp.data(), UPC_INT, me == 0 ? IP : r, 1, UPC_INT, last, team, 0, nullptr),
              UPCCOLL_ERROR_RECVBUF);
    // on some members only (MPI: all or none)
    for (const bool handle : {false, true}) {
      upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
      const auto end = [&](upccoll_return_t rc) { return rc == UPCCOLL_SUCCESS && handle ? upccoll_wait_status(h) : rc; };
      upccoll_handle_t* hp = handle ? &h : nullptr;
      UC_EXPECT(end(upccoll_allreduce(me == 0 ? IP : s, r, 1, UPC_INT, UPC_ADD, team, 0, hp)),
                UPCCOLL_ERROR_SENDBUF);
      UC_EXPECT(end(upccoll_alltoall(me == last ? IP : s, 1, UPC_INT, r, 1, UPC_INT, team, 0, hp)),
                UPCCOLL_ERROR_SENDBUF);
      UC_EXPECT(end(upccoll_allgather(me == 0 ? s : IP, 1, UPC_INT, r, 1, UPC_INT, team, 0, hp)),
                UPCCOLL_ERROR_SENDBUF);
      UC_EXPECT(end(upccoll_scan_inclusive(me == 0 ? IP : s, r, 1, UPC_INT, UPC_ADD, team, 0, hp)),
                UPCCOLL_ERROR_SENDBUF);
    }
  }
  // in-place allgatherv whose own block overlaps another receive block
  if (P >= 2) {
    std::vector<std::size_t> two(P, 2), d(P);
    for (int t = 0; t < P; ++t) d[t] = 2 * static_cast<std::size_t>(t);
    d[(me + 1) % P] = 2 * static_cast<std::size_t>(me) + 1;  // the next rank's block half on ours
    UC_EXPECT(upccoll_allgatherv(IP, 0, UPC_INT, r, two.data(), d.data(), UPC_INT, team, 0, nullptr), UPCCOLL_ERROR_RECVBUF);
  }
  team_still_works(team);
}

// The bug: allreduce(b, b) returned UPCCOLL_SUCCESS with every element wrong.
// Now it is refused, and UPCCOLL_IN_PLACE computes the sums in b, for small
// and large vectors (both allreduce algorithms), blocking and not.
void allreduce_same_buffer_body(upccoll_team_t team) {
  int P = 0, me = 0;
  UC_OK(upccoll_team_size(team, &P));
  UC_OK(upccoll_team_rank(team, &me));
  const std::vector<int> mem = members_of(team);
  for (std::size_t count : {std::size_t{1}, std::size_t{100}, std::size_t{5000}})
    for (completion_kind how : {completion_kind::blocking, completion_kind::handle, completion_kind::fence}) {
      const arena b(count * sizeof(long));
      long* v = L<long>(b.base);
      for (std::size_t i = 0; i < count; ++i) v[i] = static_cast<long>(mem[me] * 1000 + i);
      const collective_call allreduce = [&](upc::sptr<void> s, upc::sptr<void> r, upccoll_flag_t f, upccoll_handle_t* h) {
        return upccoll_allreduce(s, r, count, UPC_LONG, UPC_ADD, team, f, h);
      };
      expect_rc(ends_with(how == completion_kind::fence ? completion_kind::handle : how, allreduce, b.base, b.base),
                UPCCOLL_ERROR_RECVBUF, "allreduce(b, b)");
      for (std::size_t i = 0; i < count; ++i) SPMD_CHECK_EQ(v[i], static_cast<long>(mem[me] * 1000 + i));
      expect_rc(ends_with(how, allreduce, UPCCOLL_IN_PLACE, b.base), UPCCOLL_SUCCESS, "allreduce(UPCCOLL_IN_PLACE, b)");
      long base = 0;
      for (int t : mem) base += t * 1000;
      for (std::size_t i = 0; i < count; ++i) SPMD_CHECK_EQ(v[i], base + static_cast<long>(P * i));
    }
}

// Runs `body` on UPC_TEAM_ALL and on a split with non-dense keys (two halves,
// reversed).
void on_world_and_split(const std::function<void(upccoll_team_t)>& body) {
  UC_OK(upccoll_initialize(nullptr, nullptr));
  body(UPC_TEAM_ALL);
  upccoll_team_t half = sentinel_team;
  UC_OK(upccoll_team_split(UPC_TEAM_ALL, MYTHREAD % 2, -MYTHREAD, &half));
  body(half);
  upccoll_team_free(half);
  UC_OK(upccoll_finalize());
}

}  // namespace

TEST_CASE("upccoll_allreduce(b, b) is refused with UPCCOLL_ERROR_RECVBUF and UPCCOLL_IN_PLACE gives the sums (issue 8.3)") {
  everywhere([] { on_world_and_split(allreduce_same_buffer_body); }, {1, 2, 3, 5});
}

// "On every member" is what --check promises; without it a member whose own
// part is done may complete first, with success (docs/teams-and-collectives-2.md,
// "Errors"), which the errors tests check.
TEST_CASE("every collective with aliased or partly overlapping send and receive areas: UPCCOLL_ERROR_RECVBUF on every member under --check, nothing written (issue 8.3)") {
  for (completion_kind how : {completion_kind::blocking, completion_kind::handle, completion_kind::fence}) {
    INFO(name_of(how));
    everywhere_checked([how] { on_world_and_split([how](upccoll_team_t t) { overlap_refused_body(t, how); }); }, {1, 2, 3, 5});
  }
}

TEST_CASE("overlap is judged on the exact bytes: blocks apart in one buffer are fine, one block onto the send area is refused") {
  everywhere([] { on_world_and_split(disjoint_blocks_body); }, {1, 2, 3, 5});
}

TEST_CASE("UPCCOLL_IN_PLACE in an argument or on a member MPI does not allow, or on some members only: an error on every member under --check") {
  everywhere_checked([] { on_world_and_split(in_place_misuse_body); }, {1, 2, 3, 5});
}

TEST_CASE("under --check an overlap names the function, both arguments, the bytes they share and the in-place form") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(2, b)) continue;
    upc::launch_options o = opts(2, b, 60);
    o.check = true;
    upc::run_result res;
    const std::string err = stderr_of([&] {
      res = upc::run(o, [] {
        UC_OK(upccoll_initialize(nullptr, nullptr));
        const arena a(64);
        UC_EXPECT(upccoll_allreduce(a.base, a.at(8), 4, UPC_INT, UPC_ADD, UPC_TEAM_ALL, 0, nullptr), UPCCOLL_ERROR_RECVBUF);
        std::vector<std::size_t> one(2, 1), d = {0, 3};
        UC_EXPECT(upccoll_alltoallv(a.base, one.data(), d.data(), UPC_INT, a.at(12), one.data(), d.data(), UPC_INT,
                                    UPC_TEAM_ALL, 0, nullptr),
                  UPCCOLL_ERROR_RECVBUF);
        UC_OK(upccoll_finalize());
      });
    });
    INFO("backend=", spmd::name(b), " error: ", res.error, " stderr: ", err);
    CHECK(res.ok());
    CHECK(spmd::contains(err, "upcemu: upccoll_allreduce: sendbuf (bytes ["));
    CHECK(spmd::contains(err, ") is read and recvbuf (bytes ["));
    CHECK(spmd::contains(err, "overlap in bytes ["));
    CHECK(spmd::contains(err, "to compute in place pass UPCCOLL_IN_PLACE (upccoll_allreduce takes it as sendbuf, on every member)"));
    CHECK(spmd::contains(err, "upcemu: upccoll_alltoallv: sendbuf block 1 (bytes ["));
    CHECK(spmd::contains(err, "recvbuf block 0 (bytes ["));
    CHECK(spmd::contains(err, "UPCCOLL_ERROR_RECVBUF"));
  }
}
