// NPB IS's `rank`: one iteration of the parallel bucket ranking, as NPB-UPC
// does it. Each thread
//   1. counts its keys per bucket and sorts them into buckets (key_buff1),
//   2. sums the bucket counts of all threads (NPB-UPC's tree of upc_memget),
//   3. assigns ranges of whole buckets to threads, about TOTAL_KEYS/THREADS
//      keys each, which says how many of its keys go to each thread,
//   4. exchanges the keys (the one step the two versions do differently:
//      exchange_standard.hpp, Listing 3.17; exchange_extended.hpp, Listing 3.18),
//   5. ranks the keys it received: a count per key value, then a prefix sum
//      that starts at the number of keys of the threads before it,
//   6. checks the ranks of NPB's five test keys (partial verification).
// The rank routine is the same code for both versions, so its lines count in
// both versions' regions of the programmability table.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "is_class.hpp"
#include "keys.hpp"
#include "upc.h"

namespace is {

// sloc is/standard decl begin
// sloc is/extended decl begin
struct rank_data {
  problem_class cls;
  key_distribution dist;
  int num_buckets, table;  // table: NUM_BUCKETS bucket counts + the TEST_ARRAY_SIZE test keys' values
  std::int64_t my_first;   // global index of my first key

  // shared [B] int key_buff1_shd[B*THREADS]: my keys sorted into buckets, in my block
  upc::shared_array<int, upc::dynamic_block> key_buff1_shd;
  // shared [table] int bucket_size_totals_shd[table*THREADS]: the reduction's work space
  upc::shared_array<int, upc::dynamic_block> bucket_size_totals_shd;
  int* key_buff1;           // my block of key_buff1_shd, privatised
  int* bucket_size_totals;  // my block of bucket_size_totals_shd: the totals after the reduction

  std::vector<int> key_array;   // my keys
  std::vector<int> key_buff2;   // the keys I rank, received from every thread
  std::vector<int> key_counts;  // per key value of my range: counts, then ranks
  std::vector<int> bucket_size, bucket_ptrs, reduce_buffer;
  std::vector<int> bucket_first, bucket_last;  // each thread's range of buckets (empty: first > last)
  std::vector<int> send_count, send_displ;      // my keys for each thread: how many, from where in key_buff1

  // the last iteration's ranking, for the full verification
  std::int64_t local_keys = 0, lesser_keys = 0;
  int min_key_val = 0;
  int passed = 0;  // partial verifications passed on this thread

