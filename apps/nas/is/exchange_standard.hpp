// The key exchange of the original NPB-UPC IS (seed 003, Listing 3.17): every
// thread publishes how many keys it has for each thread and where they start
// (send_infos_shd[j][MYTHREAD], with affinity to itself), then fetches the
// (count, displacement) pairs addressed to it one upc_memget at a time, and then
// the keys themselves, one upc_memget per thread (a memcpy for its own),
// packed one after the other in its private key_buff2.
#pragma once
#include <cstring>
#include <vector>

#include "ranking.hpp"
#include "upc.h"

namespace is {

// sloc is/standard decl begin
struct send_info {
  int count;
  int displ;
};

struct standard_exchange {
  // shared send_info send_infos_shd[THREADS][THREADS]: [j][i] is what thread i sends to j
  upc::shared_array2d<send_info> send_infos_shd{upc::per_thread(1), static_cast<std::size_t>(THREADS)};
  std::vector<send_info> infos = std::vector<send_info>(static_cast<std::size_t>(THREADS));
  // sloc is/standard decl end

  void operator()(rank_data& d) {
    const std::size_t me = static_cast<std::size_t>(MYTHREAD), T = static_cast<std::size_t>(THREADS);
    // sloc is/standard comm begin
    for (std::size_t j = 0; j < T; ++j) send_infos_shd[j][me] = send_info{d.send_count[j], d.send_displ[j]};
    upc_barrier;
    for (std::size_t i = 0; i < T; ++i) upc_memget(&infos[i], &send_infos_shd[me][i], sizeof(send_info));
    std::size_t total_displ = 0;
    for (std::size_t i = 0; i < T; ++i) {
      if (infos[i].count == 0) continue;  // (its displacement may be one past the block)
      if (i == me)
        std::memcpy(&d.key_buff2[total_displ], d.key_buff1 + infos[i].displ, static_cast<std::size_t>(infos[i].count) * sizeof(int));
      else
        upc_memget(&d.key_buff2[total_displ], &d.key_buff1_shd[i * static_cast<std::size_t>(d.dist.block) + static_cast<std::size_t>(infos[i].displ)],
                   static_cast<std::size_t>(infos[i].count) * sizeof(int));
      total_displ += static_cast<std::size_t>(infos[i].count);
    }
    upc_barrier;
    // sloc is/standard comm end
  }
};

}  // namespace is
