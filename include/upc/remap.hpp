// The remap operator of seed 004 (ZPL's #: Deitz, Chamberlain, Choi, Snyder):
// arbitrary gather and scatter over distributed arrays (docs/remap.md).
//
//   ZPL                                   upcemu
//   region R = [1..n, 1..n];              upc::remap::region R{{1, n}, {1, n}};
//   var A : [R] double;                   upc::remap::darray<double> A(R);   (collective)
//   var Row : [*, 1..n] double;           upc::remap::darray<double> Row({dim::flood(1, n), {1, n}});
//   [R] B := A#[Index2, Index1];          upc::remap::gather(B, A, {Index2, Index1});
//   [R] B#[Index2, Index1] := A;          upc::remap::scatter(B, {Index2, Index1}, A);
//   [R] B#[M, Index2] += A;               upc::remap::scatter(B, {M, Index2}, A, upc::remap::plus);
//   ((Index2+Index1-2)%n)+1               upc::remap::expr([n](const point& i) { return (i[1] + i[0] - 2) % n + 1; })
//
// A darray is distributed in blocks over a processor grid of THREADS (one grid
// dimension per array dimension, chosen as square as possible unless given);
// a flooded dimension (`*`) is replicated: every thread along that grid
// dimension stores the same values. Flooded dimensions carry a virtual range
// (dim::flood(lo, hi)) that says which replica an index in that dimension
// selects, as the CG transpose's src_ind of seed 004 §4.3 relies on.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <exception>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "upc/alloc.hpp"
#include "upc/error.hpp"
#include "upc/runtime.hpp"
#include "upc/sptr.hpp"

namespace upc::remap {

constexpr int max_rank = 4;
using point = std::array<long, max_rank>;  // (i1, …, ir); entries past the rank are 0

// One dimension of a region: lo..hi, or flooded (*) with a virtual range.
struct dim {
  long lo = 1, hi = 0;
  bool flooded = false;
  dim() = default;
  dim(long l, long h) : lo(l), hi(h) {}
  static dim flood(long l, long h) {
    dim d(l, h);
    d.flooded = true;
    return d;
  }
  static dim flood() { return flood(1, 1); }
  long extent() const noexcept { return hi >= lo ? hi - lo + 1 : 0; }   // of the (virtual) range
  long stored() const noexcept { return flooded ? 1 : extent(); }       // elements kept per index range
  friend bool operator==(const dim&, const dim&) = default;
};

// An index set of rank 1-4 (ZPL's region).
class region {
 public:
  region() = default;
  region(std::initializer_list<dim> dims);
  explicit region(const std::vector<dim>& dims);
  int rank() const noexcept { return rank_; }
  const dim& operator[](int d) const noexcept { return d_[static_cast<std::size_t>(d)]; }
  // Whether i is an index of the region (in a flooded dimension: of its virtual range).
  bool contains(const point& i) const noexcept;
  std::uint64_t elements() const noexcept;  // stored elements (flooded dimensions count once)
  std::string text() const;                 // "[1..4, *1..8]"
  friend bool operator==(const region&, const region&) = default;

 private:
  int rank_ = 0;
  std::array<dim, max_rank> d_{};
};

// A processor grid over (up to) THREADS: extents per dimension, row-major.
class grid {
 public:
  grid() = default;
  grid(std::initializer_list<int> extents);
  explicit grid(const std::vector<int>& extents);
  // As square as possible, larger extents last (8 threads, rank 2: 2 x 4).
  static grid automatic(int rank, int threads);
  int rank() const noexcept { return rank_; }
  int operator[](int d) const noexcept { return g_[static_cast<std::size_t>(d)]; }
  int size() const noexcept;
  std::array<int, max_rank> coords_of(int thread) const noexcept;  // thread < size()
  int thread_of(const std::array<int, max_rank>& c) const noexcept;
  std::string text() const;  // "2 x 4"
  friend bool operator==(const grid&, const grid&) = default;

