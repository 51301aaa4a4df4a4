// The hashing both conformance harnesses (coll_harness.hpp for the standard
// collectives, upccoll_harness.hpp for <upccoll.h>) draw every byte, seed and
// sample from: the same case with the same seed gives the same data on every
// thread, in every run.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace conformance {

inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
inline std::uint64_t hash3(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  return mix(a * 0x100000001b3ull ^ mix(b * 0xc2b2ae3d27d4eb4full ^ mix(c)));
}

// Bytes [from, from+n) of a pattern into p: byte x is byte x%8 of Word(t, x/8, seed),
// so a fill costs one hash per 8 bytes.
template <std::uint64_t (*Word)(int, std::uint64_t, std::uint32_t)>
void fill_pattern(std::uint8_t* p, std::size_t n, int t, std::uint32_t seed, std::uint64_t from = 0) {
  std::size_t i = 0;
  while (i < n) {
    const std::uint64_t x = from + i, w = Word(t, x >> 3, seed);
    for (std::uint64_t b = x & 7; b < 8 && i < n; ++b, ++i) p[i] = static_cast<std::uint8_t>(w >> (8 * b));
  }
}

// The seed of case i of a matrix drawn with `salt` (odd).
inline std::uint32_t seed_of(std::uint64_t salt, std::uint64_t i) {
  return static_cast<std::uint32_t>(hash3(salt, i, 0xC011) | 1);
}

// Keeps `keep` cases of `all`, chosen by the salt (and always the first one).
template <class Case>
std::vector<Case> sample(const std::vector<Case>& all, std::size_t keep, std::uint64_t salt) {
  if (all.size() <= keep) return all;
  std::vector<std::size_t> idx(all.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  for (std::size_t i = idx.size() - 1; i > 1; --i) std::swap(idx[i], idx[1 + hash3(salt, i, 5) % i]);
  idx.resize(keep);
  std::sort(idx.begin(), idx.end());
  std::vector<Case> out;
  for (std::size_t i : idx) out.push_back(all[i]);
  return out;
}

}  // namespace conformance
