// The key exchange with the thesis's extended collectives (seed 003,
// Listing 3.18): one upc_all_exchange_v_merge_local_get. The collective reads
// the counts and displacements itself from two shared arrays (the thesis splits
// Listing 3.17's array of structs in two): element i*THREADS+j says what thread
// i sends to thread j — `local`: a displacement within i's block of
// key_buff1_shd; `merge`: thread j packs the chunks from threads 0, 1, ... one
// after the other from disp[j] = 0; `get`: into its private key_buff2.
#pragma once
#include <cstddef>

#include "ranking.hpp"
#include "upc.h"
#include "upc_collective_ext.h"

namespace is {

struct extended_exchange {
  // sloc is/extended decl begin
  const std::size_t cells = static_cast<std::size_t>(THREADS) * static_cast<std::size_t>(THREADS);
  upc::shared_array<int> send_displ_shd{cells};     // shared int send_displ_shd[THREADS*THREADS]
  upc::shared_array<size_t> send_count_shd{cells};  // shared size_t send_count_shd[THREADS*THREADS]
  upc::shared_array<int> disp{upc::per_thread(1)};  // shared int disp[THREADS]: all 0
  // sloc is/extended decl end

  void operator()(rank_data& d) {
    const std::size_t me = static_cast<std::size_t>(MYTHREAD), T = static_cast<std::size_t>(THREADS);
    // sloc is/extended comm begin
    for (std::size_t j = 0; j < T; ++j) {
      send_displ_shd[me * T + j] = d.send_displ[j];
      send_count_shd[me * T + j] = static_cast<size_t>(d.send_count[j]);
    }
    disp[me] = 0;
    upc_all_exchange_v_merge_local_get(d.key_buff2.data(), d.key_buff1_shd, send_displ_shd, send_count_shd,
                                       static_cast<size_t>(d.dist.block), sizeof(int), disp, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    // sloc is/extended comm end
  }
};

}  // namespace is
