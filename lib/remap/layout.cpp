// Regions, processor grids and block layouts of the remap operator's arrays
// (include/upc/remap.hpp), and their write versions.
#include <atomic>
#include <numeric>
#include <sstream>

#include "../runtime/static_objects.hpp"
#include "upc/error.hpp"
#include "upc/remap.hpp"

namespace upc::remap {

namespace {

// Block k of p over [lo, hi] (balanced): [lo + k n / p, lo + (k + 1) n / p - 1].
long block_lo(long lo, long n, int p, int k) { return lo + static_cast<long>((static_cast<__int128>(k) * n) / p); }
long block_hi(long lo, long n, int p, int k) { return lo + static_cast<long>((static_cast<__int128>(k + 1) * n) / p) - 1; }
// The block holding v (n > 0, lo <= v <= hi).
int block_holding(long lo, long n, int p, long v) {
  return static_cast<int>(((static_cast<__int128>(v - lo + 1) * p) - 1) / n);
}

void check_rank(const char* what, int rank) {
  if (rank < 1 || rank > max_rank)
    upc::detail::fail(what, "rank " + std::to_string(rank) + " is not between 1 and " + std::to_string(max_rank));
}

}  // namespace

region::region(std::initializer_list<dim> dims) : region(std::vector<dim>(dims)) {}
region::region(const std::vector<dim>& dims) {
  check_rank("upc::remap::region", static_cast<int>(dims.size()));
  rank_ = static_cast<int>(dims.size());
  for (int d = 0; d < rank_; ++d) {
    const dim& x = dims[static_cast<std::size_t>(d)];
    if (x.hi < x.lo)
      upc::detail::fail("upc::remap::region", "dimension " + std::to_string(d + 1) + " is empty (" + std::to_string(x.lo) + ".." +
                                                  std::to_string(x.hi) + ")");
    d_[static_cast<std::size_t>(d)] = x;
  }
}

bool region::contains(const point& i) const noexcept {
  for (int d = 0; d < rank_; ++d)
    if (i[static_cast<std::size_t>(d)] < (*this)[d].lo || i[static_cast<std::size_t>(d)] > (*this)[d].hi) return false;
  return true;
}

std::uint64_t region::elements() const noexcept {
  std::uint64_t n = 1;
  for (int d = 0; d < rank_; ++d) n *= static_cast<std::uint64_t>((*this)[d].stored());
  return n;
}

std::string region::text() const {
  std::ostringstream s;
  s << '[';
  for (int d = 0; d < rank_; ++d) {
    if (d) s << ", ";
    if ((*this)[d].flooded) s << '*';
    s << (*this)[d].lo << ".." << (*this)[d].hi;
  }
  s << ']';
  return s.str();
}

grid::grid(std::initializer_list<int> extents) : grid(std::vector<int>(extents)) {}
grid::grid(const std::vector<int>& extents) {
  check_rank("upc::remap::grid", static_cast<int>(extents.size()));
  rank_ = static_cast<int>(extents.size());
  for (int d = 0; d < rank_; ++d) {
    if (extents[static_cast<std::size_t>(d)] < 1)
      upc::detail::fail("upc::remap::grid", "extent " + std::to_string(extents[static_cast<std::size_t>(d)]) + " of dimension " +
                                                std::to_string(d + 1) + " is not positive");
    g_[static_cast<std::size_t>(d)] = extents[static_cast<std::size_t>(d)];
  }
  if (size() > upc::threads())
    upc::detail::fail("upc::remap::grid", "a " + text() + " grid needs " + std::to_string(size()) + " threads; THREADS is " +
                                              std::to_string(upc::threads()));
}

grid grid::automatic(int rank, int threads) {
  check_rank("upc::remap::grid::automatic", rank);
  // Peel off the largest factor <= the rank-th root each time, so the extents
  // grow towards the last dimension (8, rank 2: 2 x 4; 16, rank 3: 2 x 2 x 4).
  std::vector<int> e;
  int left = threads;
  auto power = [](long k, int d) {
    long p = 1;
    while (d-- > 0) p *= k;
    return p;
  };
  for (int d = rank; d > 1; --d) {
    int f = 1;
    for (int k = 1; power(k, d) <= left; ++k)
      if (left % k == 0) f = k;
    e.push_back(f);
    left /= f;
  }
  e.push_back(left);
  grid g;
  g.rank_ = rank;
  for (int d = 0; d < rank; ++d) g.g_[static_cast<std::size_t>(d)] = e[static_cast<std::size_t>(d)];
  return g;
}

int grid::size() const noexcept {
  int n = 1;
  for (int d = 0; d < rank_; ++d) n *= g_[static_cast<std::size_t>(d)];
  return n;
}

std::array<int, max_rank> grid::coords_of(int thread) const noexcept {
  std::array<int, max_rank> c{};
  for (int d = rank_ - 1; d >= 0; --d) {
    c[static_cast<std::size_t>(d)] = thread % g_[static_cast<std::size_t>(d)];
    thread /= g_[static_cast<std::size_t>(d)];
  }
  return c;
}

int grid::thread_of(const std::array<int, max_rank>& c) const noexcept {
  int t = 0;
  for (int d = 0; d < rank_; ++d) t = t * g_[static_cast<std::size_t>(d)] + c[static_cast<std::size_t>(d)];
  return t;
}

std::string grid::text() const {
  std::string s;
  for (int d = 0; d < rank_; ++d) s += (d ? " x " : "") + std::to_string(g_[static_cast<std::size_t>(d)]);
  return s;
}

layout::layout(const region& r, const grid& g) : r_(r), g_(g) {
  if (r.rank() != g.rank())
    upc::detail::fail("upc::remap::layout", "region " + r.text() + " has rank " + std::to_string(r.rank()) + " but the grid " +
                                                g.text() + " has rank " + std::to_string(g.rank()));
}

layout layout::blocked(std::uint64_t n, std::uint64_t b, int threads) {
  layout l;
  l.r_ = region{{0, static_cast<long>(n) - 1}};
  l.g_ = grid{threads};
  l.cyclic_ = b;
  return l;
}

// A blocked layout's thread-local position arithmetic (UPC 1.3 §6.4.2).
namespace {
std::uint64_t cyclic_owner(std::uint64_t i, std::uint64_t b, int T) { return (i / b) % static_cast<std::uint64_t>(T); }
std::uint64_t cyclic_offset(std::uint64_t i, std::uint64_t b, int T) { return (i / (b * static_cast<std::uint64_t>(T))) * b + i % b; }
}  // namespace

layout::block layout::block_of(int thread) const noexcept {
  block b;
  if (thread < 0 || thread >= g_.size()) return b;
  if (cyclic_) {  // not a box: its first and last index (walks go block by block)
    const std::uint64_t n = static_cast<std::uint64_t>(r_[0].extent()), first = static_cast<std::uint64_t>(thread) * cyclic_;
    if (first >= n) return b;
    b.empty = false;
    b.lo[0] = static_cast<long>(first);
    b.hi[0] = static_cast<long>(n - 1);
    return b;
  }
  const auto c = g_.coords_of(thread);
  b.empty = false;
  for (int d = 0; d < r_.rank(); ++d) {
    const dim& x = r_[d];
    const std::size_t u = static_cast<std::size_t>(d);
    b.lo[u] = block_lo(x.lo, x.extent(), g_[d], c[u]);
    b.hi[u] = block_hi(x.lo, x.extent(), g_[d], c[u]);
    if (b.hi[u] < b.lo[u]) {
      if (!x.flooded) b.empty = true;
      else b.hi[u] = b.lo[u] = std::min(b.lo[u], x.hi);  // a replica with no virtual block: one point all the same
    }
  }
  return b;
}

std::uint64_t layout::local_elements(int thread) const noexcept {
  if (cyclic_) {
    const std::uint64_t n = static_cast<std::uint64_t>(r_[0].extent()), T = static_cast<std::uint64_t>(g_.size());
    const std::uint64_t full = n / (cyclic_ * T), rest = n - full * cyclic_ * T;  // whole rounds, then the last
    const std::uint64_t mine = static_cast<std::uint64_t>(thread) * cyclic_;
    return full * cyclic_ + (rest > mine ? std::min(cyclic_, rest - mine) : 0);
  }
  const block b = block_of(thread);
  if (b.empty) return 0;
  std::uint64_t n = 1;
  for (int d = 0; d < r_.rank(); ++d)
    if (!r_[d].flooded) n *= static_cast<std::uint64_t>(b.hi[static_cast<std::size_t>(d)] - b.lo[static_cast<std::size_t>(d)] + 1);
  return n;
}

std::uint64_t layout::max_local_elements() const noexcept {
  std::uint64_t m = 0;
  for (int t = 0; t < g_.size(); ++t) m = std::max(m, local_elements(t));
  return m;
}

int layout::owner(const point& i) const noexcept {
  if (cyclic_) return static_cast<int>(cyclic_owner(static_cast<std::uint64_t>(i[0]), cyclic_, g_.size()));
  std::array<int, max_rank> c{};
  for (int d = 0; d < r_.rank(); ++d)
    c[static_cast<std::size_t>(d)] = block_holding(r_[d].lo, r_[d].extent(), g_[d], i[static_cast<std::size_t>(d)]);
  return g_.thread_of(c);
}

std::vector<int> layout::holders(const point& i) const {
  std::vector<int> v;
  const int o = owner(i);
  const auto c = g_.coords_of(o);
  for (int t = 0; t < g_.size(); ++t) {
    const auto ct = g_.coords_of(t);
    bool same = true;
    for (int d = 0; d < r_.rank() && same; ++d)
      same = r_[d].flooded || ct[static_cast<std::size_t>(d)] == c[static_cast<std::size_t>(d)];
    if (same) v.push_back(t);
  }
  return v;
}

std::uint64_t layout::local_offset(int thread, const point& i) const noexcept {
  if (cyclic_) return cyclic_offset(static_cast<std::uint64_t>(i[0]), cyclic_, g_.size());
  const block b = block_of(thread);
  std::uint64_t off = 0;
  for (int d = 0; d < r_.rank(); ++d) {
    if (r_[d].flooded) continue;
    const std::size_t u = static_cast<std::size_t>(d);
    off = off * static_cast<std::uint64_t>(b.hi[u] - b.lo[u] + 1) + static_cast<std::uint64_t>(i[u] - b.lo[u]);
  }
  return off;
}

std::uint64_t next_array_id() noexcept {
  static thread_local std::uint64_t run = 0, n = 0;
  if (run != upc::detail::run_serial()) {
    run = upc::detail::run_serial();
    n = 0;
  }
  return ++n;
}

char* array_ref::local_of(int thread) const noexcept {
  shared_address a = storage.address();
  a.thread = static_cast<std::uint32_t>(thread);
  a.phase = 0;
  return upc::detail::raw_address(a);
}

versions::versions() : words_(upc::all_alloc(static_cast<std::size_t>(upc::threads()), sizeof(std::uint64_t))) {
  shared_address a = words_.address();
  a.thread = static_cast<std::uint32_t>(upc::mythread());
  *reinterpret_cast<std::uint64_t*>(upc::detail::raw_address(a)) = 0;
}
versions::~versions() {
  if (std::uncaught_exceptions() == 0) upc::all_free(words_);  // as ~darray
}

void versions::bump() noexcept {
  shared_address a = words_.address();
  a.thread = static_cast<std::uint32_t>(upc::mythread());
  std::atomic_ref<std::uint64_t>(*reinterpret_cast<std::uint64_t*>(upc::detail::raw_address(a))).fetch_add(1, std::memory_order_release);
}

std::uint64_t versions::sum() const noexcept {
  std::uint64_t s = 0;
  for (int t = 0; t < upc::threads(); ++t) {
    shared_address a = words_.address();
    a.thread = static_cast<std::uint32_t>(t);
    s += std::atomic_ref<std::uint64_t>(*reinterpret_cast<std::uint64_t*>(upc::detail::raw_address(a))).load(std::memory_order_acquire);
  }
  return s;
}

}  // namespace upc::remap
