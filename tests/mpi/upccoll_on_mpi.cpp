// <upccoll.h> collectives handed to MPI's non-blocking ones (the task
// executor's `mpi` rows, lib/coll/tasks/mpi_handoff.hpp), checked against a
// sequential model of each answer and against the `pull`/`push`/
// `by_destination` rows' return codes for calls that must fail:
//   - broadcast, scatter, gather, allgather, alltoall on the world team and on
//     the teams of a split, blocking, with a handle and fence-completed, with
//     every sync-flag family;
//   - scatterv, gatherv, allgatherv, alltoallv with counts that differ by pair;
//   - the in-place forms;
//   - 40 calls in flight at once (more than a team's 32 slots), waited for in
//     reverse order;
//   - seed 000's Figure 1: a member that holds a lock across its start, or
//     waits while holding it;
//   - UPC_OUT_ALLSYNC: the other members' receive buffers read at once;
//   - a team freed, or a blocking collective made on it, while a collective
//     on another team waits for a member that calls it only afterwards;
//   - calls that disagree (roots, sizes, a member whose own call failed).
// On the mpi backend every call must run on the `mpi` row (checked); on the
// others the program checks the default rows the same way. Last, the
// automatic choice: the mpi rows where the threads span hosts, else the task rows. Prints "ok PART"
// (thread 0) and exits 1 when a part is wrong. `upccoll_on_mpi throw`: the
// last thread throws while the others wait for its broadcast (the run must
// stop with the report).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "parts.hpp"
#include "upc.h"
#include "upc/coll.hpp"
#include "upc_castable.h"
#include "upccoll.h"