 private:
  int rank_ = 0;
  std::array<int, max_rank> g_{1, 1, 1, 1};
};

// A region distributed in blocks over a grid (balanced: extents differ by at
// most one); flooded dimensions replicated along their grid dimension.
class layout {
 public:
  layout() = default;
  layout(const region& r, const grid& g);
  // A UPC blocked shared array, shared [b] T[n] (from thread 0, phase 0):
  // indices 0..n-1, blocks of b dealt to the threads in turn.
  static layout blocked(std::uint64_t n, std::uint64_t b, int threads);
  std::uint64_t cyclic_block() const noexcept { return cyclic_; }  // b of a blocked layout, 0 otherwise
  const region& reg() const noexcept { return r_; }
  const grid& procs() const noexcept { return g_; }
  int rank() const noexcept { return r_.rank(); }

  struct block {
    point lo{}, hi{};  // per dimension (flooded: the thread's part of the virtual range)
    bool empty = true;
  };
  block block_of(int thread) const noexcept;
  std::uint64_t local_elements(int thread) const noexcept;
  std::uint64_t max_local_elements() const noexcept;
  // The thread whose copy of element i `reader` reads: the owner of each
  // distributed dimension; in a flooded dimension the replica whose virtual
  // block holds i's point there. i must be in the region.
  int owner(const point& i) const noexcept;
  // Every thread holding element i (several when a dimension is flooded).
  std::vector<int> holders(const point& i) const;
  // Element i's position in `thread`'s block (row-major; flooded dimensions add nothing).
  std::uint64_t local_offset(int thread, const point& i) const noexcept;
  friend bool operator==(const layout&, const layout&) = default;

 private:
  region r_;
  grid g_;
  std::uint64_t cyclic_ = 0;
};

// Visits a block's indices in row-major order (a flooded dimension has one),
// with their running position: f(point, position). Empty blocks: nothing.
template <class F>
void walk_block(const layout& lay, const layout::block& b, F&& f) {
  if (b.empty) return;
  const int r = lay.rank();
  point i = b.lo;
  std::uint64_t k = 0;
  while (true) {
    f(i, k++);
    int d = r - 1;
    for (; d >= 0; --d) {
      const std::size_t u = static_cast<std::size_t>(d);
      if (!lay.reg()[d].flooded && i[u] < b.hi[u]) {
        ++i[u];
        break;
      }
      i[u] = b.lo[u];
    }
    if (d < 0) return;
  }
}

// Per-array write versions, one word per thread in shared memory: every
// write path bumps the writer's word, so a schedule built from a map array
// can tell, on every thread alike, whether any thread changed it (seed 004
// §4.5.1's map saving).
class versions {
 public:
  versions();  // collective
  ~versions();
  versions(const versions&) = delete;
  versions& operator=(const versions&) = delete;
  void bump() noexcept;
  std::uint64_t sum() const noexcept;  // the same on every thread between writes
 private:
  sptr<void> words_;
};

// The type-erased view of a distributed array the operator works on.
struct array_ref {
  const layout* lay = nullptr;
  sptr<void> storage;       // one block per thread: its local elements
  std::size_t elem = 0;     // bytes per element
  const versions* version = nullptr;
  std::uint64_t id = 0;     // identity of the array (a schedule's key)
  const char* name = "";
  bool tracked = true;      // every write bumps `version` (a darray; not a shared_view: UPC writes go round it)
  char* local_of(int thread) const noexcept;
};

// The identity of the next array of this thread (the same sequence on every
// thread: arrays are constructed collectively), restarting with each run.
std::uint64_t next_array_id() noexcept;

// A distributed array of T over a region (collective: every thread constructs
// it with the same arguments, in the same order).
template <class T>
class darray {
 public:
  explicit darray(const region& r, const char* name = "array") : darray(r, grid::automatic(r.rank(), upc::threads()), name) {}
  darray(const region& r, const grid& g, const char* name = "array") : layout_(r, g), name_(name) {
    storage_ = upc::all_alloc(static_cast<std::size_t>(upc::threads()),
                              static_cast<std::size_t>(std::max<std::uint64_t>(1, layout_.max_local_elements())) * sizeof(T));
    id_ = next_id();
  }
  // Collective, like the construction; skipped while a failure unwinds the
  // thread (the other threads are stopping, and the run frees the heap).
  ~darray() {
    if (std::uncaught_exceptions() == 0) upc::all_free(storage_);
  }
  darray(const darray&) = delete;
  darray& operator=(const darray&) = delete;

