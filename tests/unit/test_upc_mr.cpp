// UPC-MR (<upc_mr.h>, seed 003 chapter 4): the distributions of ApplyMap
// (Figure 4.1 and edge cases, no run needed), ApplyMap + ApplyReduce against a
// sequential model for every gathering flag, both collective flags, fixed-size
// and variable-size pairs, element-by-element and array-based maps, on both
// backends and THREADS 1-8; and the errors (function, argument, thread).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "../support/spmd.hpp"
#include "upc_mr.h"

namespace {

// ---- distributions ------------------------------------------------------------

const std::vector<int> figure_4_1 = {2, 9, 3, 1, 8, 7, 9, 8, 8};

std::vector<int> owners(int threads, int algorithm, const std::vector<int>& weights, int nelems, int* used = nullptr) {
  std::vector<int> owner(static_cast<std::size_t>(nelems), -1);
  const int u = upc_mr_distribute(threads, nelems, algorithm, weights.empty() ? nullptr : weights.data(), owner.data());
  if (used) *used = u;
  return owner;
}

long long difference(int threads, const std::vector<int>& owner, const std::vector<int>& w) {
  return upc_mr_max_load_difference(threads, static_cast<int>(owner.size()), owner.data(), w.empty() ? nullptr : w.data());
}

std::vector<int> with_threshold(int threshold, const std::vector<int>& w) {
  std::vector<int> v{threshold};
  v.insert(v.end(), w.begin(), w.end());
  return v;
}

TEST_CASE("UPC-MR distributions: Figure 4.1 (9 weighted elements on 3 threads)") {
  const std::vector<int>& w = figure_4_1;
  const auto block = owners(3, UPC_MR_BLOCK, {}, 9);
  CHECK(block == std::vector<int>{0, 0, 0, 1, 1, 1, 2, 2, 2});
  CHECK(difference(3, block, w) == 11);  // 14, 16, 25
  const auto cyclic = owners(3, UPC_MR_CYCLIC, {}, 9);
  CHECK(cyclic == std::vector<int>{0, 1, 2, 0, 1, 2, 0, 1, 2});
  CHECK(difference(3, cyclic, w) == 13);  // 12, 25, 18
  const auto balanced = owners(3, UPC_MR_BALANCED, w, 9);
  // T0 {2,1,8,8} = 19, T1 {9,9} = 18, T2 {3,7,8} = 18
  CHECK(balanced == std::vector<int>{0, 1, 2, 0, 0, 2, 1, 2, 0});
  CHECK(difference(3, balanced, w) == 1);
  int used = -1;
  const auto best = owners(3, UPC_MR_BEST_FIT, with_threshold(5, w), 9, &used);
  CHECK(used == UPC_MR_BALANCED);
  CHECK(best == balanced);
  // a threshold that BLOCK meets (block wins over cyclic when both pass)
  CHECK(owners(3, UPC_MR_BEST_FIT, with_threshold(11, w), 9, &used) == block);
  CHECK(used == UPC_MR_BLOCK);
  owners(3, UPC_MR_BEST_FIT, with_threshold(13, w), 9, &used);
  CHECK(used == UPC_MR_BLOCK);
  owners(3, UPC_MR_BEST_FIT, with_threshold(10, w), 9, &used);
  CHECK(used == UPC_MR_BALANCED);
}

TEST_CASE("UPC-MR distributions: BEST_FIT picks CYCLIC when only it is within the threshold") {
  const std::vector<int> w = {1, 1, 9, 9};  // block: 2 | 18, cyclic: 10 | 10
  int used = -1;
  const auto o = owners(2, UPC_MR_BEST_FIT, with_threshold(0, w), 4, &used);
  CHECK(used == UPC_MR_CYCLIC);
  CHECK(o == std::vector<int>{0, 1, 0, 1});
  CHECK(difference(2, owners(2, UPC_MR_BLOCK, {}, 4), w) == 16);
}

TEST_CASE("UPC-MR distributions: empty input, fewer elements than threads, equal weights, uneven blocks") {
  int used = -1;
  for (int a : {UPC_MR_BLOCK, UPC_MR_CYCLIC, UPC_MR_BALANCED}) {
    CHECK(owners(4, a, a == UPC_MR_BALANCED ? std::vector<int>{1} : std::vector<int>{}, 0, &used).empty());
    CHECK(used == a);
  }
  owners(4, UPC_MR_BEST_FIT, {0}, 0, &used);
  CHECK(used == UPC_MR_BLOCK);
  CHECK(upc_mr_max_load_difference(4, 0, nullptr, nullptr) == 0);

  // two elements on four threads: one each for threads 0 and 1, whatever the algorithm
  const std::vector<int> two = {5, 3};
  CHECK(owners(4, UPC_MR_BLOCK, {}, 2) == std::vector<int>{0, 1});
  CHECK(owners(4, UPC_MR_CYCLIC, {}, 2) == std::vector<int>{0, 1});
  CHECK(owners(4, UPC_MR_BALANCED, two, 2) == std::vector<int>{0, 1});
  CHECK(difference(4, owners(4, UPC_MR_BLOCK, {}, 2), two) == 5);
  owners(4, UPC_MR_BEST_FIT, with_threshold(4, two), 2, &used);
  CHECK(used == UPC_MR_BALANCED);

  // equal weights: balanced is cyclic (ties to the lowest thread); best fit takes block
  const std::vector<int> ones(10, 1);
  CHECK(owners(3, UPC_MR_BALANCED, ones, 10) == owners(3, UPC_MR_CYCLIC, {}, 10));
  const auto block = owners(3, UPC_MR_BEST_FIT, with_threshold(1, ones), 10, &used);
  CHECK(used == UPC_MR_BLOCK);
  CHECK(block == std::vector<int>{0, 0, 0, 0, 1, 1, 1, 2, 2, 2});  // 4, 3, 3
  CHECK(difference(3, block, ones) == 1);
  CHECK(difference(3, block, {}) == 1);  // NULL weights: one per element
  CHECK(owners(1, UPC_MR_BALANCED, ones, 10) == std::vector<int>(10, 0));
}

TEST_CASE("UPC-MR distributions: bad arguments are refused with the argument named") {
  std::vector<int> owner(4);
  const std::vector<int> w = {1, 2, 0, 4}, neg = {-1, 1, 1, 1, 1};
  auto err = [&](int threads, int n, int a, const int* weights) {
    return spmd::error_of([&] { upc_mr_distribute(threads, n, a, weights, owner.data()); });
  };
  CHECK(spmd::contains(err(3, 4, 7, nullptr), "upc_mr_distribute: algorithm = 7 is not UPC_MR_BLOCK"));
  CHECK(spmd::contains(err(3, 4, UPC_MR_BALANCED, nullptr), "weights is NULL, but UPC_MR_BALANCED needs a weight per element"));
  CHECK(spmd::contains(err(3, 4, UPC_MR_BEST_FIT, nullptr), "needs the threshold in weights[0]"));
  CHECK(spmd::contains(err(3, 4, UPC_MR_BALANCED, w.data()), "weights[2] = 0: the weight of element 2 must be a positive integer"));
  CHECK(spmd::contains(err(3, 4, UPC_MR_BEST_FIT, neg.data()), "weights[0] = -1: the threshold of UPC_MR_BEST_FIT must not be negative"));
  CHECK(spmd::contains(err(3, -1, UPC_MR_BLOCK, nullptr), "nelems = -1 is negative"));
  CHECK(spmd::contains(err(0, 4, UPC_MR_BLOCK, nullptr), "threads = 0: must be at least 1"));
}

// ---- ApplyMap + ApplyReduce against a sequential model ---------------------------

constexpr int N = 37;  // input elements

// Element i emits i % 4 pairs: key (7i + k) % 11, value 100 i + k. Fixed pairs:
// an int key and a long long value; variable pairs: the key as a string of
// key % 5 + 1 letters (with its NUL), the value a long long.
struct emitted {
  std::string key;  // the key's bytes
  long long value;
};

thread_local bool variable_keys = false;  // set identically on every thread before each map

std::string key_bytes(int key) {
  if (!variable_keys) return std::string(reinterpret_cast<const char*>(&key), sizeof key);
  return std::string(static_cast<std::size_t>(key % 5 + 1), static_cast<char>('a' + key)) + '\0';
}

std::vector<emitted> pairs_of(int i) {
  std::vector<emitted> out;
  for (int k = 0; k < i % 4; ++k) out.push_back({key_bytes((7 * i + k) % 11), 100LL * i + k});
  return out;
}

int emit_element(int i, void* key, void* value) {
  for (const emitted& e : pairs_of(i))
    upc_mr_emit(key, value, e.key.data(), static_cast<int>(e.key.size()), &e.value, sizeof e.value);
  return 0;
}

int map_one(void* input, void* key, void* value) { return emit_element(*static_cast<int*>(input), key, value); }

// array-based: the input is the int array; this thread takes a block of it
int map_all(void* input, void* key, void* value) {
  const int* ids = static_cast<const int*>(input);
  for (int i = MYTHREAD * N / THREADS; i < (MYTHREAD + 1) * N / THREADS; ++i) emit_element(ids[i], key, value);
  return 0;
}

// What reducefunc saw on this thread, in its order.
thread_local std::vector<emitted> seen;
thread_local int reduce_calls = 0;

int reduce_record(void* key, void* value, int nelems, void* result) {
  ++reduce_calls;
  seen.clear();
  for (int i = 0; i < nelems; ++i) {
    if (variable_keys) {
      const upc_mr_item k = static_cast<upc_mr_item*>(key)[i], v = static_cast<upc_mr_item*>(value)[i];
      long long x;
      SPMD_CHECK_EQ(v.size, static_cast<int>(sizeof x));
      std::memcpy(&x, v.data, sizeof x);
      seen.push_back({std::string(static_cast<const char*>(k.data), static_cast<std::size_t>(k.size)), x});
    } else {
      const char* k = static_cast<const char*>(key) + i * static_cast<int>(sizeof(int));
      seen.push_back({std::string(k, sizeof(int)), static_cast<long long*>(value)[i]});
    }
  }
  int* marker = static_cast<int*>(std::malloc(sizeof(int)));
  *marker = nelems;
  *static_cast<void**>(result) = marker;
  return 0;
}

// The pairs thread t holds after the map, in emission order.
std::vector<emitted> model_of_thread(int t, bool array_map, int algorithm, const std::vector<int>& weights) {
  std::vector<int> owner(N);
  if (array_map) {
    for (int u = 0; u < THREADS; ++u)
      for (int i = u * N / THREADS; i < (u + 1) * N / THREADS; ++i) owner[static_cast<std::size_t>(i)] = u;
  } else {
    upc_mr_distribute(THREADS, N, algorithm, weights.data(), owner.data());
  }
  std::vector<emitted> out;
  for (int i = 0; i < N; ++i)
    if (owner[static_cast<std::size_t>(i)] == t)
      for (const emitted& e : pairs_of(i)) out.push_back(e);
  return out;
}

// Grouped by key bytes, equal keys in thread and emission order.
void group(std::vector<emitted>& v) {
  std::stable_sort(v.begin(), v.end(), [](const emitted& a, const emitted& b) { return a.key < b.key; });
}

bool same(const std::vector<emitted>& a, const std::vector<emitted>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].key != b[i].key || a[i].value != b[i].value) return false;
  return true;
}

