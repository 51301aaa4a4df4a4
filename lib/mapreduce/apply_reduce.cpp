// ApplyReduce (seed 003 §4.2.2, Listing 4.1): the "Reduce" stage. The gathering
// flag decides who needs whose pairs (nobody's, every thread all of them, or one
// thread all of them), the collective flag how they move (transfer.cpp); then
// the user's reducefunc combines, in one call, all the pairs a thread holds.
// Pairs whose keys and values all have the sizes the user states move as
// fixed-size elements; otherwise as raw bytes plus an index of their sizes,
// from which the receiver rebuilds where every key and value starts.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "agreement.hpp"
#include "store.hpp"
#include "transfer.hpp"
#include "upc/error.hpp"
#include "upc_mr.h"

namespace {

using upc::detail::fail;
constexpr const char* apply_reduce_name = "ApplyReduce";

// The pairs one thread reduces, in thread order: keys and values back to back,
// and each one's size.
struct pairs {
  std::vector<unsigned char> keys, values;
  std::vector<int> key_sizes, value_sizes;
  std::size_t count() const { return key_sizes.size(); }
};

void check_arguments(int (*reducefunc)(void*, void*, int, void*), int nelems, int gathFlag, int collFlag, int sizeKey,
                     int sizeValue, const upc::mr::pair_store& s) {
  if (s.mapping) fail(apply_reduce_name, "called from inside a map function");
  if (reducefunc == nullptr) fail(apply_reduce_name, "reducefunc is NULL");
  if (nelems < 0) fail(apply_reduce_name, "nelems = " + std::to_string(nelems) + " is negative");
  if (static_cast<std::size_t>(nelems) != s.count())
    fail(apply_reduce_name, "nelems = " + std::to_string(nelems) + ", but this thread holds " + std::to_string(s.count()) +
                " intermediate pairs (pass what ApplyMap returned)");
  if (gathFlag != UPC_MR_NOCOMM && gathFlag != UPC_MR_ALLCOMM && (gathFlag < 0 || gathFlag >= THREADS))
    fail(apply_reduce_name, "gathFlag = " + std::to_string(gathFlag) + " is not UPC_MR_NOCOMM (" + std::to_string(UPC_MR_NOCOMM) +
                "), UPC_MR_ALLCOMM (" + std::to_string(UPC_MR_ALLCOMM) + ") or a thread 0.." + std::to_string(THREADS - 1));
  if (collFlag != UPC_MR_NOCOLL && collFlag != UPC_MR_COLL)
    fail(apply_reduce_name, "collFlag = " + std::to_string(collFlag) + " is neither UPC_MR_NOCOLL (0) nor UPC_MR_COLL (1)");
  if (sizeKey < 0) fail(apply_reduce_name, "sizeKey = " + std::to_string(sizeKey) + " is negative");
  if (sizeValue < 0) fail(apply_reduce_name, "sizeValue = " + std::to_string(sizeValue) + " is negative");
}

// Columns of the rows every thread publishes (agreement.hpp).
enum column { c_gath, c_coll, c_size_key, c_size_value, c_count, c_key_size, c_value_size, c_key_bytes, c_value_bytes };

// The one size every key (value) of every thread has, or sizes_differ.
int common_size(const upc::mr::rows& r, column c) {
  int size = upc::mr::no_pairs_yet;
  for (int t = 0; t < THREADS; ++t) {
    if (r.at(t, c_count) == 0) continue;
    const int s = static_cast<int>(r.at(t, c));
    if (s == upc::mr::sizes_differ || (size != upc::mr::no_pairs_yet && size != s)) return upc::mr::sizes_differ;
    size = s;
  }
  return size;
}

std::vector<long long> column_of(const upc::mr::rows& r, column c) {
  std::vector<long long> v(static_cast<std::size_t>(THREADS));
  for (int t = 0; t < THREADS; ++t) v[static_cast<std::size_t>(t)] = r.at(t, c);
  return v;
}

// Stable order of the pairs by key bytes (memcmp; a shorter key that is a
// prefix of a longer one first): equal keys keep thread and emission order.
std::vector<std::size_t> grouped_by_key(const pairs& p, const std::vector<std::size_t>& key_at, bool fixed, int size_key) {
  std::vector<std::size_t> order(p.count());
  std::iota(order.begin(), order.end(), std::size_t{0});
  if (fixed && size_key <= 16) {
    // short fixed-size keys: a stable radix sort on their bytes, last byte
    // first (bytes where every key agrees cost one counting pass)
    std::vector<std::size_t> next(order.size());
    for (int b = size_key - 1; b >= 0; --b) {
      std::size_t start[257] = {0};
      for (std::size_t i = 0; i < order.size(); ++i) ++start[p.keys[key_at[i] + static_cast<std::size_t>(b)] + 1];
      if (std::count(start + 1, start + 257, order.size()) == 1) continue;
      for (int v = 0; v < 256; ++v) start[v + 1] += start[v];
      for (std::size_t j : order) next[start[p.keys[key_at[j] + static_cast<std::size_t>(b)]]++] = j;
      order.swap(next);
    }
    return order;
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const int na = p.key_sizes[a], nb = p.key_sizes[b];
    const int c = std::memcmp(p.keys.data() + key_at[a], p.keys.data() + key_at[b], static_cast<std::size_t>(std::min(na, nb)));
    return c != 0 ? c < 0 : na < nb;
  });
  return order;
}

