// Which of a map()'s nmap tasks a rank runs: MR-MPI's default mapstyle 0
// ("chunk"), a contiguous block of tasks per rank, [r*n/P, (r+1)*n/P) — the
// same block UPC-MR's UPC_MR_BLOCK gives a thread, so both sides map the same
// elements on the same thread/rank.
#pragma once
#include <cstdint>

namespace mrmpi {

struct task_range {
  std::int64_t first, last;  // [first, last)
};

inline task_range chunk_of(std::int64_t nmap, int rank, int ranks) { return {nmap * rank / ranks, nmap * (rank + 1) / ranks}; }

}  // namespace mrmpi