namespace {
using parts::part;
bool g_on_mpi = false;

const char* kinds[] = {"upccoll_bcast",    "upccoll_scatter",  "upccoll_gather",     "upccoll_allgather",
                       "upccoll_alltoall", "upccoll_scatterv", "upccoll_gatherv",    "upccoll_allgatherv",
                       "upccoll_alltoallv"};
enum kind { bcast, scatter, gather, allgather, alltoall };

void use_rows(const char* row) {
  for (const char* k : kinds) upc::coll::force_algorithm(k, row);
}
void use_task_rows() {
  const char* rows[] = {"pull", "pull", "push", "by_destination", "by_destination",
                        "pull", "push", "by_destination", "by_destination"};
  for (int k = 0; k < 9; ++k) upc::coll::force_algorithm(kinds[k], rows[k]);
}

// Whether the threads are on several hosts: another host's memory cannot be cast.
bool several_hosts() {
  static upc::shared_array<int> one(upc::per_thread(1));
  for (int t = 0; t < THREADS; ++t)
    if (!upc_cast(upc::sptr<int>(&one[t]))) return true;
  return false;
}


// This thread's buffers: `n` longs each, with affinity to it.
struct buffers {
  upc::sptr<void> s, r;
  int n;
  explicit buffers(int n_) : n(n_) {
    s = upc_alloc(static_cast<std::size_t>(n) * sizeof(long));
    r = upc_alloc(static_cast<std::size_t>(n) * sizeof(long));
  }
  ~buffers() {
    upc_free(s);
    upc_free(r);
  }
  long* send() const { return static_cast<long*>(s.local()); }
  long* recv() const { return static_cast<long*>(r.local()); }
};

long value(int from, int to, int i, int salt) { return 1000000L * salt + 10000L * from + 100L * to + i; }

upccoll_return_t start(kind k, upccoll_team_t team, upc::sptr<void> s, upc::sptr<void> r, int per, int root,
                       upccoll_flag_t f, upccoll_handle_t* h) {
  switch (k) {
    case bcast: return upccoll_bcast(s, per, UPC_LONG, r, per, UPC_LONG, root, team, f, h);
    case scatter: return upccoll_scatter(s, per, UPC_LONG, r, per, UPC_LONG, root, team, f, h);
    case gather: return upccoll_gather(s, per, UPC_LONG, r, per, UPC_LONG, root, team, f, h);
    case allgather: return upccoll_allgather(s, per, UPC_LONG, r, per, UPC_LONG, team, f, h);
    case alltoall: return upccoll_alltoall(s, per, UPC_LONG, r, per, UPC_LONG, team, f, h);
  }
  return UPCCOLL_ERROR;
}

// Fills this member's send buffer for `k` and says what its receive buffer
// must hold afterwards (-1: untouched).
void prepare(kind k, int me, int P, int per, int root, int salt, buffers& b, std::vector<long>& want) {
  const int n = b.n;
  want.assign(static_cast<std::size_t>(n), -1);
  for (int i = 0; i < n; ++i) {
    b.send()[i] = value(me, (i / per) % P, i % per, salt);
    b.recv()[i] = -1;
  }
  for (int i = 0; i < n; ++i) {
    const int blk = i / per, x = i % per;
    switch (k) {
      case bcast:
        if (blk == 0) want[std::size_t(i)] = value(root, 0, x, salt);
        break;
      case scatter:
        if (blk == 0) want[std::size_t(i)] = value(root, me, x, salt);
        break;
      case gather:
        if (me == root && blk < P) want[std::size_t(i)] = value(blk, 0, x, salt);
        break;
      case allgather:
        if (blk < P) want[std::size_t(i)] = value(blk, 0, x, salt);
        break;
      case alltoall:
        if (blk < P) want[std::size_t(i)] = value(blk, me, x, salt);
        break;
    }
  }
}

bool matches(const buffers& b, const std::vector<long>& want, const char* what) {
  for (int i = 0; i < b.n; ++i)
    if (b.recv()[i] != want[std::size_t(i)]) {
      std::printf("thread %d: %s: recv[%d] = %ld, expected %ld\n", MYTHREAD, what, i, b.recv()[i], want[std::size_t(i)]);
      return false;
    }
  return true;
}

bool on_row(const char* expected_when_mpi) {
  const std::string a = upc::coll::last_algorithm();
  if (!g_on_mpi || a == expected_when_mpi) return true;
  std::printf("thread %d: ran on row '%s', not '%s'\n", MYTHREAD, a.c_str(), expected_when_mpi);
  return false;
}

// Every kind, flag family and completion, on `team` (size P, this member's rank me).
bool every_call(upccoll_team_t team, int me, int P, int salt) {
  bool ok = true;
  const upccoll_flag_t families[] = {0, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC, UPC_IN_NOSYNC | UPC_OUT_NOSYNC,
                                     UPC_IN_MYSYNC | UPC_OUT_ALLSYNC};
  for (int per : {1, 37, 5000}) {
    buffers b(per * P);
    std::vector<long> want;
    for (int k = bcast; k <= alltoall; ++k)
      for (upccoll_flag_t f : families)
        for (int how = 0; how < 3; ++how) {  // blocking, handle, fence
          const int root = (salt + k + how) % P;
          prepare(kind(k), me, P, per, root, ++salt, b, want);
          upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
          upccoll_return_t rc = start(kind(k), team, b.s, b.r, per, root, how == 2 ? (f | UPC_ASYNC_FENCE) : f,
                                      how == 1 ? &h : nullptr);
          ok &= on_row("mpi");
          if (how == 1 && rc == UPCCOLL_SUCCESS) rc = upccoll_wait_status(h);
          if (how == 2) upccoll_fence();
          if (rc != UPCCOLL_SUCCESS) {
            std::printf("thread %d: %s returned %s\n", MYTHREAD, kinds[k], upccoll_error_name(rc));
            ok = false;
          }
          ok &= matches(b, want, kinds[k]);
          upc_barrier;  // nobody refills a buffer another member's MPI part still reads
        }
  }
  return ok;
}

bool in_place(int salt) {
  const int me = MYTHREAD, P = THREADS, per = 3, root = P - 1;
  buffers b(per * P);
  std::vector<long> want;
  bool ok = true;
  // bcast: the root's data stays in sendbuf.
  prepare(bcast, me, P, per, root, ++salt, b, want);
  ok &= upccoll_bcast(b.s, per, UPC_LONG, me == root ? UPCCOLL_IN_PLACE : b.r, per, UPC_LONG, root, UPC_TEAM_ALL, 0,
                      nullptr) == UPCCOLL_SUCCESS;
  if (me != root) ok &= matches(b, want, "in-place bcast");
  upc_barrier;
  // gather: the root's block already in recvbuf.
  prepare(gather, me, P, per, root, ++salt, b, want);
  if (me == root)
    for (int x = 0; x < per; ++x) b.recv()[root * per + x] = value(root, 0, x, salt);
  ok &= upccoll_gather(me == root ? UPCCOLL_IN_PLACE : b.s, per, UPC_LONG, b.r, per, UPC_LONG, root, UPC_TEAM_ALL, 0,
                       nullptr) == UPCCOLL_SUCCESS;
  ok &= matches(b, want, "in-place gather");
  upc_barrier;
  // allgather: own block in place; alltoall: the input in recvbuf.
  prepare(allgather, me, P, per, root, ++salt, b, want);
  for (int x = 0; x < per; ++x) b.recv()[me * per + x] = value(me, 0, x, salt);
  ok &= upccoll_allgather(UPCCOLL_IN_PLACE, per, UPC_LONG, b.r, per, UPC_LONG, UPC_TEAM_ALL, 0, nullptr) ==
        UPCCOLL_SUCCESS;
  ok &= matches(b, want, "in-place allgather");
  upc_barrier;
  prepare(alltoall, me, P, per, root, ++salt, b, want);
  std::memcpy(b.recv(), b.send(), sizeof(long) * std::size_t(per * P));
  ok &= upccoll_alltoall(UPCCOLL_IN_PLACE, per, UPC_LONG, b.r, per, UPC_LONG, UPC_TEAM_ALL, 0, nullptr) ==
        UPCCOLL_SUCCESS;
  ok &= matches(b, want, "in-place alltoall");
  ok &= on_row("mpi");
  upc_barrier;
  return ok;
}

// 40 broadcasts in flight (a team has 32 slots), each from another root,
// waited for newest first.
bool many_in_flight() {
  constexpr int calls = 40, per = 64;
  const int me = MYTHREAD, P = THREADS;
  std::vector<upc::sptr<void>> bufs;
  std::vector<upccoll_handle_t> h(calls, UPCCOLL_INVALID_HANDLE);
  bool ok = true;
  for (int c = 0; c < calls; ++c) {
    bufs.push_back(upc_alloc(per * sizeof(long)));
    long* p = static_cast<long*>(bufs.back().local());
    for (int i = 0; i < per; ++i) p[i] = me == c % P ? value(c % P, 0, i, c) : -1;
    ok &= upccoll_bcast(bufs.back(), per, UPC_LONG, me == c % P ? UPCCOLL_IN_PLACE : bufs.back(), per, UPC_LONG, c % P,
                        UPC_TEAM_ALL, 0, &h[c]) == UPCCOLL_SUCCESS;
  }
  for (int c = calls - 1; c >= 0; --c) ok &= upccoll_wait_status(h[c]) == UPCCOLL_SUCCESS;
  for (int c = 0; c < calls; ++c) {
    const long* p = static_cast<const long*>(bufs[std::size_t(c)].local());
    for (int i = 0; i < per; ++i) ok &= p[i] == value(c % P, 0, i, c);
    upc_free(bufs[std::size_t(c)]);
  }
  upc_barrier;
  return ok;
}

// Seed 000's Figure 1: EX1 holds a lock across the start (a late member
// cannot start until it gets the lock), EX2 waits while holding it.
bool figure1() {
  bool ok = true;
  const int me = MYTHREAD, P = THREADS, per = 4;
  upc_lock_t* lock = upc_all_lock_alloc();
  buffers b(per * P);
  std::vector<long> want;
  int salt = 500;
  for (int k = bcast; k <= alltoall; ++k)
    for (upccoll_flag_t f : {upccoll_flag_t(0), upccoll_flag_t(UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC)})
      for (int ex = 1; ex <= 2; ++ex) {
        const int root = salt % P, slow = salt % P;
        prepare(kind(k), me, P, per, root, ++salt, b, want);
        upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
        upccoll_return_t rc, rs;
        if (ex == 1) {
          upc_lock(lock);
          if (me == slow) std::this_thread::sleep_for(std::chrono::milliseconds(3));
          rc = start(kind(k), UPC_TEAM_ALL, b.s, b.r, per, root, f, &h);
          upc_unlock(lock);
          rs = upccoll_wait_status(h);
        } else {
          if (me == slow) std::this_thread::sleep_for(std::chrono::milliseconds(3));
          rc = start(kind(k), UPC_TEAM_ALL, b.s, b.r, per, root, f, &h);
          upc_lock(lock);
          rs = upccoll_wait_status(h);
          upc_unlock(lock);
        }
        ok &= rc == UPCCOLL_SUCCESS && rs == UPCCOLL_SUCCESS && on_row("mpi");
        ok &= matches(b, want, kinds[k]);
        upc_barrier;
      }
  upc_all_lock_free(lock);
  return ok;
}

// The v-variants, with counts that differ by pair and a gap after every block:
// s sends count(s, d) longs to d; blocks are laid out in rank order.
int vcount(int s, int d, int per) { return per + (s + 2 * d) % 3; }
std::vector<std::size_t> vcounts_to(int s, int P, int per, bool by_dest) {  // bytes
  std::vector<std::size_t> c(static_cast<std::size_t>(P));
  for (int k = 0; k < P; ++k) c[std::size_t(k)] = sizeof(long) * std::size_t(by_dest ? vcount(s, k, per) : vcount(k, s, per));
  return c;
}
std::vector<std::size_t> vdispls(const std::vector<std::size_t>& counts) {  // bytes, one long of gap each
  std::vector<std::size_t> d(counts.size());
  std::size_t at = 0;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    d[k] = at;
    at += counts[k] + sizeof(long);
  }
  return d;
}
// Element counts for the API (which takes counts in elements).
std::vector<std::size_t> elems(const std::vector<std::size_t>& bytes) {
  std::vector<std::size_t> e(bytes.size());
  for (std::size_t k = 0; k < bytes.size(); ++k) e[k] = bytes[k] / sizeof(long);
  return e;
}