void map_reduce_against_model() {
  const int T = THREADS;
  std::vector<int> ids(N);
  std::vector<void*> elems(N);
  std::vector<int> weights(N + 1);  // [0]: BEST_FIT's threshold
  for (int i = 0; i < N; ++i) {
    ids[static_cast<std::size_t>(i)] = i;
    elems[static_cast<std::size_t>(i)] = &ids[static_cast<std::size_t>(i)];
    weights[static_cast<std::size_t>(i + 1)] = i % 4 + 1;
  }
  weights[0] = 2;
  struct map_case {
    bool array_map;
    int algorithm;
  };
  const map_case maps[] = {{false, UPC_MR_BLOCK}, {false, UPC_MR_CYCLIC}, {false, UPC_MR_BALANCED}, {false, UPC_MR_BEST_FIT},
                           {true, -1}};
  const int gathers[] = {UPC_MR_NOCOMM, UPC_MR_ALLCOMM, 0, T - 1};
  for (bool variable : {false, true}) {
    variable_keys = variable;
    for (const map_case& m : maps) {
      const int* w = m.algorithm == UPC_MR_BEST_FIT ? weights.data() : weights.data() + 1;
      const std::vector<int> model_w(w, w + N + (m.algorithm == UPC_MR_BEST_FIT ? 1 : 0));
      const int n = m.array_map ? ApplyMap(map_all, ids.data(), N, UPC_MR_USER_DISTR, UPC_MR_BLOCK, nullptr)
                                : ApplyMap(map_one, elems.data(), N, UPC_MR_FRAMEWORK_DISTR, m.algorithm, const_cast<int*>(w));
      std::vector<std::vector<emitted>> held(static_cast<std::size_t>(T));
      for (int t = 0; t < T; ++t) held[static_cast<std::size_t>(t)] = model_of_thread(t, m.array_map, m.algorithm, model_w);
      SPMD_CHECK_EQ(n, static_cast<int>(held[static_cast<std::size_t>(MYTHREAD)].size()));
      if (!m.array_map && m.algorithm == UPC_MR_BEST_FIT) {
        SPMD_CHECK(upc_mr_last_algorithm() >= UPC_MR_BLOCK && upc_mr_last_algorithm() <= UPC_MR_BALANCED);
      }
      for (int coll : {UPC_MR_COLL, UPC_MR_NOCOLL})
        for (int g : gathers) {
          reduce_calls = 0;
          seen.clear();
          void* r = ApplyReduce(reduce_record, n, g, coll, sizeof(int), sizeof(long long));
          const bool reduces = g == UPC_MR_NOCOMM || g == UPC_MR_ALLCOMM || g == MYTHREAD;
          std::vector<emitted> want;
          if (g == UPC_MR_NOCOMM) {
            want = held[static_cast<std::size_t>(MYTHREAD)];
          } else {
            for (const auto& h : held) want.insert(want.end(), h.begin(), h.end());
          }
          group(want);
          if (!reduces) {
            SPMD_CHECK(r == nullptr);
            SPMD_CHECK_EQ(reduce_calls, 0);
            continue;
          }
          SPMD_CHECK_EQ(reduce_calls, 1);
          SPMD_CHECK(r != nullptr);
          SPMD_CHECK_EQ(*static_cast<int*>(r), static_cast<int>(want.size()));
          std::free(r);
          if (!same(seen, want))
            throw spmd::check_failed("thread " + std::to_string(MYTHREAD) + " of " + std::to_string(T) +
                                     ": reducefunc saw other pairs than the model (" + std::to_string(seen.size()) + " vs " +
                                     std::to_string(want.size()) + "), variable=" + std::to_string(variable) +
                                     " array=" + std::to_string(m.array_map) + " algorithm=" + std::to_string(m.algorithm) +
                                     " gathFlag=" + std::to_string(g) + " collFlag=" + std::to_string(coll));
        }
    }
  }
}

