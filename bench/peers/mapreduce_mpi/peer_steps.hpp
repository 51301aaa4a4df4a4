// The steps every peer application takes, as an MR-MPI program strings its
// calls: map one task per element, collate, reduce, gather the result on rank
// 0; the reduce that adds the values of a key (all four apps' reduce); and
// rank 0 reading (int key, value) pairs into an array indexed by key.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "mapreduce.hpp"

namespace mrpeer {

// MR-MPI's map(), collate(), reduce(), gather(1); the number of pairs mapped.
inline std::uint64_t map_collate_reduce_gather(mrmpi::mapreduce& mr, std::int64_t elements, mrmpi::map_function mymap,
                                               void* input, mrmpi::reduce_function myreduce) {
  const std::uint64_t pairs = mr.map(static_cast<int>(elements), mymap, input);
  mr.collate();
  mr.reduce(myreduce, nullptr);
  mr.gather(1);
  return pairs;
}

// reduce(): the key with the sum of its values, each a T.
template <class T>
void add_values(char* key, int keybytes, char* multivalue, int nvalues, int*, mrmpi::key_value* kv, void*) {
  T sum = 0;
  for (int i = 0; i < nvalues; ++i) {
    T v;
    std::memcpy(&v, multivalue + i * sizeof v, sizeof v);
    sum += v;
  }
  kv->add(key, keybytes, &sum, sizeof sum);
}

// The values of (int key, T value) pairs at their keys, 0..keys-1 (zero where none).
template <class T>
std::vector<T> values_by_key(const mrmpi::key_value& kv, int keys) {
  std::vector<T> out(static_cast<std::size_t>(keys), T{});
  kv.for_each([&](const char* k, int, const char* v, int) {
    int key;
    T value;
    std::memcpy(&key, k, sizeof key);
    std::memcpy(&value, v, sizeof value);
    out[static_cast<std::size_t>(key)] += value;
  });
  return out;
}

}  // namespace mrpeer
