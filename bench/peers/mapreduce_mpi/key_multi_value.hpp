// MR-MPI's KeyMultiValue object and convert() (after its documentation): each
// distinct key of a rank's KeyValue once, with the list of all its values
// concatenated (a multi-value) and each value's size. Keys are grouped by a
// hash table over the key bytes; they keep the order of their first pair.
#pragma once
#include <algorithm>
#include <cstddef>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "key_value.hpp"

namespace mrmpi {

class key_multi_value {
 public:
  // convert(): groups kv's pairs by key.
  explicit key_multi_value(const key_value& kv) {
    std::unordered_map<std::string_view, std::size_t> index;  // views into kv's pages
    std::vector<std::size_t> key_of_pair;
    key_of_pair.reserve(static_cast<std::size_t>(kv.pairs()));
    kv.for_each([&](const char* k, int kb, const char*, int vb) {
      auto [it, fresh] = index.try_emplace(std::string_view(k, static_cast<std::size_t>(kb)), keys_.size());
      if (fresh) keys_.push_back({k, kb, 0, 0});
      entry& e = keys_[it->second];
      ++e.nvalues;
      e.bytes += static_cast<std::size_t>(vb);
      key_of_pair.push_back(it->second);
    });
    // Where each key's values and sizes go, then the values copied there.
    std::size_t value_at = 0, size_at = 0;
    for (entry& e : keys_) {
      e.first_value_byte = value_at, e.first_size = size_at;
      value_at += e.bytes, size_at += static_cast<std::size_t>(e.nvalues);
    }
    multivalues_.resize(value_at);
    value_sizes_.resize(size_at);
    std::vector<std::size_t> byte_fill(keys_.size()), size_fill(keys_.size());
    for (std::size_t i = 0; i < keys_.size(); ++i) byte_fill[i] = keys_[i].first_value_byte, size_fill[i] = keys_[i].first_size;
    std::size_t pair = 0;
    kv.for_each([&](const char*, int, const char* v, int vb) {
      const std::size_t key = key_of_pair[pair++];
      std::copy(v, v + vb, multivalues_.data() + byte_fill[key]);
      byte_fill[key] += static_cast<std::size_t>(vb);
      value_sizes_[size_fill[key]++] = vb;
    });
  }

  // f(key, keybytes, multivalue, nvalues, valuebytes) for each distinct key.
  template <class F>
  void for_each(F&& f) const {
    for (const entry& e : keys_)
      f(e.key, e.keybytes, multivalues_.data() + e.first_value_byte, e.nvalues, value_sizes_.data() + e.first_size);
  }

  std::size_t keys() const { return keys_.size(); }

 private:
  struct entry {
    const char* key;  // in the KeyValue's pages, which outlive this object in reduce()
    int keybytes;
    int nvalues;
    std::size_t bytes;
    std::size_t first_value_byte = 0, first_size = 0;
  };
  std::vector<entry> keys_;
  std::vector<char> multivalues_;
  std::vector<int> value_sizes_;
};

}  // namespace mrmpi
