// ApplyReduce's data movement. With collectives, §4.2.2's choice: the _priv
// versions of the vector-variant gathers, since the pairs live in each thread's
// private memory and their number differs between threads:
//   fixed-size elements: upc_all_gather_all_v_priv (every thread gathers) or
//     upc_all_gather_v_rooted_priv (one thread gathers);
//   byte strings: upc_all_gather_all_v_raw_priv or upc_all_gather_v_raw_priv
//     (to thread 0); Appendix A has no rooted raw gather, so a raw gather to
//     another thread is upc_all_vector_copy_raw_priv with one chunk per thread.
// A private source is read as its thread's block of an array that starts at
// thread 0 (docs/extended-collectives.md), so thread t's displacement is t
// blocks of the largest count. Without collectives, every thread publishes its
// elements in a shared buffer of its own (upc_alloc) and the destinations fetch
// them one element per upc_memget.
#include "transfer.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <numeric>

#include "upc.h"
#include "upc_collective_ext.h"

namespace upc::mr {

namespace {

constexpr upc_flag_t sync_flags = UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC;

bool receives(const transfer& how) { return how.root < 0 || how.root == MYTHREAD; }

long long sum(const std::vector<long long>& v) { return std::accumulate(v.begin(), v.end(), 0LL); }

// Byte strings through the _raw collectives (also fixed-size elements whose
// displacements would not fit the int arguments of the typed forms).
void raw_collective(const transfer& how, unsigned char* dst, const void* mine, const std::vector<long long>& bytes) {
  const int me = MYTHREAD, T = THREADS;
  const std::size_t block = static_cast<std::size_t>(*std::max_element(bytes.begin(), bytes.end()));
  const std::size_t total = static_cast<std::size_t>(sum(bytes));
  upc::shared_array<size_t> ddisp{upc::per_thread(1)}, sdisp{upc::per_thread(1)}, nbytes{upc::per_thread(1)};
  sdisp[me] = static_cast<size_t>(me) * block;
  nbytes[me] = static_cast<size_t>(bytes[static_cast<std::size_t>(me)]);
  if (how.root < 0) {
    ddisp[me] = 0;  // the start of each thread's private destination
    upc_all_gather_all_v_raw_priv(dst, mine, ddisp, sdisp, nbytes, block, sync_flags);
  } else if (how.root == 0) {
    upc_all_gather_v_raw_priv(dst, mine, sdisp, nbytes, block, sync_flags);
  } else {
    // chunk t: thread t's bytes to the root's buffer (block `total` of an array from thread 0), after threads < t
    std::size_t before = 0;
    for (int t = 0; t < me; ++t) before += static_cast<std::size_t>(bytes[static_cast<std::size_t>(t)]);
    ddisp[me] = static_cast<size_t>(how.root) * total + before;
    upc_all_vector_copy_raw_priv(dst, mine, ddisp, sdisp, nbytes, T, total, block, sync_flags);
  }
}

// Publishes this thread's bytes; the destinations take them element by element.
void one_by_one(const transfer& how, unsigned char* dst, const void* mine, const std::vector<long long>& bytes,
                const std::vector<std::size_t>& element_sizes) {
  const int me = MYTHREAD, T = THREADS;
  upc::shared_array<upc::sptr<char, upc::indefinite>> published{upc::per_thread(1)};
  const std::size_t my_bytes = static_cast<std::size_t>(bytes[static_cast<std::size_t>(me)]);
  upc::sptr<char, upc::indefinite> buffer = upc_alloc(std::max<std::size_t>(my_bytes, 1));
  if (my_bytes) std::memcpy(buffer.local(), mine, my_bytes);
  published[me] = buffer;
  upc_barrier;
  if (receives(how)) {
    std::size_t at = 0, element = 0;
    for (int t = 0; t < T; ++t) {
      const upc::sptr<char, upc::indefinite> from = published[t];
      for (std::size_t got = 0; got < static_cast<std::size_t>(bytes[static_cast<std::size_t>(t)]); ++element) {
        const std::size_t n = element_sizes[element];
        if (n) upc_memget(dst + at, from + static_cast<std::ptrdiff_t>(got), n);
        got += n;
        at += n;
      }
    }
  }
  upc_barrier;  // nobody reads the buffers any more
  upc_free(buffer);
}

}  // namespace

std::vector<unsigned char> gather_fixed(const transfer& how, const void* mine, const std::vector<long long>& counts,
                                        std::size_t unit) {
  const long long total = sum(counts);
  std::vector<unsigned char> out;
  if (total == 0 || unit == 0) return out;  // every thread knows: nobody calls a collective
  if (receives(how)) out.resize(static_cast<std::size_t>(total) * unit);
  const int me = MYTHREAD, T = THREADS;
  std::vector<long long> bytes(counts.size());
  for (std::size_t t = 0; t < counts.size(); ++t) bytes[t] = counts[t] * static_cast<long long>(unit);
  if (!how.collectives) {
    std::vector<std::size_t> sizes(static_cast<std::size_t>(receives(how) ? total : 0), unit);
    one_by_one(how, out.data(), mine, bytes, sizes);
    return out;
  }
  const long long block = *std::max_element(counts.begin(), counts.end());
  if (block * T > INT_MAX) {  // displacements of the typed forms are ints
    raw_collective(how, out.data(), mine, bytes);
    return out;
  }
  upc::shared_array<int> ddisp{upc::per_thread(1)}, sdisp{upc::per_thread(1)};
  upc::shared_array<size_t> nelems{upc::per_thread(1)};
  sdisp[me] = static_cast<int>(me * block);
  nelems[me] = static_cast<size_t>(counts[static_cast<std::size_t>(me)]);
  if (how.root < 0) {
    ddisp[me] = 0;
    upc_all_gather_all_v_priv(out.data(), mine, ddisp, sdisp, nelems, static_cast<size_t>(block), unit, sync_flags);
  } else {
    upc_all_gather_v_rooted_priv(out.data(), mine, sdisp, nelems, static_cast<size_t>(block), unit, how.root, sync_flags);
  }
  return out;
}

std::vector<unsigned char> gather_raw(const transfer& how, const void* mine, const std::vector<long long>& bytes,
                                      const std::vector<int>& sizes) {
  const long long total = sum(bytes);
  std::vector<unsigned char> out;
  if (total == 0) return out;
  if (receives(how)) out.resize(static_cast<std::size_t>(total));
  if (how.collectives) {
    raw_collective(how, out.data(), mine, bytes);
  } else {
    std::vector<std::size_t> element_sizes(sizes.begin(), sizes.end());
    one_by_one(how, out.data(), mine, bytes, element_sizes);
  }
  return out;
}

}  // namespace upc::mr
