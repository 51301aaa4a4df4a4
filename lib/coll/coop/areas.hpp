// The byte areas of one member's buffers that a collective reads and writes,
// and the check that no area read overlaps an area written: a collective whose
// output lands on its own input would read bytes it has already overwritten,
// and give a wrong answer with no error (seed 000 §3.5 rule 6 leaves that
// undefined; we refuse it). Front-ends list the exact areas of a call (the
// blocks of v-variants one by one, an in-place member's own block as read and
// the other blocks as written) and ask for the first overlap: one sort and one
// sweep, O(n log n) in the number of blocks.
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace upc::coll::coop {

struct area {
  std::uint64_t lo = 0, hi = 0;  // [lo, hi): offsets in the member's partition, lo < hi
  bool write = false;
  const char* arg = "";          // "sendbuf"
  int block = -1;                // v-variants: the rank the block is for; -1: the whole area
};

// The first pair (read, written) of areas that share a byte, if any (sorts
// `areas`). Zero-byte areas must not be listed.
inline std::optional<std::pair<area, area>> first_overlap(std::vector<area>& areas) {
  std::sort(areas.begin(), areas.end(), [](const area& a, const area& b) { return a.lo < b.lo; });
  // The area of each kind that reaches furthest among those started so far: a
  // new area overlaps some area of the other kind exactly when it starts before
  // that one ends.
  const area* reach[2] = {nullptr, nullptr};  // [0]: reads, [1]: writes
  for (const area& a : areas) {
    const area* other = reach[a.write ? 0 : 1];
    if (other && other->hi > a.lo) return a.write ? std::make_pair(*other, a) : std::make_pair(a, *other);
    const area*& mine = reach[a.write ? 1 : 0];
    if (!mine || a.hi > mine->hi) mine = &a;
  }
  return std::nullopt;
}

}  // namespace upc::coll::coop