bool v_calls(upccoll_team_t team, int me, int P, int salt) {
  bool ok = true;
  const char* names[] = {"upccoll_scatterv", "upccoll_gatherv", "upccoll_allgatherv", "upccoll_alltoallv"};
  for (int per : {1, 700})
    for (int k = 0; k < 4; ++k)
      for (upccoll_flag_t f : {upccoll_flag_t(0), upccoll_flag_t(UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC)}) {
        const int root = (salt + k) % P;
        ++salt;
        buffers b((per + 3) * P * 2);
        for (int i = 0; i < b.n; ++i) b.send()[i] = b.recv()[i] = -1;
        std::vector<long> want(static_cast<std::size_t>(b.n), -1);
        // send side
        std::vector<std::size_t> sc, sd, rc, rd;
        upccoll_return_t r = UPCCOLL_ERROR;
        upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
        auto fill_send = [&](int to, std::size_t at_byte, int n) {
          for (int i = 0; i < n; ++i) b.send()[at_byte / sizeof(long) + std::size_t(i)] = value(me, to, i, salt);
        };
        auto expect = [&](int from, std::size_t at_byte, int n) {
          for (int i = 0; i < n; ++i) want[at_byte / sizeof(long) + std::size_t(i)] = value(from, me, i, salt);
        };
        switch (k) {
          case 0: {  // scatterv from root: root sends vcount(root, d) to d
            sc = vcounts_to(root, P, per, true);
            sd = vdispls(sc);
            if (me == root)
              for (int d = 0; d < P; ++d) fill_send(d, sd[std::size_t(d)], vcount(root, d, per));
            expect(root, 0, vcount(root, me, per));
            std::vector<std::size_t> e = elems(sc);
            r = upccoll_scatterv(b.s, e.data(), elems(sd).data(), UPC_LONG, b.r, std::size_t(vcount(root, me, per)),
                                 UPC_LONG, root, team, f, &h);
            break;
          }
          case 1: {  // gatherv to root: s sends vcount(s, root)
            rc = vcounts_to(root, P, per, false);
            rd = vdispls(rc);
            fill_send(root, 0, vcount(me, root, per));
            if (me == root)
              for (int s = 0; s < P; ++s)
                for (int i = 0; i < vcount(s, root, per); ++i)
                  want[rd[std::size_t(s)] / sizeof(long) + std::size_t(i)] = value(s, root, i, salt);
            std::vector<std::size_t> e = elems(rc), ed = elems(rd);
            r = upccoll_gatherv(b.s, std::size_t(vcount(me, root, per)), UPC_LONG, b.r, e.data(), ed.data(), UPC_LONG,
                                root, team, f, &h);
            break;
          }
          case 2: {  // allgatherv: s sends vcount(s, 0) to everyone
            std::vector<std::size_t> c(static_cast<std::size_t>(P));
            for (int s = 0; s < P; ++s) c[std::size_t(s)] = sizeof(long) * std::size_t(vcount(s, 0, per));
            rd = vdispls(c);
            fill_send(0, 0, vcount(me, 0, per));
            for (int s = 0; s < P; ++s)
              for (int i = 0; i < vcount(s, 0, per); ++i)
                want[rd[std::size_t(s)] / sizeof(long) + std::size_t(i)] = value(s, 0, i, salt);
            std::vector<std::size_t> e = elems(c), ed = elems(rd);
            r = upccoll_allgatherv(b.s, std::size_t(vcount(me, 0, per)), UPC_LONG, b.r, e.data(), ed.data(), UPC_LONG,
                                   team, f, &h);
            break;
          }
          default: {  // alltoallv
            sc = vcounts_to(me, P, per, true);
            sd = vdispls(sc);
            rc = vcounts_to(me, P, per, false);
            rd = vdispls(rc);
            for (int d = 0; d < P; ++d) fill_send(d, sd[std::size_t(d)], vcount(me, d, per));
            for (int s = 0; s < P; ++s) expect(s, rd[std::size_t(s)], vcount(s, me, per));
            std::vector<std::size_t> es = elems(sc), eds = elems(sd), er = elems(rc), edr = elems(rd);
            r = upccoll_alltoallv(b.s, es.data(), eds.data(), UPC_LONG, b.r, er.data(), edr.data(), UPC_LONG, team, f,
                                  &h);
            break;
          }
        }
        if (r == UPCCOLL_SUCCESS) r = upccoll_wait_status(h);
        ok &= on_row("mpi");
        if (r != UPCCOLL_SUCCESS) {
          std::printf("thread %d: %s returned %s\n", MYTHREAD, names[k], upccoll_error_name(r));
          ok = false;
        }
        ok &= matches(b, want, names[k]);
        upc_barrier;
      }
  return ok;
}

