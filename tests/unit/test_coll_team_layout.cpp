// A standard-layout shared array used by a sub-team collective (issue 9): the
// layout of `shared [n] char dst[n*THREADS]` has THREADS blocks whatever team
// uses it, so a member's block is the one with affinity to its thread, found
// with THREADS, never with the team's size. The engine is driven directly (the
// team-based front-ends come later), on a team whose ranks are not its threads'
// numbers, with every algorithm of each collective, on both backends.
#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "../../lib/coll/registry.hpp"
#include "../../lib/coll/team.hpp"
#include "../support/spmd.hpp"
#include "upc/coll.hpp"
#include "upc_castable.h"

namespace {

using upc::shared_address;
using upc::coll::collective;
namespace coll = upc::coll;

constexpr std::size_t n = 24;  // bytes per block

// Members: every thread but those with t % 3 == 1, ranked by descending thread
// number, so rank r is not thread r.
bool member(int t) { return t % 3 != 1; }

char* at(upc::sptr<void> area, int thr, std::size_t offset = 0) {
  shared_address a = area.address();
  a.thread = static_cast<std::uint32_t>(thr);
  a.offset += offset;
  a.phase = 0;
  return static_cast<char*>(upc_cast(upc::sptr<void>(a)));
}

unsigned char pattern(int from, std::size_t i) { return static_cast<unsigned char>(from * 37 + i * 5 + 11); }
constexpr unsigned char poison = 0xEE;

struct areas {
  upc::sptr<void> src, dst;
  int* perm = nullptr;
};

// The request a team-based front-end makes: the standard layouts, in THREADS
// of the run, and the root as a team rank.
coll::request movement(collective k, const areas& a, int root_thread, coll::team& t) {
  coll::request rq{};
  rq.kind = k;
  rq.function = "test (sub-team)";
  rq.members = &t;
  shared_address dst = a.dst.address(), src = a.src.address();
  const std::size_t row = n * static_cast<std::size_t>(THREADS);
  auto single = [](shared_address base) { return coll::endpoint{base, 0, THREADS, false}; };
  auto blocked = [](shared_address base, std::size_t block) { return coll::endpoint{base, block, THREADS, false}; };
  switch (k) {
    case collective::broadcast:
    case collective::scatter:
      src.thread = static_cast<std::uint32_t>(root_thread);
      rq.src = single(src);
      rq.dst = blocked(dst, n);
      break;
    case collective::gather:
      dst.thread = static_cast<std::uint32_t>(root_thread);
      rq.src = blocked(src, n);
      rq.dst = single(dst);
      break;
    case collective::gather_all:
      rq.src = blocked(src, n);
      rq.dst = blocked(dst, row);
      break;
    case collective::exchange:
      rq.src = blocked(src, row);
      rq.dst = blocked(dst, row);
      break;
    default:
      rq.src = blocked(src, n);
      rq.dst = blocked(dst, n);
      break;
  }
  rq.root = t.rank_of(root_thread);
  rq.nbytes = n;
  rq.perm = a.perm;
  rq.flags = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;
  return rq;
}

// Fills this thread's src with its pattern and poisons its dst (every byte a
// thread owns of the two THREADS-row areas).
void prepare(const areas& a) {
  const int me = MYTHREAD;
  const std::size_t row = n * static_cast<std::size_t>(THREADS);
  for (std::size_t i = 0; i < row; ++i) at(a.src, me)[i] = static_cast<char>(pattern(me, i));
  std::memset(at(a.dst, me), poison, row);
}

void expect(const char* what, const char* got, int from, std::size_t from_offset, std::size_t len) {
  for (std::size_t i = 0; i < len; ++i)
    if (static_cast<unsigned char>(got[i]) != pattern(from, from_offset + i))
      throw spmd::check_failed(std::string(what) + " on thread " + std::to_string(MYTHREAD) + ": byte " +
                               std::to_string(i) + " is " + std::to_string(static_cast<unsigned char>(got[i])) +
                               ", expected thread " + std::to_string(from) + "'s byte " + std::to_string(from_offset + i));
}
void expect_poison(const char* what, const char* got, std::size_t len) {
  for (std::size_t i = 0; i < len; ++i)
    if (static_cast<unsigned char>(got[i]) != poison)
      throw spmd::check_failed(std::string(what) + ": thread " + std::to_string(MYTHREAD) + " outside the team had byte " +
                               std::to_string(i) + " of its block written");
}

// What thread `me` must hold after collective k on team t (ranks by key), with
// the standard layouts: blocks of n bytes, rows of n*THREADS bytes, the root's
// single area holding one piece per team rank.
void verify(collective k, const areas& a, const std::vector<int>& threads_of_rank, int root_rank) {
  const int me = MYTHREAD, P = static_cast<int>(threads_of_rank.size());
  const int root = threads_of_rank[static_cast<std::size_t>(root_rank)];
  int my_rank = -1;
  for (int r = 0; r < P; ++r)
    if (threads_of_rank[static_cast<std::size_t>(r)] == me) my_rank = r;
  const char* mine = at(a.dst, me);
  const std::size_t row = n * static_cast<std::size_t>(THREADS);
  if (my_rank < 0) {
    expect_poison(coll::name_of(k), mine, row);
    return;
  }
  switch (k) {
    case collective::broadcast: expect("broadcast", mine, root, 0, n); break;
    case collective::scatter: expect("scatter", mine, root, std::size_t(my_rank) * n, n); break;
    case collective::gather:
      if (me == root)
        for (int r = 0; r < P; ++r) expect("gather", mine + std::size_t(r) * n, threads_of_rank[std::size_t(r)], 0, n);
      break;
    case collective::gather_all:
      for (int r = 0; r < P; ++r) expect("gather_all", mine + std::size_t(r) * n, threads_of_rank[std::size_t(r)], 0, n);
      break;
    case collective::exchange:
      for (int r = 0; r < P; ++r)
        expect("exchange", mine + std::size_t(r) * n, threads_of_rank[std::size_t(r)], std::size_t(my_rank) * n, n);
      break;
    case collective::permute: {
      // perm[thread] = target thread; find who sends to me.
      int from = -1;
      for (int t = 0; t < THREADS; ++t)
        if (a.perm[t] == me) from = t;
      expect("permute", mine, from, 0, n);
      break;
    }
    default: break;
  }
  (void)row;
}

}  // namespace