TEST_CASE("UPC-MR: ApplyMap and ApplyReduce against the sequential model, every gathering and collective flag") {
  for (upc::backend_kind b : spmd::backends) {
    for (int T : {1, 2, 3, 4, 5, 8}) spmd::run_ok(T, b, map_reduce_against_model);
    if (spmd::skip_run(3, b)) continue;
    upc::launch_options checked = spmd::options(3, b);  // bounds, single-valued arguments
    checked.check = true;
    const upc::run_result r = upc::run(checked, map_reduce_against_model);
    INFO("checked run, backend=", spmd::name(b), " error: ", r.error);
    CHECK(r.ok());
  }
}

// Values of different sizes too, and a thread that emits nothing.
int map_sparse(void* input, void* key, void* value) {
  const int i = *static_cast<int*>(input);
  if (i % 3 == 0) return 0;
  const std::string k = "k" + std::to_string(i % 5), v(static_cast<std::size_t>(i % 7), 'v');
  upc_mr_emit(key, value, k.c_str(), static_cast<int>(k.size() + 1), v.data(), static_cast<int>(v.size()));
  return 0;
}

thread_local std::string reduced;

int reduce_concat(void* key, void* value, int nelems, void*) {
  reduced.clear();
  for (int i = 0; i < nelems; ++i) {
    const upc_mr_item k = static_cast<upc_mr_item*>(key)[i], v = static_cast<upc_mr_item*>(value)[i];
    reduced += std::string(static_cast<const char*>(k.data)) + "=" +
               std::string(static_cast<const char*>(v.data), static_cast<std::size_t>(v.size)) + ";";
  }
  return 0;  // no result: ApplyReduce returns NULL
}