  const layout& lay() const noexcept { return layout_; }
  const region& reg() const noexcept { return layout_.reg(); }
  // My block: its bounds and its elements (row-major). Mutable access counts as a write.
  layout::block my_block() const noexcept { return layout_.block_of(upc::mythread()); }
  T* local() {
    version_.bump();
    return reinterpret_cast<T*>(ref().local_of(upc::mythread()));
  }
  const T* local() const noexcept { return reinterpret_cast<const T*>(ref().local_of(upc::mythread())); }
  std::uint64_t local_size() const noexcept { return layout_.local_elements(upc::mythread()); }
  // Element i, wherever it is (a flooded dimension: its owner's copy).
  T get(const point& i) const {
    const int t = layout_.owner(i);
    T v;
    std::memcpy(&v, ref().local_of(t) + layout_.local_offset(t, i) * sizeof(T), sizeof(T));
    return v;
  }
  // Writes element i into every copy of it.
  void set(const point& i, const T& v) {
    version_.bump();
    for (int t : layout_.holders(i)) std::memcpy(ref().local_of(t) + layout_.local_offset(t, i) * sizeof(T), &v, sizeof(T));
  }
  // f(point, T&) for each element of my block, in row-major order (a write).
  template <class F>
  void for_each_mine(F&& f) {
    T* data = local();
    each_index(my_block(), [&](const point& i, std::uint64_t k) { f(i, data[k]); });
  }
  // Visits a block's indices in row-major order with their running position.
  template <class F>
  void each_index(const layout::block& b, F&& f) const {
    walk_block(layout_, b, f);
  }
  array_ref ref() const noexcept { return array_ref{&layout_, storage_, sizeof(T), &version_, id_, name_}; }
  const versions& version() const noexcept { return version_; }
  void touched() noexcept { version_.bump(); }  // the operator wrote it

 private:
  static std::uint64_t next_id() { return next_array_id(); }
  layout layout_;
  sptr<void> storage_;
  versions version_;
  std::uint64_t id_ = 0;
  const char* name_;
};

// A UPC shared array seen by the operator: `shared [B] T a[n]` (or memory
// from upc_all_alloc with blocks of B elements), from thread 0, phase 0. It is
// the form a UPC program uses without the darray type: gather(dst, src, {idx})
// with three views gives dst[i] = src[idx[i]] (collective: every thread makes
// the same views, in the same order).
template <class T>
class shared_view {
 public:
  template <std::size_t B, upc::consistency C>
  shared_view(upc::sptr<T, B, C> a, std::uint64_t n, const char* name = "shared array")
      : shared_view(sptr<void>(a), n, B == upc::indefinite ? n : B, name) {
    static_assert(B != upc::dynamic_block, "a dynamic-block pointer: use the (pointer, n, block) constructor");
  }
  shared_view(sptr<void> a, std::uint64_t n, std::uint64_t block, const char* name = "shared array")
      : layout_(layout::blocked(n, std::max<std::uint64_t>(block, 1), upc::threads())), storage_(a), name_(name) {
    const shared_address at = a.address();
    if (at.thread != 0 || at.phase != 0)
      upc::detail::fail("upc::remap::shared_view", std::string(name) + " starts on thread " + std::to_string(at.thread) +
                                                        " at phase " + std::to_string(at.phase) +
                                                        ": the operator takes arrays from thread 0, phase 0");
    id_ = next_array_id();
  }
  const layout& lay() const noexcept { return layout_; }
  // Writes through pointers-to-shared are not seen: a remap by a shared
  // index array builds its schedule every time (no map saving).
  array_ref ref() const noexcept { return array_ref{&layout_, storage_, sizeof(T), &version_, id_, name_, false}; }