// Freeing a team waits for that team's collectives only: thread 0 starts a
// broadcast on team X = {0, 1}, then frees team Y = {0, 2}; thread 1 joins
// the broadcast only after a barrier that thread 0 reaches after the free.
bool free_waits_for_its_own_team() {
  const int me = MYTHREAD;
  if (THREADS < 3) return true;
  upccoll_team_t x = UPCCOLL_TEAM_NULL, y = UPCCOLL_TEAM_NULL;
  bool ok = upccoll_team_split(UPC_TEAM_ALL, me <= 1 ? 0 : UPCCOLL_UNDEFINED, me, &x) == UPCCOLL_SUCCESS;
  ok &= upccoll_team_split(UPC_TEAM_ALL, me == 0 || me == 2 ? 0 : UPCCOLL_UNDEFINED, me, &y) == UPCCOLL_SUCCESS;
  buffers b(16);
  for (int i = 0; i < 16; ++i) b.send()[i] = 100 + i, b.recv()[i] = -1;
  upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
  if (me == 0) ok &= upccoll_bcast(b.s, 16, UPC_LONG, b.r, 16, UPC_LONG, 0, x, 0, &h) == UPCCOLL_SUCCESS;
  if (me == 0 || me == 2) upccoll_team_free(y);
  upc_barrier;
  if (me == 1) ok &= upccoll_bcast(b.s, 16, UPC_LONG, b.r, 16, UPC_LONG, 0, x, 0, &h) == UPCCOLL_SUCCESS;
  if (me <= 1) {
    ok &= upccoll_wait_status(h) == UPCCOLL_SUCCESS && on_row("mpi");
    for (int i = 0; i < 16; ++i) ok &= b.recv()[i] == 100 + i;
    upccoll_team_free(x);
  }
  upc_barrier;
  return ok;
}