TEST_CASE("a sub-team collective on standard-layout arrays finds each member's block with THREADS (issue 9)") {
  const collective kinds[] = {collective::broadcast, collective::scatter,  collective::gather,
                              collective::gather_all, collective::exchange, collective::permute};
  for (collective k : kinds) {
    for (const std::string& algo : coll::algorithms(coll::name_of(k))) {
      coll::force_algorithm(coll::name_of(k), algo);
      for (upc::backend_kind b : spmd::backends)
        for (int T : {3, 4, 5, 7}) {
          INFO(std::string(coll::name_of(k)), " ", algo, " ", spmd::name(b), " THREADS=", T);
          spmd::run_ok(T, b, [k] {
            const std::size_t row = n * static_cast<std::size_t>(THREADS);
            areas a{upc_all_alloc(THREADS, row), upc_all_alloc(THREADS, row)};
            upc::sptr<int> perm = upc_all_alloc(THREADS, sizeof(int) * THREADS);
            std::unique_ptr<coll::team> sub;
            const bool in = member(MYTHREAD);
            coll::team::split(coll::team::world(), in, 0, -MYTHREAD, coll::status::ok, sub, "test split");
            std::vector<int> threads_of_rank;
            for (int t = THREADS - 1; t >= 0; --t)
              if (member(t)) threads_of_rank.push_back(t);
            // perm: members rotate by rank (thread numbers), others -1.
            std::vector<int> p(static_cast<std::size_t>(THREADS), -1);
            for (std::size_t r = 0; r < threads_of_rank.size(); ++r)
              p[std::size_t(threads_of_rank[r])] = threads_of_rank[(r + 1) % threads_of_rank.size()];
            a.perm = p.data();
            prepare(a);
            upc_barrier;
            const int root_rank = static_cast<int>(threads_of_rank.size()) / 2;
            if (sub) {
              coll::request rq = movement(k, a, threads_of_rank[std::size_t(root_rank)], *sub);
              coll::run(rq, *sub);
            }
            upc_barrier;
            verify(k, a, threads_of_rank, root_rank);
            upc_barrier;
            if (sub) sub->release("test release");
            (void)perm;
          });
        }
      coll::reset_algorithms();
    }
  }
}