TEST_CASE("UPC-MR: variable-size keys and values, threads without pairs, a map that emits nothing") {
  for (upc::backend_kind b : spmd::backends)
    for (int T : {2, 3, 7})
      spmd::run_ok(T, b, [] {
        std::vector<int> ids(10);
        std::vector<void*> elems(10);
        for (int i = 0; i < 10; ++i) ids[static_cast<std::size_t>(i)] = i, elems[static_cast<std::size_t>(i)] = &ids[static_cast<std::size_t>(i)];
        // sequentially: pairs of elements 1, 2, 4, 5, 7, 8 grouped by key
        std::vector<std::pair<std::string, std::string>> want;
        for (int i = 0; i < 10; ++i)
          if (i % 3) want.push_back({"k" + std::to_string(i % 5), std::string(static_cast<std::size_t>(i % 7), 'v')});
        std::stable_sort(want.begin(), want.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        std::string expected;
        for (const auto& [k, v] : want) expected += k + "=" + v + ";";
        for (int coll : {UPC_MR_COLL, UPC_MR_NOCOLL})
          for (int g : {UPC_MR_ALLCOMM, 0, 1}) {
            // BLOCK: with 7 threads, threads 3 and 6 get only elements 3 and 6... and some none at all
            const int n = ApplyMap(map_sparse, elems.data(), 10, UPC_MR_FRAMEWORK_DISTR, UPC_MR_BLOCK, nullptr);
            reduced = "untouched";
            void* r = ApplyReduce(reduce_concat, n, g, coll, 0, 0);  // sizes ignored: they differ
            SPMD_CHECK(r == nullptr);
            if (g == UPC_MR_ALLCOMM || g == MYTHREAD) SPMD_CHECK_EQ(reduced, expected);
            else SPMD_CHECK_EQ(reduced, std::string("untouched"));
          }
        // nothing emitted anywhere: reducefunc still runs, with no pairs
        const int n = ApplyMap([](void*, void*, void*) { return 0; }, elems.data(), 10, UPC_MR_FRAMEWORK_DISTR, UPC_MR_CYCLIC, nullptr);
        SPMD_CHECK_EQ(n, 0);
        reduced = "untouched";
        ApplyReduce(reduce_concat, 0, UPC_MR_ALLCOMM, UPC_MR_COLL, 4, 8);
        SPMD_CHECK_EQ(reduced, std::string());
      });
}

// ---- errors ---------------------------------------------------------------------

int map_fails(void*, void*, void*) { return -3; }
int reduce_fails(void*, void*, int, void*) { return -1; }
int reduce_nothing(void*, void*, int, void*) { return 0; }
int map_int_pair(void* input, void* key, void* value) {
  const long long v = 1;
  return upc_mr_emit(key, value, input, sizeof(int), &v, sizeof v) > 0 ? 0 : -1;
}

TEST_CASE("UPC-MR: bad arguments give the function, the argument and the thread") {
  for (upc::backend_kind b : spmd::backends)
    spmd::run_ok(3, b, [] {
      std::vector<int> ids(6, 7), weights(6, 1);
      std::vector<void*> elems(6);
      for (int i = 0; i < 6; ++i) elems[static_cast<std::size_t>(i)] = &ids[static_cast<std::size_t>(i)];
      void* in = elems.data();
      const std::string me = "(thread " + std::to_string(MYTHREAD) + ")";
      SPMD_CHECK_ERROR(ApplyMap(nullptr, in, 6, 0, UPC_MR_BLOCK, nullptr), "ApplyMap: mapfunc is NULL " + me);
      SPMD_CHECK_ERROR(ApplyMap(map_int_pair, in, -2, 0, UPC_MR_BLOCK, nullptr), "ApplyMap: nelems = -2 is negative " + me);
      SPMD_CHECK_ERROR(ApplyMap(map_int_pair, in, 6, 2, UPC_MR_BLOCK, nullptr), "ApplyMap: userDefDistrFlag = 2 is neither 0");
      SPMD_CHECK_ERROR(ApplyMap(map_int_pair, in, 6, 0, 9, nullptr), "ApplyMap: algorithm = 9 is not UPC_MR_BLOCK (0)");
      SPMD_CHECK_ERROR(ApplyMap(map_int_pair, in, 6, 0, UPC_MR_BALANCED, nullptr), "ApplyMap: weights is NULL, but UPC_MR_BALANCED");
      SPMD_CHECK_ERROR(ApplyMap(map_int_pair, nullptr, 6, 0, UPC_MR_CYCLIC, nullptr), "ApplyMap: inputElems is NULL with nelems = 6");
      weights[4] = -5;
      SPMD_CHECK_ERROR(ApplyMap(map_int_pair, in, 6, 0, UPC_MR_BALANCED, weights.data()), "weights[4] = -5");
      SPMD_CHECK_ERROR(ApplyMap(map_fails, in, 6, 0, UPC_MR_CYCLIC, nullptr),
                       "ApplyMap: mapfunc returned -3 for element " + std::to_string(MYTHREAD));
      SPMD_CHECK_ERROR(upc_mr_emit(nullptr, nullptr, "k", 1, "v", 1), "upc_mr_emit: called outside a map function");

      const int n = ApplyMap(map_int_pair, in, 6, 0, UPC_MR_CYCLIC, nullptr);
      SPMD_CHECK_EQ(n, 2);
      SPMD_CHECK_ERROR(ApplyReduce(nullptr, n, UPC_MR_ALLCOMM, 1, 4, 8), "ApplyReduce: reducefunc is NULL " + me);
      SPMD_CHECK_ERROR(ApplyReduce(reduce_nothing, -1, UPC_MR_ALLCOMM, 1, 4, 8), "ApplyReduce: nelems = -1 is negative");
      SPMD_CHECK_ERROR(ApplyReduce(reduce_nothing, 5, UPC_MR_ALLCOMM, 1, 4, 8),
                       "ApplyReduce: nelems = 5, but this thread holds 2 intermediate pairs");
      SPMD_CHECK_ERROR(ApplyReduce(reduce_nothing, n, 3, 1, 4, 8), "ApplyReduce: gathFlag = 3 is not UPC_MR_NOCOMM (-1), UPC_MR_ALLCOMM (-2) or a thread 0..2 " + me);
      SPMD_CHECK_ERROR(ApplyReduce(reduce_nothing, n, -7, 1, 4, 8), "gathFlag = -7");
      SPMD_CHECK_ERROR(ApplyReduce(reduce_nothing, n, UPC_MR_ALLCOMM, 2, 4, 8), "ApplyReduce: collFlag = 2 is neither UPC_MR_NOCOLL (0) nor UPC_MR_COLL (1)");
      SPMD_CHECK_ERROR(ApplyReduce(reduce_nothing, n, UPC_MR_ALLCOMM, 1, -4, 8), "ApplyReduce: sizeKey = -4 is negative");
      SPMD_CHECK_ERROR(ApplyReduce(reduce_nothing, n, UPC_MR_ALLCOMM, 1, 4, -8), "ApplyReduce: sizeValue = -8 is negative");
      SPMD_CHECK_ERROR(ApplyReduce(reduce_nothing, n, UPC_MR_ALLCOMM, 1, 8, 8),
                       "ApplyReduce: sizeKey = 8, but the map emitted keys of 4 bytes " + me);
      SPMD_CHECK_ERROR(ApplyReduce(reduce_nothing, n, UPC_MR_ALLCOMM, 1, 4, 4), "sizeValue = 4, but the map emitted values of 8 bytes");
      SPMD_CHECK_ERROR(ApplyReduce(reduce_fails, n, UPC_MR_NOCOMM, 1, 4, 8), "ApplyReduce: reducefunc returned -1");
      // after all that, a good call works
      SPMD_CHECK(ApplyReduce(reduce_nothing, n, UPC_MR_ALLCOMM, 1, 4, 8) == nullptr);
    });
}

TEST_CASE("UPC-MR: arguments that differ between threads stop the run") {
  for (upc::backend_kind b : spmd::backends) {
    if (!spmd::skip_run(3, b)) {
      const std::string e = spmd::run_failing(3, b, [] {
        std::vector<int> ids(6, 1);
        std::vector<void*> elems(6);
        for (int i = 0; i < 6; ++i) elems[static_cast<std::size_t>(i)] = &ids[static_cast<std::size_t>(i)];
        const int n = ApplyMap(map_int_pair, elems.data(), 6, 0, UPC_MR_BLOCK, nullptr);
        ApplyReduce(reduce_nothing, n, MYTHREAD == 2 ? 1 : 0, UPC_MR_COLL, 4, 8);
      });
      INFO(e);
      CHECK(spmd::contains(e, "ApplyReduce: argument gathFlag must be single-valued (the same on every thread): this thread passed 1, "
                              "thread 0 passed 0 (thread 2)"));
    }
    if (spmd::skip_run(2, b)) continue;
    const std::string m = spmd::run_failing(2, b, [] {
      std::vector<int> ids(4, 1);
      std::vector<void*> elems(4);
      for (int i = 0; i < 4; ++i) elems[static_cast<std::size_t>(i)] = &ids[static_cast<std::size_t>(i)];
      ApplyMap(map_int_pair, elems.data(), MYTHREAD == 1 ? 3 : 4, 0, UPC_MR_BLOCK, nullptr);
    });
    INFO(m);
    CHECK(spmd::contains(m, "ApplyMap: argument nelems must be single-valued (the same on every thread): this thread passed 3, "
                            "thread 0 passed 4 (thread 1)"));
    // Negative values as the caller wrote them (UPC_MR_NOCOMM is -1).
    const std::string g = spmd::run_failing(2, b, [] {
      std::vector<int> ids(4, 1);
      std::vector<void*> elems(4);
      for (int i = 0; i < 4; ++i) elems[static_cast<std::size_t>(i)] = &ids[static_cast<std::size_t>(i)];
      const int n = ApplyMap(map_int_pair, elems.data(), 4, 0, UPC_MR_BLOCK, nullptr);
      ApplyReduce(reduce_nothing, n, MYTHREAD == 1 ? UPC_MR_NOCOMM : UPC_MR_ALLCOMM, UPC_MR_COLL, 4, 8);
    });
    INFO(g);
    CHECK(spmd::contains(g, "ApplyReduce: argument gathFlag must be single-valued (the same on every thread): this thread "
                            "passed -1, thread 0 passed -2 (thread 1)"));
  }
}

}  // namespace