// Nor does a collective on one team wait for another team's: thread 0 starts
// a broadcast on X = {0, 1} and makes a blocking one on Y = {0, 2}; thread 1
// joins X's only after a barrier that thread 0 reaches after Y's.
bool teams_do_not_wait_for_each_other() {
  const int me = MYTHREAD;
  if (THREADS < 3) return true;
  upccoll_team_t x = UPCCOLL_TEAM_NULL, y = UPCCOLL_TEAM_NULL;
  bool ok = upccoll_team_split(UPC_TEAM_ALL, me <= 1 ? 0 : UPCCOLL_UNDEFINED, me, &x) == UPCCOLL_SUCCESS;
  ok &= upccoll_team_split(UPC_TEAM_ALL, me == 0 || me == 2 ? 0 : UPCCOLL_UNDEFINED, me, &y) == UPCCOLL_SUCCESS;
  buffers b(16), c(16);
  for (int i = 0; i < 16; ++i) b.send()[i] = c.send()[i] = 200 + i, b.recv()[i] = c.recv()[i] = -1;
  upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
  if (me == 0) ok &= upccoll_bcast(b.s, 16, UPC_LONG, b.r, 16, UPC_LONG, 0, x, 0, &h) == UPCCOLL_SUCCESS;
  if (me == 0 || me == 2) {
    ok &= upccoll_bcast(c.s, 16, UPC_LONG, c.r, 16, UPC_LONG, 0, y, 0, nullptr) == UPCCOLL_SUCCESS;
    for (int i = 0; i < 16; ++i) ok &= c.recv()[i] == 200 + i;
  }
  upc_barrier;
  if (me == 1) ok &= upccoll_bcast(b.s, 16, UPC_LONG, b.r, 16, UPC_LONG, 0, x, 0, &h) == UPCCOLL_SUCCESS;
  if (me <= 1) {
    ok &= upccoll_wait_status(h) == UPCCOLL_SUCCESS && on_row("mpi");
    for (int i = 0; i < 16; ++i) ok &= b.recv()[i] == 200 + i;
    upccoll_team_free(x);
  }
  if (me == 0 || me == 2) upccoll_team_free(y);
  upc_barrier;
  return ok;
}

