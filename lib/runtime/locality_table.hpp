// One thread's counts for the locality report (locality.hpp): a small
// open-addressing hash table from a place in the program to its tallies. A place
// is a UPC source line (the file string upcc passed, and the line) or a return
// address in C++ code; both are compared as pointers, which is what makes a
// counted access cheap (no string is looked at until the report is made).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "locality.hpp"

namespace upc::detail::locality {

struct tally {
  std::uint64_t local = 0, local_bytes = 0;
  std::uint64_t near = 0, near_bytes = 0;  // remote, on the accessing thread's node
  std::uint64_t far = 0, far_bytes = 0;    // remote, on another node
  std::uint64_t forall_runs = 0;           // times an every-thread upc_forall began here
  std::uint64_t forall_threads = 0;        // threads that ran it (set when tables merge)
  std::uint64_t remote() const noexcept { return near + far; }
  void add(const tally& o) noexcept {
    local += o.local, local_bytes += o.local_bytes, near += o.near, near_bytes += o.near_bytes;
    far += o.far, far_bytes += o.far_bytes, forall_runs += o.forall_runs, forall_threads += o.forall_threads;
  }
};

// where: a UPC file name (line > 0 or not) or a return address (is_pc).
struct place {
  const void* where = nullptr;
  std::uint32_t line = 0;
  bool is_pc = false;
  bool operator==(const place& o) const noexcept { return where == o.where && line == o.line && is_pc == o.is_pc; }
};

class site_table {
 public:
  struct slot {
    place key;
    tally counts;
  };
  tally& at(const place& k) {
    if (2 * (used_ + 1) > slots_.size()) grow();
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash(k) & mask;; i = (i + 1) & mask) {
      slot& s = slots_[i];
      if (s.key == k) return s.counts;
      if (!s.key.where) {
        s.key = k;
        ++used_;
        return s.counts;
      }
    }
  }
  // Every place counted (empty slots left out).
  template <class F>
  void each(F&& f) const {
    for (const slot& s : slots_)
      if (s.key.where) f(s.key, s.counts);
  }

 private:
  static std::size_t hash(const place& k) noexcept {
    std::uint64_t h = reinterpret_cast<std::uintptr_t>(k.where) * 0x9E3779B97F4A7C15ull;
    h ^= (static_cast<std::uint64_t>(k.line) << 1 | (k.is_pc ? 1u : 0u)) * 0xC2B2AE3D27D4EB4Full;
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
  void grow() {
    std::vector<slot> old(slots_.empty() ? 64 : 2 * slots_.size());
    old.swap(slots_);
    used_ = 0;
    for (const slot& s : old)
      if (s.key.where) at(s.key) = s.counts;
  }
  std::vector<slot> slots_;
  std::size_t used_ = 0;
};

// The report made from every thread's table at the end of a run
// (locality_report.cpp): merged by source line, printed to stderr or written
// to the report file by the process that prints (leader); on the mpi backend
// each rank's rows go there through gather.
void make_report(const std::vector<site_table>& tables, const settings& s, const gather_function& gather, bool leader,
                 bool print);

}  // namespace upc::detail::locality