std::vector<std::size_t> starts(const std::vector<int>& sizes) {
  std::vector<std::size_t> at(sizes.size());
  std::size_t offset = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    at[i] = offset;
    offset += static_cast<std::size_t>(sizes[i]);
  }
  return at;
}

void* reduce(int (*reducefunc)(void*, void*, int, void*), const pairs& p, bool fixed, int size_key, int size_value) {
  if (p.count() > static_cast<std::size_t>(INT_MAX))
    fail(apply_reduce_name, std::to_string(p.count()) + " pairs to reduce on this thread: more than reducefunc's int nelems can count");
  const std::vector<std::size_t> key_at = starts(p.key_sizes), value_at = starts(p.value_sizes);
  const std::vector<std::size_t> order = grouped_by_key(p, key_at, fixed, size_key);
  const int n = static_cast<int>(p.count());
  void* result = nullptr;
  int status;
  if (fixed) {
    std::vector<unsigned char> keys(p.count() * static_cast<std::size_t>(size_key)),
        values(p.count() * static_cast<std::size_t>(size_value));
    for (std::size_t i = 0; i < order.size(); ++i) {
      if (size_key) std::memcpy(keys.data() + i * static_cast<std::size_t>(size_key), p.keys.data() + key_at[order[i]], static_cast<std::size_t>(size_key));
      if (size_value)
        std::memcpy(values.data() + i * static_cast<std::size_t>(size_value), p.values.data() + value_at[order[i]], static_cast<std::size_t>(size_value));
    }
    status = reducefunc(keys.data(), values.data(), n, &result);
  } else {
    std::vector<upc_mr_item> keys(p.count()), values(p.count());
    for (std::size_t i = 0; i < order.size(); ++i) {
      const std::size_t j = order[i];
      keys[i] = upc_mr_item{p.keys.data() + key_at[j], p.key_sizes[j]};
      values[i] = upc_mr_item{p.values.data() + value_at[j], p.value_sizes[j]};
    }
    status = reducefunc(keys.data(), values.data(), n, &result);
  }
  if (status < 0) fail(apply_reduce_name, "reducefunc returned " + std::to_string(status) + ": a negative value means it failed");
  return result;
}

}  // namespace

void* ApplyReduce(int (*reducefunc)(void*, void*, int, void*), int nelems, int gathFlag, int collFlag, int sizeKey,
                  int sizeValue) {
  upc::mr::pair_store& s = upc::mr::store();
  check_arguments(reducefunc, nelems, gathFlag, collFlag, sizeKey, sizeValue, s);
  const upc::mr::rows r = upc::mr::agree(
      apply_reduce_name, {{"gathFlag", gathFlag}, {"collFlag", collFlag}, {"sizeKey", sizeKey}, {"sizeValue", sizeValue}},
      {static_cast<long long>(s.count()), s.key_size, s.value_size, static_cast<long long>(s.keys.size()),
       static_cast<long long>(s.values.size())});

  // Fixed-size pairs when every key and every value of every thread has one size.
  const int key_size = common_size(r, c_key_size), value_size = common_size(r, c_value_size);
  const bool fixed = key_size != upc::mr::sizes_differ && value_size != upc::mr::sizes_differ;
  if (fixed && key_size >= 0 && key_size != sizeKey)
    fail(apply_reduce_name, "sizeKey = " + std::to_string(sizeKey) + ", but the map emitted keys of " + std::to_string(key_size) + " bytes");
  if (fixed && value_size >= 0 && value_size != sizeValue)
    fail(apply_reduce_name, "sizeValue = " + std::to_string(sizeValue) + ", but the map emitted values of " + std::to_string(value_size) +
                " bytes");

  pairs p;
  if (gathFlag == UPC_MR_NOCOMM) {
    p.keys = s.keys;
    p.values = s.values;
    p.key_sizes = s.key_sizes;
    p.value_sizes = s.value_sizes;
  } else {
    const upc::mr::transfer how{gathFlag == UPC_MR_ALLCOMM ? -1 : gathFlag, collFlag == UPC_MR_COLL};
    const std::vector<long long> counts = column_of(r, c_count);
    if (fixed) {
      p.keys = upc::mr::gather_fixed(how, s.keys.data(), counts, static_cast<std::size_t>(sizeKey));
      p.values = upc::mr::gather_fixed(how, s.values.data(), counts, static_cast<std::size_t>(sizeValue));
      if (how.root < 0 || how.root == MYTHREAD) {
        const std::size_t n = static_cast<std::size_t>(std::accumulate(counts.begin(), counts.end(), 0LL));
        p.key_sizes.assign(n, sizeKey);
        p.value_sizes.assign(n, sizeValue);
      }
    } else {
      // the index (every key's and value's size), then the bytes
      auto ints = [](const std::vector<unsigned char>& b) {
        std::vector<int> v(b.size() / sizeof(int));
        if (!v.empty()) std::memcpy(v.data(), b.data(), b.size());
        return v;
      };
      p.key_sizes = ints(upc::mr::gather_fixed(how, s.key_sizes.data(), counts, sizeof(int)));
      p.value_sizes = ints(upc::mr::gather_fixed(how, s.value_sizes.data(), counts, sizeof(int)));
      p.keys = upc::mr::gather_raw(how, s.keys.data(), column_of(r, c_key_bytes), p.key_sizes);
      p.values = upc::mr::gather_raw(how, s.values.data(), column_of(r, c_value_bytes), p.value_sizes);
    }
    if (how.root >= 0 && how.root != MYTHREAD) return nullptr;
  }
  return reduce(reducefunc, p, fixed, sizeKey, sizeValue);
}