// UPC_OUT_ALLSYNC: when a member's call returns, every member's part is over,
// so it may read the others' receive buffers at once (no barrier between).
bool out_allsync() {
  static upc::shared_array<upc::sptr<void>> recv_of(upc::per_thread(1));
  const int me = MYTHREAD, P = THREADS, per = 300;
  bool ok = true;
  buffers b(per * P);
  std::vector<long> want;
  recv_of[me] = b.r;
  upc_barrier;
  int salt = 700;
  for (int k = bcast; k <= alltoall; ++k)
    for (int round = 0; round < 5; ++round) {
      const int root = round % P;
      prepare(kind(k), me, P, per, root, ++salt, b, want);
      upc_barrier;  // everyone's buffers ready before anyone's data can land
      ok &= start(kind(k), UPC_TEAM_ALL, b.s, b.r, per, root, UPC_IN_MYSYNC | UPC_OUT_ALLSYNC, nullptr) ==
            UPCCOLL_SUCCESS;
      ok &= on_row("mpi");
      // Member (me + 1) % P's first and last received element, read remotely.
      const int t = (me + 1) % P;
      const upc::sptr<void> their_recv = recv_of[t];
      upc::sptr<long, upc::indefinite> there(their_recv);  // shared [] long *
      auto expect = [&](int i) -> long {
        const int blk = i / per, x = i % per;
        switch (kind(k)) {
          case bcast: return blk == 0 ? value(root, 0, x, salt) : -1;
          case scatter: return blk == 0 ? value(root, t, x, salt) : -1;
          case gather: return t == root ? value(blk, 0, x, salt) : -1;
          case allgather: return value(blk, 0, x, salt);
          case alltoall: return value(blk, t, x, salt);
        }
        return -1;
      };
      for (int i : {0, per - 1, per * P - 1})
        if (long got = there[i]; got != expect(i)) {
          std::printf("thread %d: %s OUT_ALLSYNC: thread %d's recv[%d] = %ld, expected %ld\n", me, kinds[k], t, i, got,
                      expect(i));
          ok = false;
        }
      upc_barrier;
    }
  return ok;
}

