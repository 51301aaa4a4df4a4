// The MapReduce-over-MPI library against what each call promises (run on
// several ranks): map() runs every task once and returns the pairs on all
// ranks; aggregate() leaves each pair on the rank its key hashes to and loses
// none; convert() gives each distinct key once, with all its values; reduce()
// with add_values gives each key's sum; gather(n) leaves pairs on ranks 0..n-1
// only. Prints what differs and exits 1; 0 when all holds.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>

#include "mapreduce.hpp"
#include "peer_steps.hpp"

namespace {

constexpr int tasks = 1000, keys = 37;
int failures = 0;

void check(bool ok, const char* what, int rank) {
  if (!ok) {
    std::printf("library_test: rank %d: %s\n", rank, what);
    ++failures;
  }
}

// Task t gives (t % keys, t) and, for even t, ("word<t % 5>", 1): two key types.
void test_map(int t, mrmpi::key_value* kv, void*) {
  const int key = t % keys;
  const long long value = t;
  kv->add(&key, sizeof key, &value, sizeof value);
  if (t % 2 == 0) {
    char word[8];
    const int n = std::snprintf(word, sizeof word, "word%d", t % 5);
    const long long one = 1;
    kv->add(word, n + 1, &one, sizeof one);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    mrmpi::mapreduce mr(MPI_COMM_WORLD, 256);  // small pages: many of them
    const int rank = mr.rank(), ranks = mr.ranks();
    check(mr.map(tasks, test_map, nullptr) == tasks + tasks / 2, "map() did not return every task's pairs", rank);

    check(mr.aggregate() == tasks + tasks / 2, "aggregate() lost or made pairs", rank);
    bool on_their_rank = true;
    mr.kv().for_each([&](const char* k, int kb, const char*, int) {
      on_their_rank = on_their_rank && static_cast<int>(mrmpi::key_hash(k, kb) % static_cast<std::uint32_t>(ranks)) == rank;
    });
    check(on_their_rank, "aggregate() left a pair off the rank its key hashes to", rank);

    check(mr.convert() == keys + 5, "convert() did not give each distinct key once", rank);
    mr.reduce(mrpeer::add_values<long long>, nullptr);
    std::map<std::string, long long> mine;
    mr.kv().for_each([&](const char* k, int kb, const char* v, int) {
      long long sum;
      std::memcpy(&sum, v, sizeof sum);
      if (kb == sizeof(int)) {
        int key;
        std::memcpy(&key, k, sizeof key);
        long long want = 0;
        for (int t = key; t < tasks; t += keys) want += t;
        check(sum == want, "reduce() gave a key another sum than its values'", rank);
      } else {
        const int w = k[4] - '0';
        long long want = 0;
        for (int t = 0; t < tasks; t += 2) want += t % 5 == w;
        check(sum == want, "reduce() gave a word another count than its pairs'", rank);
      }
    });

    const int holders = ranks > 1 ? 2 : 1;
    check(mr.gather(holders) == keys + 5, "gather() lost or made pairs", rank);
    check(rank < holders || mr.kv().pairs() == 0, "gather(n) left pairs on a rank above n-1", rank);
    mr.gather(1);
    check(rank == 0 ? mr.kv().pairs() == keys + 5 : mr.kv().pairs() == 0, "gather(1) did not put every pair on rank 0", rank);
  }
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
