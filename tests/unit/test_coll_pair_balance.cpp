// The v-variants' count balance (lib/coll/tasks/agreement.hpp): the members'
// shares add up to 0 exactly when every sender and receiver agree, so that a
// member can check every pair — also pairs it is not part of — from one number
// per post. Checked here over random count matrices for all four v-variants,
// then with one count changed anywhere.
#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "../../lib/coll/tasks/agreement.hpp"

namespace tasks = upc::coll::tasks;
using upc::coll::collective;

namespace {

// counts[s][d]: bytes s sends to d. Builds every member's post and staged
// counts as the front-end would, and returns the sum of the shares.
std::uint64_t balance(collective kind, const std::vector<std::vector<std::uint64_t>>& sent,
                      const std::vector<std::vector<std::uint64_t>>& expected, int root) {
  const int P = static_cast<int>(sent.size());
  std::uint64_t sum = 0;
  for (int me = 0; me < P; ++me) {
    tasks::post_data p{};
    p.kind = kind;
    p.root = root;
    std::vector<std::uint64_t> meta;
    auto counts = [&](const std::vector<std::uint64_t>& c) {
      meta.insert(meta.end(), c.begin(), c.end());
      meta.insert(meta.end(), static_cast<std::size_t>(P), 0);  // displacements: unused here
    };
    switch (kind) {
      case collective::member_scatterv:
        if (me == root) counts(sent[root]);
        p.recv_bytes = expected[me][root];
        break;
      case collective::member_gatherv:
        if (me == root) counts(expected[root]);
        p.send_bytes = sent[me][root];
        break;
      case collective::member_gather_allv:
        counts(expected[me]);  // recvcnts[s]: what me expects from s
        p.send_bytes = sent[me][0];
        break;
      default: {  // exchangev: sendcnts, sdispls, recvcnts, rdispls
        counts(sent[me]);
        counts(expected[me]);
      }
    }
    sum += tasks::pair_balance(p, meta.empty() ? nullptr : meta.data(), me, P);
  }
  return sum;
}

}  // namespace

TEST_CASE("pair balance: 0 when every pair agrees, not 0 when any one count differs") {
  std::mt19937_64 rng(20261125);
  for (collective kind : {collective::member_scatterv, collective::member_gatherv, collective::member_gather_allv,
                          collective::member_exchangev})
    for (int P : {1, 2, 3, 5, 16}) {
      INFO("kind=", static_cast<int>(kind), " P=", P);
      const int root = P / 2;
      std::vector<std::vector<std::uint64_t>> sent(P, std::vector<std::uint64_t>(P));
      for (int s = 0; s < P; ++s) {
        const std::uint64_t same = rng() % 4096;  // allgatherv: one block for everyone
        for (int d = 0; d < P; ++d) sent[s][d] = kind == collective::member_gather_allv ? same : rng() % 4096;
      }
      // expected[d][s]: what d expects from s
      std::vector<std::vector<std::uint64_t>> expected(P, std::vector<std::uint64_t>(P));
      for (int s = 0; s < P; ++s)
        for (int d = 0; d < P; ++d) expected[d][s] = sent[s][d];
      CHECK(balance(kind, sent, expected, root) == 0);
      // Every single receiver-side count that matters, off by one.
      for (int d = 0; d < P; ++d)
        for (int s = 0; s < P; ++s) {
          const bool used = kind == collective::member_scatterv  ? s == root
                            : kind == collective::member_gatherv ? d == root
                                                                 : true;
          if (!used) continue;
          auto wrong = expected;
          wrong[d][s] += 1;
          CHECK_MESSAGE(balance(kind, sent, wrong, root) != 0, "receiver ", d, " sender ", s);
        }
    }
}