// Calls that must fail: the codes on the mpi rows must be those of the task
// rows, on every member (each member compares its own two codes).
struct verdicts {
  std::vector<upccoll_return_t> codes;
};
void failing_calls(verdicts& v, int salt) {
  const int me = MYTHREAD, P = THREADS, per = 2;
  buffers b(per * P * 2);
  std::vector<long> want;
  auto record = [&](upccoll_return_t rc) {
    v.codes.push_back(rc);
    upc_barrier;
  };
  prepare(bcast, me, P, per, 0, salt, b, want);
  // Roots that differ (with 1 thread: a root out of range).
  record(upccoll_bcast(b.s, per, UPC_LONG, b.r, per, UPC_LONG, P == 1 ? 1 : me % 2, UPC_TEAM_ALL, 0, nullptr));
  // A gather where the last member sends more than the root takes.
  record(upccoll_gather(b.s, me == P - 1 ? per + 1 : per, UPC_LONG, b.r, per, UPC_LONG, 0, UPC_TEAM_ALL, 0, nullptr));
  // An allgather where one member receives smaller blocks than everyone sends.
  record(upccoll_allgather(b.s, per, UPC_LONG, b.r, me == P - 1 ? per - 1 : per, UPC_LONG, UPC_TEAM_ALL, 0, nullptr));
  // An alltoall whose last member's own call fails (a type that does not exist).
  upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
  upccoll_return_t rc = upccoll_alltoall(b.s, per, me == P - 1 ? upccoll_dtype_t(999) : UPC_LONG, b.r, per, UPC_LONG,
                                         UPC_TEAM_ALL, 0, &h);
  if (rc == UPCCOLL_SUCCESS) rc = upccoll_wait_status(h);
  else if (h != UPCCOLL_INVALID_HANDLE) upccoll_wait(h);
  record(rc);
  // Different sync flags (with one thread, nobody to differ from).
  if (P > 1)
    record(upccoll_scatter(b.s, per, UPC_LONG, b.r, per, UPC_LONG, 0, UPC_TEAM_ALL,
                         me == P - 1 ? UPC_IN_ALLSYNC : UPC_IN_MYSYNC, nullptr));
  // An alltoallv whose last member expects one more long from thread 0 than it sends.
  if (P > 1) {
    const std::size_t n = static_cast<std::size_t>(P), each = static_cast<std::size_t>(per);
    std::vector<std::size_t> c(n, each), d(n), rd(n);
    for (std::size_t k = 0; k < n; ++k) {
      d[k] = k * each;
      rd[k] = k * (each + 1);
    }
    std::vector<std::size_t> rcv = c;
    if (me == P - 1) rcv[0] = each + 1;
    record(upccoll_alltoallv(b.s, c.data(), d.data(), UPC_LONG, b.r, rcv.data(), rd.data(), UPC_LONG, UPC_TEAM_ALL, 0,
                             nullptr));
  }
  // And a good call afterwards still works.
  prepare(alltoall, me, P, per, 0, salt + 1, b, want);
  std::vector<long> after_want = want;
  record(upccoll_alltoall(b.s, per, UPC_LONG, b.r, per, UPC_LONG, UPC_TEAM_ALL, 0, nullptr));
  v.codes.push_back(matches(b, after_want, "alltoall after failures") ? UPCCOLL_SUCCESS : UPCCOLL_ERROR);
}

// The automatic choice: the mpi rows when the team spans hosts, the task rows otherwise.
bool automatic_choice() {
  upc::coll::reset_algorithms();
  const bool across = g_on_mpi && several_hosts();
  const int P = THREADS, per = 8;
  buffers b(per * P);
  std::vector<long> want;
  bool ok = true;
  const char* task_rows[] = {"pull", "pull", "push", "by_destination", "by_destination"};
  for (int k = bcast; k <= alltoall; ++k) {
    prepare(kind(k), MYTHREAD, P, per, 0, 40 + k, b, want);
    ok &= start(kind(k), UPC_TEAM_ALL, b.s, b.r, per, 0, 0, nullptr) == UPCCOLL_SUCCESS;
    ok &= matches(b, want, kinds[k]);
    const std::string ran = upc::coll::last_algorithm();
    if (ran != (across ? "mpi" : task_rows[k])) {
      std::printf("thread %d: %s chose '%s'\n", MYTHREAD, kinds[k], ran.c_str());
      ok = false;
    }
    upc_barrier;
  }
  if (MYTHREAD == 0) std::printf("(threads on %s)\n", across ? "several hosts" : "one host");
  return ok;
}

}  // namespace