  explicit rank_data(const problem_class& c)
      : cls(c),
        dist(c.total_keys(), THREADS),
        num_buckets(c.num_buckets()),
        table(c.num_buckets() + test_array_size),
        my_first(dist.first(MYTHREAD)),
        key_buff1_shd(static_cast<std::size_t>(dist.block) * static_cast<std::size_t>(THREADS),
                      upc::block(static_cast<std::size_t>(dist.block))),
        bucket_size_totals_shd(static_cast<std::size_t>(table) * static_cast<std::size_t>(THREADS),
                               upc::block(static_cast<std::size_t>(table))),
        key_buff1((&key_buff1_shd[static_cast<std::size_t>(MYTHREAD) * static_cast<std::size_t>(dist.block)]).local()),
        bucket_size_totals((&bucket_size_totals_shd[static_cast<std::size_t>(MYTHREAD) * static_cast<std::size_t>(table)]).local()),
        key_buff2(static_cast<std::size_t>(dist.block) + 1),
        bucket_size(static_cast<std::size_t>(table)),
        bucket_ptrs(static_cast<std::size_t>(num_buckets)),
        reduce_buffer(static_cast<std::size_t>(table)),
        bucket_first(static_cast<std::size_t>(THREADS)),
        bucket_last(static_cast<std::size_t>(THREADS)),
        send_count(static_cast<std::size_t>(THREADS)),
        send_displ(static_cast<std::size_t>(THREADS)) {}
};
// sloc is/extended decl end
// sloc is/standard decl end

// sloc is/standard comm begin
// sloc is/extended comm begin
// Every thread's bucket counts summed into every thread's bucket_size_totals:
// NPB-UPC's upc_reduced_sum (a binomial tree of upc_memget towards thread 0),
// then every other thread fetches thread 0's totals.
inline void sum_bucket_sizes(rank_data& d) {
  const std::size_t bytes = static_cast<std::size_t>(d.table) * sizeof(int);
  std::memcpy(d.bucket_size_totals, d.bucket_size.data(), bytes);
  upc_barrier;
  for (int step = 1; step < THREADS; step *= 2) {
    if (MYTHREAD % (2 * step) == 0 && MYTHREAD + step < THREADS) {
      upc_memget(d.reduce_buffer.data(), &d.bucket_size_totals_shd[static_cast<std::size_t>(MYTHREAD + step) * d.table], bytes);
      for (int p = 0; p < d.table; ++p) d.bucket_size_totals[p] += d.reduce_buffer[static_cast<std::size_t>(p)];
    }
    upc_barrier;
  }
  if (MYTHREAD != 0) upc_memget(d.bucket_size_totals, &d.bucket_size_totals_shd[0], bytes);
}
// sloc is/extended comm end
// sloc is/standard comm end

// sloc is/standard comp begin
// sloc is/extended comp begin
// Thread j gets whole buckets until the keys assigned so far reach the end of
// its share of the keys (NPB: (j+1)*NUM_KEYS); a bucket that reaches several
// shares at once leaves the threads in between an empty range. Also says how
// many of my keys go to each thread and where they start in key_buff1.
inline void assign_buckets(rank_data& d) {
  const int T = THREADS;
  std::int64_t total = 0, mine = 0;
  int j = 0;
  d.bucket_first[0] = 0;
  for (int b = 0; b < d.num_buckets; ++b) {
    total += d.bucket_size_totals[b];
    mine += d.bucket_size[static_cast<std::size_t>(b)];
    while (j < T - 1 && total >= d.dist.end(j)) {
      d.bucket_last[static_cast<std::size_t>(j)] = b;
      d.send_count[static_cast<std::size_t>(j)] = static_cast<int>(mine);
      mine = 0;
      d.bucket_first[static_cast<std::size_t>(++j)] = b + 1;
    }
  }
  d.bucket_last[static_cast<std::size_t>(T - 1)] = d.num_buckets - 1;
  d.send_count[static_cast<std::size_t>(T - 1)] = static_cast<int>(mine);
  d.send_displ[0] = 0;
  for (int t = 1; t < T; ++t)
    d.send_displ[static_cast<std::size_t>(t)] = d.send_displ[static_cast<std::size_t>(t - 1)] + d.send_count[static_cast<std::size_t>(t - 1)];
}

// One iteration. `exchange(d)` moves every thread's keys for me into
// d.key_buff2 (in thread order) and synchronises as its listing does.
template <class Exchange>
void rank(rank_data& d, Exchange& exchange, int iteration) {
  const int shift = d.cls.bucket_shift(), me = MYTHREAD;
  const auto mine = [&](std::int64_t g) { return g >= d.my_first && g < d.dist.end(me); };

  // NPB changes two keys every iteration
  if (mine(iteration)) d.key_array[static_cast<std::size_t>(iteration - d.my_first)] = iteration;
  if (mine(iteration + max_iterations))
    d.key_array[static_cast<std::size_t>(iteration + max_iterations - d.my_first)] = d.cls.max_key() - iteration;

  // my bucket counts; the test keys' values ride along at the top of the table
  std::fill(d.bucket_size.begin(), d.bucket_size.end(), 0);
  for (int i = 0; i < test_array_size; ++i) {
    const std::int64_t g = d.cls.test_index(i);
    if (mine(g)) d.bucket_size[static_cast<std::size_t>(d.num_buckets + i)] = d.key_array[static_cast<std::size_t>(g - d.my_first)];
  }
  for (const int key : d.key_array) d.bucket_size[static_cast<std::size_t>(key >> shift)]++;

  // my keys sorted into buckets, in key_buff1
  d.bucket_ptrs[0] = 0;
  for (int b = 1; b < d.num_buckets; ++b)
    d.bucket_ptrs[static_cast<std::size_t>(b)] = d.bucket_ptrs[static_cast<std::size_t>(b - 1)] + d.bucket_size[static_cast<std::size_t>(b - 1)];
  for (const int key : d.key_array) d.key_buff1[d.bucket_ptrs[static_cast<std::size_t>(key >> shift)]++] = key;
  // sloc is/extended comp end
  // sloc is/standard comp end

  // sloc is/standard comm begin
  // sloc is/extended comm begin
  sum_bucket_sizes(d);
  // sloc is/extended comm end
  // sloc is/standard comm end

  // sloc is/standard comp begin
  // sloc is/extended comp begin
  assign_buckets(d);
  const int first = d.bucket_first[static_cast<std::size_t>(me)], last = d.bucket_last[static_cast<std::size_t>(me)];
  std::int64_t lesser = 0, local = 0;  // keys of the threads before me; keys I rank
  for (int b = 0; b < first; ++b) lesser += d.bucket_size_totals[b];
  for (int b = first; b <= last; ++b) local += d.bucket_size_totals[b];
  if (d.key_buff2.size() < static_cast<std::size_t>(local)) d.key_buff2.resize(static_cast<std::size_t>(local));
  // sloc is/extended comp end
  // sloc is/standard comp end

  // sloc is/standard comm begin
  // sloc is/extended comm begin
  exchange(d);
  // sloc is/extended comm end
  // sloc is/standard comm end

  // sloc is/standard comp begin
  // sloc is/extended comp begin
  // the smallest and greatest key values my buckets can hold
  const int min_key_val = first << shift, max_key_val = ((last + 1) << shift) - 1;
  d.key_counts.assign(static_cast<std::size_t>(max_key_val - min_key_val + 1), 0);
  int* counts = d.key_counts.data();  // counts[key - min_key_val]
  for (std::int64_t i = 0; i < local; ++i) counts[d.key_buff2[static_cast<std::size_t>(i)] - min_key_val]++;
  if (first <= last) {  // ranks: keys <= each value, counting the threads before me
    counts[0] += static_cast<int>(lesser);
    for (int k = 1; k <= max_key_val - min_key_val; ++k) counts[k] += counts[k - 1];
  }
  // sloc is/extended comp end
  // sloc is/standard comp end

  // partial verification: the rank of each test key (the keys less than it) on
  // the thread whose range holds it
  for (int i = 0; i < test_array_size; ++i) {
    const int k = d.bucket_size_totals[d.num_buckets + i];
    if (k < min_key_val || k > max_key_val) continue;
    const std::int64_t key_rank = k - 1 >= min_key_val ? counts[k - 1 - min_key_val] : lesser;
    if (key_rank != d.cls.expected_rank(i, iteration))
      std::printf("Failed partial verification: iteration %d, thread %d, test key %d (rank %lld, expected %lld)\n", iteration, me, i,
                  static_cast<long long>(key_rank), static_cast<long long>(d.cls.expected_rank(i, iteration)));
    else
      ++d.passed;
  }

  d.local_keys = local;
  d.lesser_keys = lesser;
  d.min_key_val = min_key_val;
}

}  // namespace is
