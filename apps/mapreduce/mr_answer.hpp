// A digest of each application's whole answer, so that two independent
// implementations (the UPC-MR apps here and the MapReduce-over-MPI peers in
// bench/peers/mapreduce_mpi) can be checked equal by comparing one field of
// their result lines: FNV-1a (64 bits) over the answer's bytes in a fixed
// order — counts and sums in key order, WordC's words sorted with their counts.
// Plain C++, no UPC.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace mrapp {

struct answer_digest {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  void add(const void* bytes, std::size_t n) {
    const unsigned char* p = static_cast<const unsigned char*>(bytes);
    for (std::size_t i = 0; i < n; ++i) hash = (hash ^ p[i]) * 0x100000001b3ULL;
  }
  void add_count(long long c) { add(&c, sizeof c); }
  void add_sum(double s) { add(&s, sizeof s); }
  void add_word(const char* w, long long count) {
    add(w, std::strlen(w) + 1);  // the terminator keeps "ab"+"c" apart from "a"+"bc"
    add_count(count);
  }
  std::string text() const {
    char out[17];
    std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(hash));
    return out;
  }
};

// The digest of n counts (Hist's 768, SpamC's 257) or n sums (LinReg's 6).
inline std::string digest_of_counts(const long long* counts, int n) {
  answer_digest d;
  for (int k = 0; k < n; ++k) d.add_count(counts[k]);
  return d.text();
}
inline std::string digest_of_sums(const double* sums, int n) {
  answer_digest d;
  for (int k = 0; k < n; ++k) d.add_sum(sums[k]);
  return d.text();
}

}  // namespace mrapp