int upc_main(int argc, char** argv) {
  g_on_mpi = upc::current_backend() == upc::backend_kind::mpi;
  if (upccoll_initialize(nullptr, nullptr) != UPCCOLL_SUCCESS) return 1;
  if (g_on_mpi) use_rows("mpi");
  if (argc > 1 && std::strcmp(argv[1], "throw") == 0) {
    // The others wait in a broadcast from the last thread, which throws
    // instead of calling: the run must stop with its report, not hang.
    buffers b(8);
    if (MYTHREAD == THREADS - 1 && THREADS > 1) throw std::runtime_error("upccoll_on_mpi deliberately threw");
    upccoll_handle_t h = UPCCOLL_INVALID_HANDLE;
    upccoll_bcast(b.s, 8, UPC_LONG, b.r, 8, UPC_LONG, THREADS - 1, UPC_TEAM_ALL, 0, &h);
    upccoll_wait(h);
    return 1;
  }

  part("every collective, flag family and completion on UPC_TEAM_ALL", every_call(UPC_TEAM_ALL, MYTHREAD, THREADS, 1));

  upccoll_team_t half = UPCCOLL_TEAM_NULL;
  bool ok = upccoll_team_split(UPC_TEAM_ALL, MYTHREAD % 2, -MYTHREAD, &half) == UPCCOLL_SUCCESS;
  int r = 0, n = 0;
  ok = ok && upccoll_team_rank(half, &r) == UPCCOLL_SUCCESS && upccoll_team_size(half, &n) == UPCCOLL_SUCCESS;
  ok = ok && every_call(half, r, n, 7);
  upccoll_team_free(half);
  part("the same on the teams of a split (keys reversed)", ok);

  part("scatterv, gatherv, allgatherv, alltoallv with counts that differ by pair", v_calls(UPC_TEAM_ALL, MYTHREAD, THREADS, 11));
  part("in-place forms", in_place(900));
  part("40 broadcasts in flight, waited for newest first", many_in_flight());
  part("Figure 1: a lock held across start (EX1) or across wait (EX2)", figure1());
  part("UPC_OUT_ALLSYNC: every member's receive buffer complete when a call returns", out_allsync());
  part("freeing a team waits for its own collectives, not another team's", free_waits_for_its_own_team());
  part("a collective on one team is not held up by another team's in flight", teams_do_not_wait_for_each_other());

  // Failing calls: the mpi rows against the task rows. Every member gets the
  // code on the task rows under --check only (without it a member whose own
  // part is done completes first, and a disagreement found after that ends
  // the run: docs/teams-and-collectives-2.md, "Errors"); the meson tests pass it.
  if (upc::check_enabled()) {
    verdicts on_mpi, on_tasks;
    failing_calls(on_mpi, 3000);
    use_task_rows();
    failing_calls(on_tasks, 3000);
    bool same = on_mpi.codes == on_tasks.codes && on_mpi.codes.back() == 0;
    for (std::size_t i = 0; i + 1 < on_mpi.codes.size(); ++i) same &= on_mpi.codes[i] != UPCCOLL_SUCCESS || i + 2 == on_mpi.codes.size();
    if (!same)
      for (std::size_t i = 0; i < on_mpi.codes.size() && i < on_tasks.codes.size(); ++i)
        std::printf("thread %d: failing call %zu: %s on the mpi rows, %s on the task rows\n", MYTHREAD, i,
                    upccoll_error_name(on_mpi.codes[i]), upccoll_error_name(on_tasks.codes[i]));
    part("calls that disagree fail with the task rows' codes on every member", same);
  } else {
    use_task_rows();
    if (MYTHREAD == 0) std::printf("skipped calls that disagree (they need upcrun --check)\n");
  }
  part("the automatic choice: the mpi rows across hosts, the task rows on one", automatic_choice());

  if (upccoll_finalize() != UPCCOLL_SUCCESS) return 1;
  if (MYTHREAD == 0 && !parts::failed_parts) std::printf("upccoll_on_mpi: all parts right on %d threads\n", THREADS);
  return parts::failed_parts ? 1 : 0;
}