 private:
  layout layout_;
  sptr<void> storage_;
  versions version_;
  std::uint64_t id_ = 0;
  const char* name_;
};

// A map of the operator: a map array (darray<long> over the remap's region
// and layout), an point map (Index1 … Index4) or an expression of the point.
struct map {
  enum class kind : std::uint8_t { array, index_of, expression } k = kind::index_of;
  array_ref array{};
  int dimension = 0;
  std::function<long(const point&)> f;
  std::uint64_t key = 0;  // an expression's identity for map saving (the same key: the same values)
  map(const darray<long>& a) : k(kind::array), array(a.ref()) {}  // NOLINT: maps convert implicitly, as in ZPL
  map(const shared_view<long>& a) : k(kind::array), array(a.ref()) {}  // NOLINT: an index array
  static map index_of(int d) {
    map m;
    m.k = kind::index_of;
    m.dimension = d;
    return m;
  }
  static map expression(std::function<long(const point&)> fn, std::uint64_t identity) {
    map m;
    m.k = kind::expression;
    m.f = std::move(fn);
    m.key = identity;
    return m;
  }

 private:
  map() = default;
};
inline const map Index1 = map::index_of(0), Index2 = map::index_of(1), Index3 = map::index_of(2), Index4 = map::index_of(3);
// An expression map. `identity` names what it computes for map saving: give
// a new one when a value it captured changes (0: never saved).
inline map expr(std::function<long(const point&)> f, std::uint64_t identity = 0) { return map::expression(std::move(f), identity); }

// How a scatter resolves two writes to one element (seed 004 §4.1.5): plain
// assignment (the last in thread and traversal order wins), or a combining
// function dst = f(dst, value).
struct combine {
  void (*apply)(void* dst, const void* value, const void* ctx) = nullptr;  // nullptr: assignment
  const void* ctx = nullptr;
  bool error_on_collision = false;  // assignment only: two writes to one element are an error
};
template <class T>
inline combine plus_for() {
  return {[](void* d, const void* v, const void*) { *static_cast<T*>(d) += *static_cast<const T*>(v); }, nullptr, false};
}
template <class T>
inline combine min_for() {
  return {[](void* d, const void* v, const void*) {
            if (*static_cast<const T*>(v) < *static_cast<T*>(d)) *static_cast<T*>(d) = *static_cast<const T*>(v);
          },
          nullptr, false};
}
template <class T>
inline combine max_for() {
  return {[](void* d, const void* v, const void*) {
            if (*static_cast<T*>(d) < *static_cast<const T*>(v)) *static_cast<T*>(d) = *static_cast<const T*>(v);
          },
          nullptr, false};
}
// A user function f(T& dst, const T& value), as a combining rule.
template <class T, void (*F)(T&, const T&)>
inline combine with() {
  return {[](void* d, const void* v, const void*) { F(*static_cast<T*>(d), *static_cast<const T*>(v)); }, nullptr, false};
}
inline constexpr combine assign{};
inline constexpr combine assign_once{nullptr, nullptr, true};

// The operator's options: the paper's optimizations, each can be switched off.
struct options {
  const region* over = nullptr;  // the remap's region (default: the destination's for a gather, the source's for a scatter)
  bool map_saving = true;        // §4.5.1 (off: NM)
  bool compression = true;       // §4.5.3, schedules run-length encoded (off: NR)
  bool direct = true;            // §4.5.5, straight copies moved without buffers (off: ND)
  // §4.5.4 (gather): what the caller knows, no hidden analysis. The source is
  // dead after the remap (its contents may be destroyed: the data buckets go
  // there), the destination is dead before it (all of it, also outside the
  // region: packing goes there). Used unless reuse is off (NB).
  bool dead_source = false, dead_destination = false;
  bool reuse = true;
  // The paper's NO: every optimization off (each field above is one of NM, NR, ND, NB).
  static options none() {
    options o;
    o.map_saving = o.compression = o.direct = o.reuse = false;
    return o;
  }
};

// What the last remap of this thread cost (for the benchmarks and tests).
struct stats {
  bool reused = false;             // a saved schedule served it (no inspector)
  double inspector_seconds = 0;    // Figure 3 lines 1-12 (0 when reused)
  double executor_seconds = 0;     // lines 13-22
  std::uint64_t schedule_bytes = 0;  // my part: the sum of the three below (Figure 5's parts)
  std::uint64_t map_bytes = 0;       // the processor map along my walk (with my offsets)
  std::uint64_t index_bytes = 0;     // the index buckets, mine and those kept of others' requests
  std::uint64_t bucket_bytes = 0;    // my data buckets
  int sources = 0;                 // threads my elements come from (gather) / go to (scatter)
  int readers = 0;                 // threads whose elements I serve (gather) / receive from (scatter)
  bool compressed = false;         // the schedule is kept run-length encoded
  std::uint64_t runs = 0;          // its top-level runs, over all thread pairs (compressed)
  int direct_puts = 0;             // buckets moved straight from their source or into their destination (§4.5.5)
  bool reused_dead_arrays = false; // the buckets went through the dead arrays (§4.5.4)
};
const stats& last_stats() noexcept;
// Drops every saved schedule (collective: every thread calls it at the same point).
void forget_schedules();

// A remap between its start and its completion (§4.5.2, overlap): the start
// runs the inspector (unless the schedule is saved) and sends the data; until
// complete(), the thread may compute on anything but the destination, the
// source and the maps, and must not call another collective operation (the
// exchange is a split-phase barrier: upc_notify in the start, upc_wait in
// complete()). A pending remap that goes out of scope completes.
class pending {
 public:
  struct state;
  explicit pending(std::unique_ptr<state> s);
  pending(pending&&) noexcept;
  pending& operator=(pending&&) noexcept;
  ~pending();
  void complete();  // collective