TEST_CASE("a sub-team reduction folds the elements its members own, with THREADS in the layout (issue 9)") {
  for (const char* kind : {"reduce", "prefix_reduce"}) {
    for (const std::string& algo : coll::algorithms(kind)) {
      coll::force_algorithm(kind, algo);
      for (upc::backend_kind b : spmd::backends)
        for (int T : {3, 4, 7}) {
          INFO(kind, " ", algo, " ", spmd::name(b), " THREADS=", T);
          const bool prefix = std::string(kind) == "prefix_reduce";
          spmd::run_ok(T, b, [prefix] {
            constexpr std::size_t blk = 3, nelems = 40;
            upc::shared_array<long, blk> src(nelems), dst(nelems);
            upc::shared_array<long> result(upc::per_thread(1));
            upc_forall (std::size_t i = 0; i < nelems; ++i, &src[i]) {
              src[i] = static_cast<long>(i * i + 1);
              dst[i] = -1;
            }
            std::unique_ptr<coll::team> sub;
            coll::team::split(coll::team::world(), member(MYTHREAD), 0, -MYTHREAD, coll::status::ok, sub, "test split");
            upc_barrier;
            if (sub) {
              coll::request rq{};
              rq.kind = prefix ? collective::prefix_reduce : collective::reduce;
              rq.function = "test (sub-team reduction)";
              rq.members = sub.get();
              rq.in = coll::blocked_array{upc::sptr<long, blk>(&src[0]).address(), sizeof(long), blk, nelems, THREADS};
              rq.out = coll::blocked_array{upc::sptr<long, blk>(&dst[0]).address(), sizeof(long), blk, nelems, THREADS};
              int root_thread = -1;
              for (int t = THREADS - 1; t >= 0 && root_thread < 0; --t)
                if (member(t)) root_thread = t;  // rank 0
              rq.result = upc::sptr<long>(&result[root_thread]).address();
              rq.root = sub->rank_of(root_thread);
              rq.red = coll::bind(coll::elem_type::s_long, coll::elem_op::add);
              rq.flags = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;
              coll::run(rq, *sub);
            }
            upc_barrier;
            // Element i lives on thread (i / blk) % THREADS.
            auto owner = [](std::size_t i) { return static_cast<int>((i / blk) % std::size_t(THREADS)); };
            if (prefix) {
              long running = 0;
              for (std::size_t i = 0; i < nelems; ++i) {
                if (member(owner(i))) running += static_cast<long>(i * i + 1);
                if (owner(i) != MYTHREAD) continue;
                SPMD_CHECK_EQ(static_cast<long>(dst[i]), member(MYTHREAD) ? running : -1L);
              }
            } else {
              long sum = 0;
              for (std::size_t i = 0; i < nelems; ++i)
                if (member(owner(i))) sum += static_cast<long>(i * i + 1);
              int root_thread = -1;
              for (int t = THREADS - 1; t >= 0 && root_thread < 0; --t)
                if (member(t)) root_thread = t;
              if (MYTHREAD == root_thread) SPMD_CHECK_EQ(static_cast<long>(result[MYTHREAD]), sum);
            }
            upc_barrier;
            if (sub) sub->release("test release");
          });
        }
      coll::reset_algorithms();
    }
  }
}
