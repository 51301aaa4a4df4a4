// MR-MPI's KeyValue object (our own, after its documentation): the key/value
// pairs a rank holds, packed into pages of fixed size. A pair is its key's and
// its value's byte counts, then the key and the value, each padded to 8 bytes;
// a pair never straddles two pages, and a pair bigger than a page gets a page
// of its own. Pages are allocated once and never moved, so pointers into them
// stay valid while the object lives (convert() keeps keys by pointer).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace mrmpi {

constexpr std::size_t default_page_bytes = std::size_t{1} << 20;

inline std::size_t padded(std::size_t n) { return (n + 7) & ~std::size_t{7}; }

// The bytes one pair takes in a page (and in an exchange buffer).
inline std::size_t pair_bytes(int keybytes, int valuebytes) {
  return 2 * sizeof(std::int32_t) + padded(static_cast<std::size_t>(keybytes)) + padded(static_cast<std::size_t>(valuebytes));
}

// Writes one pair at `at` (pair_bytes(kb, vb) bytes there); returns the byte after it.
inline char* write_pair(char* at, const void* key, int keybytes, const void* value, int valuebytes) {
  const std::int32_t sizes[2] = {keybytes, valuebytes};
  std::memcpy(at, sizes, sizeof sizes);
  at += sizeof sizes;
  std::memcpy(at, key, static_cast<std::size_t>(keybytes));
  at += padded(static_cast<std::size_t>(keybytes));
  std::memcpy(at, value, static_cast<std::size_t>(valuebytes));
  return at + padded(static_cast<std::size_t>(valuebytes));
}

// Calls f(key, keybytes, value, valuebytes) for each pair packed in [begin, end).
template <class F>
void for_each_packed(const char* begin, const char* end, F&& f) {
  while (begin < end) {
    std::int32_t sizes[2];
    std::memcpy(sizes, begin, sizeof sizes);
    const char* key = begin + sizeof sizes;
    const char* value = key + padded(static_cast<std::size_t>(sizes[0]));
    f(key, sizes[0], value, sizes[1]);
    begin = value + padded(static_cast<std::size_t>(sizes[1]));
  }
}

class key_value {
 public:
  explicit key_value(std::size_t page_bytes = default_page_bytes) : page_bytes_(page_bytes) {}

  // MR-MPI's KeyValue::add: one pair, copied into the current page.
  void add(const void* key, int keybytes, const void* value, int valuebytes) {
    const std::size_t need = pair_bytes(keybytes, valuebytes);
    if (pages_.empty() || pages_.back().used + need > pages_.back().size) {
      pages_.push_back(
          page{std::make_unique<char[]>(need > page_bytes_ ? need : page_bytes_), need > page_bytes_ ? need : page_bytes_, 0});
    }
    page& p = pages_.back();
    write_pair(p.bytes.get() + p.used, key, keybytes, value, valuebytes);
    p.used += need;
    ++pairs_;
  }

  // Appends already packed pairs (a received exchange buffer), page by page.
  void add_packed(const char* begin, const char* end) {
    for_each_packed(begin, end, [&](const char* k, int kb, const char* v, int vb) { add(k, kb, v, vb); });
  }

  // f(key, keybytes, value, valuebytes) for every pair, in the order added.
  template <class F>
  void for_each(F&& f) const {
    for (const page& p : pages_) for_each_packed(p.bytes.get(), p.bytes.get() + p.used, f);
  }

  std::uint64_t pairs() const { return pairs_; }
  std::size_t pages() const { return pages_.size(); }
  std::size_t page_bytes() const { return page_bytes_; }

 private:
  struct page {
    std::unique_ptr<char[]> bytes;
    std::size_t size, used;
  };
  std::size_t page_bytes_;
  std::vector<page> pages_;
  std::uint64_t pairs_ = 0;
};

}  // namespace mrmpi