 private:
  std::unique_ptr<state> s_;
};

// Type-erased operator (lib/remap/remap.cpp).
pending gather_start(const array_ref& dst, const array_ref& src, const std::vector<map>& maps, const options& o, const char* fn);
pending scatter_start(const array_ref& dst, const std::vector<map>& maps, const array_ref& src, const combine& c,
                      const options& o, const char* fn);
void gather(const array_ref& dst, const array_ref& src, const std::vector<map>& maps, const options& o, const char* fn);
void scatter(const array_ref& dst, const std::vector<map>& maps, const array_ref& src, const combine& c, const options& o,
             const char* fn);

// D := S#[M1, …, Ms] over D's region (or o.over): every element i of the
// region I own in D gets S[M1(i), …, Ms(i)].
template <class T>
void gather(darray<T>& D, const darray<T>& S, const std::vector<map>& maps, const options& o = {}) {
  gather(D.ref(), S.ref(), maps, o, "upc::remap::gather");
}
template <class T>
[[nodiscard]] pending gather_start(darray<T>& D, const darray<T>& S, const std::vector<map>& maps, const options& o = {}) {
  return gather_start(D.ref(), S.ref(), maps, o, "upc::remap::gather_start");
}
// D#[M1, …, Md] := S over S's region (or o.over): every element i of the
// region sends S[i] to D[M1(i), …, Md(i)], combined as `c` says.
// The UPC form, on shared arrays: dst[i] = src[M(i)] / dst[M(i)] = src[i].
template <class T>
void gather(shared_view<T>& D, const shared_view<T>& S, const std::vector<map>& maps, const options& o = {}) {
  gather(D.ref(), S.ref(), maps, o, "upc::remap::gather");
}
template <class T>
void scatter(shared_view<T>& D, const std::vector<map>& maps, const shared_view<T>& S, const combine& c = assign,
             const options& o = {}) {
  scatter(D.ref(), maps, S.ref(), c, o, "upc::remap::scatter");
}

template <class T>
void scatter(darray<T>& D, const std::vector<map>& maps, const darray<T>& S, const combine& c = assign, const options& o = {}) {
  scatter(D.ref(), maps, S.ref(), c, o, "upc::remap::scatter");
}
template <class T>
[[nodiscard]] pending scatter_start(darray<T>& D, const std::vector<map>& maps, const darray<T>& S, const combine& c = assign,
                                    const options& o = {}) {
  return scatter_start(D.ref(), maps, S.ref(), c, o, "upc::remap::scatter_start");
}

}  // namespace upc::remap
