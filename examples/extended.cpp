// The extended collectives of Teijeiro's thesis (<upc_collective_ext.h>) in a
// few lines. Part 1 is the thesis's Listing 3.13: thread 0 holds an image in
// private memory; the rows go to every thread's private memory
// (upc_all_scatter_priv), a 3x3 filter is broadcast in place
// (upc_all_broadcast_in_place_priv), each thread filters its rows, and the
// result comes back to thread 0 (upc_all_gather_priv) — no shared buffers in
// the program. Part 2 is Listing 3.11: two teams (teamutil.h) estimate pi at
// the same time, each with an allreduce on its own team. Part 3 exchanges
// uneven amounts with upc_all_exchange_v_merge_local_get, as NAS IS does
// (Listing 3.18). Every thread checks its answers.
#include <cmath>
#include <cstdio>
#include <vector>

#include "teamutil.h"
#include "upc.h"
#include "upc_collective_ext.h"

namespace {

constexpr int N = 16;  // image rows and columns per thread

int filter_image() {
  const int T = THREADS, rows = N, width = N;  // each thread gets `rows` rows
  std::vector<double> img, filtered;
  std::vector<double> aux(static_cast<std::size_t>(rows * width)), filter(9);
  if (MYTHREAD == 0) {
    img.resize(static_cast<std::size_t>(rows * width * T));
    filtered.resize(img.size());
    for (std::size_t i = 0; i < img.size(); ++i) img[i] = static_cast<double>(i % 97);
    for (int k = 0; k < 9; ++k) filter[static_cast<std::size_t>(k)] = k == 4 ? 0.5 : 1.0 / 16;
  }
  const size_t bytes = static_cast<size_t>(rows * width) * sizeof(double);
  upc_all_scatter_priv(aux.data(), img.data(), bytes, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  upc_all_broadcast_in_place_priv(filter.data(), 9 * sizeof(double), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  // a 3x3 filter within my rows (edges kept as they are)
  std::vector<double> out(aux);
  for (int r = 1; r + 1 < rows; ++r)
    for (int c = 1; c + 1 < width; ++c) {
      double v = 0;
      for (int dr = -1; dr <= 1; ++dr)
        for (int dc = -1; dc <= 1; ++dc)
          v += filter[static_cast<std::size_t>((dr + 1) * 3 + dc + 1)] * aux[static_cast<std::size_t>((r + dr) * width + c + dc)];
      out[static_cast<std::size_t>(r * width + c)] = v;
    }
  upc_all_gather_priv(filtered.data(), out.data(), bytes, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  int wrong = 0;
  if (MYTHREAD == 0) {  // check against the same filter applied sequentially, block by block
    for (int t = 0; t < T; ++t)
      for (int r = 1; r + 1 < rows; ++r)
        for (int c = 1; c + 1 < width; ++c) {
          double v = 0;
          for (int dr = -1; dr <= 1; ++dr)
            for (int dc = -1; dc <= 1; ++dc)
              v += filter[static_cast<std::size_t>((dr + 1) * 3 + dc + 1)] *
                   img[static_cast<std::size_t>((t * rows + r + dr) * width + c + dc)];
          if (std::fabs(v - filtered[static_cast<std::size_t>((t * rows + r) * width + c)]) > 1e-12) ++wrong;
        }
    std::printf("filter: %d rows of %d filtered by %d threads%s\n", rows * T, width, T, wrong ? ": WRONG" : "");
  }
  return wrong;
}

int two_teams_pi() {
  team even, odd;
  init(&even);
  init(&odd);
  if (MYTHREAD == 0)
    for (int t = 0; t < THREADS; ++t) insert(t, t % 2 ? odd : even);
  upc_barrier;
  team& mine = MYTHREAD % 2 ? odd : even;
  upc::shared_array<long> hits{upc::per_thread(1)}, total_even{upc::per_thread(1)}, total_odd{upc::per_thread(1)};
  const long trials = 100000;
  unsigned long x = 12345u + 977u * static_cast<unsigned long>(MYTHREAD);
  long in = 0;
  for (long i = 0; i < trials; ++i) {
    x = x * 6364136223846793005ul + 1442695040888963407ul;
    const double a = static_cast<double>(x >> 11) / 9007199254740992.0;
    x = x * 6364136223846793005ul + 1442695040888963407ul;
    const double b = static_cast<double>(x >> 11) / 9007199254740992.0;
    in += a * a + b * b <= 1.0;
  }
  hits[MYTHREAD] = in;
  upc_barrier;
  // each team sums the counts of its members (the other team's elements take no part)
  upc_all_reduceL_all_team(MYTHREAD % 2 ? total_odd : total_even, hits, UPC_ADD, static_cast<size_t>(THREADS), 1, nullptr,
                           mine, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  upc_barrier;
  int wrong = 0;
  if (MYTHREAD == 0) {
    long sum_even = 0, sum_odd = 0;
    for (int t = 0; t < THREADS; ++t) (t % 2 ? sum_odd : sum_even) += hits[t];
    if (total_even[0] != sum_even || (THREADS > 1 && total_odd[0] != sum_odd)) ++wrong;
    const int members_even = numThreads(even), members_odd = numThreads(odd);
    const double pi = 4.0 * static_cast<double>(sum_even + sum_odd) / static_cast<double>(trials * THREADS);
    std::printf("pi: %.4f from a team of %d and a team of %d%s\n", pi, members_even, members_odd, wrong ? ": WRONG" : "");
    if (std::fabs(pi - 3.14159) > 0.05) ++wrong;
  }
  return wrong;
}

int uneven_exchange() {
  // thread i sends (i + j) % 3 + 1 ints to thread j, from slot j of its block;
  // each thread receives its chunks packed one after the other (merge), into
  // private memory (get), with displacements local to each block (local)
  const int T = THREADS, slot = 3, block = slot * T;
  upc::shared_array<int, upc::dynamic_block> src(static_cast<std::size_t>(block * T), upc::block(static_cast<std::size_t>(block)));
  upc::shared_array<int, upc::dynamic_block> exch(static_cast<std::size_t>(T * T), upc::block(1));
  upc::shared_array<size_t, upc::dynamic_block> counts(static_cast<std::size_t>(T * T), upc::block(1));
  upc::shared_array<int> disp{upc::per_thread(1)};
  for (int k = 0; k < block; ++k) src[MYTHREAD * block + k] = 1000 * MYTHREAD + k;
  for (int j = 0; j < T; ++j) {
    exch[MYTHREAD * T + j] = j * slot;
    counts[MYTHREAD * T + j] = static_cast<size_t>((MYTHREAD + j) % 3 + 1);
  }
  disp[MYTHREAD] = 0;
  upc_barrier;
  std::vector<int> got(static_cast<std::size_t>(block), -1);
  upc_all_exchange_v_merge_local_get(got.data(), src, upc::sptr<int, 1, upc::relaxed>(exch.data()),
                                     upc::sptr<size_t, 1, upc::relaxed>(counts.data()), static_cast<size_t>(block), sizeof(int),
                                     disp, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  int wrong = 0, at = 0;
  for (int i = 0; i < T; ++i)
    for (int k = 0; k < (i + MYTHREAD) % 3 + 1; ++k)
      if (got[static_cast<std::size_t>(at++)] != 1000 * i + MYTHREAD * slot + k) ++wrong;
  if (MYTHREAD == 0) std::printf("exchange: %d ints packed on thread 0%s\n", at, wrong ? ": WRONG" : "");
  return wrong;
}

}  // namespace

int upc_main(int, char**) {
  int wrong = filter_image() + two_teams_pi() + uneven_exchange();
  upc::shared_array<int> all{upc::per_thread(1)};
  all[MYTHREAD] = wrong;
  upc_barrier;
  int sum = 0;
  for (int t = 0; t < THREADS; ++t) sum += all[t];
  if (MYTHREAD == 0) std::printf("%s\n", sum ? "extended: WRONG answers" : "extended: all answers right");
  return sum ? 1 : 0;
}
