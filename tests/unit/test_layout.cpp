// Layout of shared arrays and pointer-to-shared arithmetic (UPC 1.3 §6.4.2, §6.5,
// §7.2.3), checked against closed formulas written here independently of
// include/upc/layout.hpp:
//
//   element i of `shared [B] T a[N]`, B > 0:   thread = (i/B) % THREADS
//                                              phase  = i % B
//                                              local  = ((i/B)/THREADS)*B + i%B
//   B = 0 (indefinite):                        thread = the base's, phase 0, local = i
//
// where `local` counts elements from the array's base inside the owner's partition.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "../support/spmd.hpp"

namespace {

struct place {
  std::size_t thread, phase, local;
};

place expected_place(std::size_t i, std::size_t B, std::size_t T, std::size_t base_thread = 0) {
  if (B == 0) return {base_thread, 0, i};
  return {(i / B) % T, i % B, ((i / B) / T) * B + i % B};
}

// Elements of a[n] with affinity to thread t, counted one by one.
std::size_t count_owned(std::size_t n, std::size_t B, std::size_t T, std::size_t t) {
  std::size_t c = 0;
  for (std::size_t i = 0; i < n; ++i) c += expected_place(i, B, T).thread == t;
  return c;
}

// The same count in closed form (used inside runs, where n can be large).
std::size_t owned_closed(std::size_t n, std::size_t B, std::size_t T, std::size_t t) {
  if (B == 0) return t == 0 ? n : 0;
  const std::size_t full_rows = n / (B * T), rest = n % (B * T);
  const std::size_t start = t * B;
  const std::size_t extra = rest > start ? std::min(B, rest - start) : 0;
  return full_rows * B + extra;
}

// Bytes per thread the layout reserves: whole rows of blocks (indefinite: all of it).
std::size_t localsize_closed(std::size_t n, std::size_t B, std::size_t T, std::size_t E) {
  if (B == 0) return n * E;
  const std::size_t blocks = (n + B - 1) / B;
  return (blocks + T - 1) / T * B * E;
}

constexpr std::size_t block_sizes[] = {0, 1, 2, 3, 7, 64};

// Steps that cross phase, block, row and thread boundaries in both directions.
std::vector<std::ptrdiff_t> steps_for(std::size_t B, std::size_t T) {
  const auto b = static_cast<std::ptrdiff_t>(B == 0 ? 5 : B), t = static_cast<std::ptrdiff_t>(T);
  std::vector<std::ptrdiff_t> s = {0, 1, 2, 3, b - 1, b, b + 1, b * t - 1, b * t, b * t + 1, 2 * b * t + b / 2 + 1, 5 * b + 3};
  const std::size_t n = s.size();
  for (std::size_t k = 0; k < n; ++k) s.push_back(-s[k]);
  return s;
}

// ---- pure layout functions (no run) ------------------------------------------------

TEST_CASE("layout: element placement matches the closed formula for many (B, THREADS, i)") {
  for (std::size_t B : {0, 1, 2, 3, 4, 7, 8, 64, 100}) {
    for (int T : {1, 2, 3, 4, 5, 7, 8, 13, 16, 64, 1024}) {
      for (std::size_t E : {1, 3, 8, 24}) {
        for (std::uint64_t base_off : {std::uint64_t{0}, std::uint64_t{64}, std::uint64_t{4096 + 128}}) {
          const upc::shared_address base{base_off, 0, 0};
          const std::size_t limit = std::max<std::size_t>(600, 3 * (B ? B : 1) * static_cast<std::size_t>(T) + 7);
          for (std::size_t i = 0; i < limit; i += (i < 600 ? 1 : 37)) {
            const upc::shared_address a = upc::layout::element(base, i, E, B, T);
            const place p = expected_place(i, B, static_cast<std::size_t>(T));
            INFO("B=", B, " T=", T, " E=", E, " base=", base_off, " i=", i);
            REQUIRE(a.thread == p.thread);
            REQUIRE(a.phase == p.phase);
            REQUIRE(a.offset == base_off + p.local * E);
          }
          // Far-away elements too.
          for (std::size_t i : {std::size_t{1} << 20, (std::size_t{1} << 31) + 12345, std::size_t{999999937}}) {
            const upc::shared_address a = upc::layout::element(base, i, E, B, T);
            const place p = expected_place(i, B, static_cast<std::size_t>(T));
            INFO("B=", B, " T=", T, " E=", E, " i=", i);
            REQUIRE(a.thread == p.thread);
            REQUIRE(a.phase == p.phase);
            REQUIRE(a.offset == base_off + p.local * E);
          }
        }
      }
    }
  }
}

TEST_CASE("layout: advance and distance agree with element indices, forwards and backwards") {
  for (std::size_t B : block_sizes) {
    for (int T : {1, 2, 3, 4, 5, 7, 8, 16}) {
      const std::size_t E = 8;
      const upc::shared_address base{192, 0, 0};
      const std::size_t n = 2 * (B ? B : 3) * static_cast<std::size_t>(T) + 11;
      const auto steps = steps_for(B, static_cast<std::size_t>(T));
      for (std::size_t i = 0; i <= n; ++i) {
        const upc::shared_address a = upc::layout::element(base, i, E, B, T);
        for (std::ptrdiff_t k : steps) {
          const std::ptrdiff_t j = static_cast<std::ptrdiff_t>(i) + k;
          if (j < 0) continue;
          INFO("B=", B, " T=", T, " i=", i, " k=", k);
          const upc::shared_address moved = upc::layout::advance(a, k, E, B, T);
          const place p = expected_place(static_cast<std::size_t>(j), B, static_cast<std::size_t>(T));
          REQUIRE(moved.thread == p.thread);
          REQUIRE(moved.phase == p.phase);
          REQUIRE(moved.offset == base.offset + p.local * E);
          REQUIRE(upc::layout::distance(moved, a, E, B, T) == k);
          REQUIRE(upc::layout::distance(a, moved, E, B, T) == -k);
        }
      }
    }
  }
}

TEST_CASE("layout: floor division rounds towards minus infinity") {
  using upc::layout::floor_div;
  for (std::ptrdiff_t a = -50; a <= 50; ++a)
    for (std::ptrdiff_t b : {1, 2, 3, 7, 64}) {
      const std::ptrdiff_t q = floor_div(a, b);
      INFO("a=", a, " b=", b);
      REQUIRE(q * b <= a);
      REQUIRE(a < (q + 1) * b);
    }
}

TEST_CASE("layout: affinity_size (upc_affinitysize) counts exactly the bytes each thread owns") {
  for (std::size_t B : {0, 1, 2, 3, 7, 64}) {
    for (int T : {1, 2, 3, 4, 5, 7, 8, 16}) {
      for (std::size_t E : {1, 4, 12}) {
        for (std::size_t n = 0; n <= 3 * (B ? B : 1) * static_cast<std::size_t>(T) + 5; ++n) {
          std::size_t sum = 0, most = 0;
          for (int t = 0; t < T; ++t) {
            const std::size_t want = count_owned(n, B, static_cast<std::size_t>(T), static_cast<std::size_t>(t)) * E;
            const std::size_t got = upc::layout::affinity_size(n * E, B * E, t, T);
            INFO("B=", B, " T=", T, " E=", E, " n=", n, " thread=", t);
            REQUIRE(got == want);
            REQUIRE(owned_closed(n, B, static_cast<std::size_t>(T), static_cast<std::size_t>(t)) * E == want);
            sum += got;
            most = std::max(most, got);
          }
          INFO("B=", B, " T=", T, " E=", E, " n=", n);
          REQUIRE(sum == n * E);
          // local_bytes (upc_localsizeof) is whole rows of blocks: an upper bound of every thread's part.
          const std::size_t local = upc::layout::local_bytes(n, E, B, T);
          REQUIRE(local == localsize_closed(n, B, static_cast<std::size_t>(T), E));
          REQUIRE(local >= most);
        }
      }
    }
  }
}

TEST_CASE("layout: affinity_size of dynamic allocations (totalsize = nblocks*nbytes, nbytes)") {
  // upc_global_alloc(nblocks, nbytes): block k (nbytes each) lives on thread k % THREADS.
  for (int T : {1, 2, 3, 5, 8, 16})
    for (std::size_t nbytes : {1, 10, 64})
      for (std::size_t nblocks = 0; nblocks < 40; ++nblocks)
        for (int t = 0; t < T; ++t) {
          std::size_t want = 0;
          for (std::size_t k = 0; k < nblocks; ++k) want += (k % static_cast<std::size_t>(T) == static_cast<std::size_t>(t)) ? nbytes : 0;
          INFO("T=", T, " nbytes=", nbytes, " nblocks=", nblocks, " t=", t);
          REQUIRE(upc::layout::affinity_size(nblocks * nbytes, nbytes, t, T) == want);
        }
}

// ---- pointer-to-shared in real runs -------------------------------------------------

struct rgb {  // an element whose size (3) is not a power of two
  unsigned char r, g, b;
};

template <std::size_t N>
struct blob {  // N bytes, for casts to another element type of a chosen size
  unsigned char bytes[N];
};

template <class E>
E make(std::size_t i, int salt) {
  if constexpr (std::is_same_v<E, rgb>) {
    return rgb{static_cast<unsigned char>(i * 7 + salt), static_cast<unsigned char>(i >> 3), static_cast<unsigned char>(salt)};
  } else {
    return static_cast<E>(i * 1000 + static_cast<std::size_t>(salt));
  }
}
template <class E>
bool same(const E& a, const E& b) {
  return std::memcmp(&a, &b, sizeof(E)) == 0;
}

template <class E, std::size_t B>
void check_pointer(const upc::sptr<E, B>& q, const upc::sptr<E, B>& base, std::size_t i) {
  const place p = expected_place(i, B, static_cast<std::size_t>(THREADS), upc_threadof(base));
  if (upc_threadof(q) != p.thread || upc_phaseof(q) != p.phase ||
      upc_addrfield(q) != upc_addrfield(base) + p.local * sizeof(E)) {
    std::ostringstream s;
    s << "pointer to element " << i << " (B=" << B << ", E=" << sizeof(E) << ", THREADS=" << THREADS << ") is (thread "
      << upc_threadof(q) << ", phase " << upc_phaseof(q) << ", addrfield " << upc_addrfield(q) - upc_addrfield(base)
      << " past the base), expected (" << p.thread << ", " << p.phase << ", " << p.local * sizeof(E) << ") on thread "
      << MYTHREAD;
    throw spmd::check_failed(s.str());
  }
}

// Everything about pointers into one collectively declared `shared [B] E a[n]`.
template <class E, std::size_t B>
void pointers_into_array(std::size_t n) {
  using ptr = upc::sptr<E, B>;
  const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
  upc::shared_array<E, B> a(n);
  const ptr p = a;  // the array decays to a pointer to its first element
  SPMD_CHECK_EQ(upc_threadof(p), 0u);
  SPMD_CHECK_EQ(upc_phaseof(p), 0u);
  SPMD_CHECK(p != nullptr);

  // sizeof family and upc_affinitysize.
  SPMD_CHECK_EQ(upc_blocksizeof(a), B);
  SPMD_CHECK_EQ(upc_elemsizeof(a), sizeof(E));
  SPMD_CHECK_EQ(upc_blocksizeof(p), B);
  SPMD_CHECK_EQ(upc_elemsizeof(p), sizeof(E));
  if (n > 0) {
    SPMD_CHECK_EQ(upc_blocksizeof(a[n - 1]), B);  // on an element: upc_blocksizeof(a[i])
    SPMD_CHECK_EQ(upc_elemsizeof(a[n - 1]), sizeof(E));
  }
  SPMD_CHECK_EQ(upc_localsizeof(a), localsize_closed(n, B, T, sizeof(E)));
  std::size_t total = 0;
  for (std::size_t t = 0; t < T; ++t) {
    const std::size_t bytes = upc_affinitysize(n * sizeof(E), B * sizeof(E), t);
    SPMD_CHECK_EQ(bytes, owned_closed(n, B, T, t) * sizeof(E));
    SPMD_CHECK(bytes <= upc_localsizeof(a));
    total += bytes;
  }
  SPMD_CHECK_EQ(total, n * sizeof(E));

  // p + i for every i (one past the end included), and everything derived from it.
  for (std::size_t i = 0; i <= n; ++i) {
    const auto si = static_cast<std::ptrdiff_t>(i);
    const ptr q = p + si;
    check_pointer<E, B>(q, p, i);
    check_pointer<E, B>(si + p, p, i);
    SPMD_CHECK_EQ(q - p, si);
    SPMD_CHECK_EQ(p - q, -si);
    SPMD_CHECK(q - si == p);
    SPMD_CHECK(q + (-si) == p);
    if (i < n) SPMD_CHECK(&a[i] == q);
    if (i < n) SPMD_CHECK(&p[si] == q);
    // upc_resetphase: same thread and address, phase 0.
    const ptr r = upc_resetphase(q);
    SPMD_CHECK_EQ(upc_threadof(r), upc_threadof(q));
    SPMD_CHECK_EQ(upc_addrfield(r), upc_addrfield(q));
    SPMD_CHECK_EQ(upc_phaseof(r), 0u);
    SPMD_CHECK(r == q);
    // Generic pointer: keeps thread, phase and address; back to the typed pointer,
    // the phase survives for block sizes > 1 and is zero for 1 and indefinite.
    const upc::sptr<void> v = q;
    SPMD_CHECK_EQ(upc_threadof(v), upc_threadof(q));
    SPMD_CHECK_EQ(upc_phaseof(v), upc_phaseof(q));
    SPMD_CHECK_EQ(upc_addrfield(v), upc_addrfield(q));
    const ptr back(v);
    SPMD_CHECK(back == q);
    SPMD_CHECK_EQ(upc_phaseof(back), B > 1 ? upc_phaseof(q) : 0u);
    if constexpr (B > 1) check_pointer<E, B>(back, p, i);
    SPMD_CHECK_EQ(upc_phaseof(upc::sptr<E, 1>(v)), 0u);
    SPMD_CHECK_EQ(upc_phaseof(upc::sptr<E, upc::indefinite>(v)), 0u);
    SPMD_CHECK_EQ(upc_phaseof(upc_resetphase(v)), 0u);
    // Casts between pointer-to-shared types: the phase is zero when the block size
    // or the element size changes, kept otherwise (UPC 1.3 §6.4.3).
    SPMD_CHECK_EQ(upc_phaseof(q.template cast<E, B + 1>()), 0u);
    SPMD_CHECK_EQ(upc_addrfield(q.template cast<E, B + 1>()), upc_addrfield(q));
    SPMD_CHECK_EQ(upc_threadof(q.template cast<E, B + 1>()), upc_threadof(q));
    SPMD_CHECK_EQ(upc_phaseof(q.template cast<blob<sizeof(E) + 1>, B>()), 0u);
    SPMD_CHECK_EQ(upc_phaseof(q.template cast<blob<sizeof(E)>, B>()), upc_phaseof(q));
    SPMD_CHECK_EQ(upc_phaseof(q.template cast<void>()), upc_phaseof(q));
    // Other consistency and const views of the same pointer.
    const upc::sptr<E, B, upc::strict> s = q;
    SPMD_CHECK_EQ(upc_phaseof(s), upc_phaseof(q));
    SPMD_CHECK_EQ(upc_addrfield(s), upc_addrfield(q));
    const upc::sptr<const E, B> c = q;
    SPMD_CHECK_EQ(upc_addrfield(c + 1), upc_addrfield(q + 1));
  }

  // Privatisation: each thread writes its own elements through local pointers, at
  // the local offsets of the formula (one contiguous run per thread).
  E* mine0 = nullptr;
  std::size_t mine0_local = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const place pl = expected_place(i, B, T);
    if (pl.thread != me) continue;
    E* l = static_cast<E*>(p + static_cast<std::ptrdiff_t>(i));
    SPMD_CHECK(l != nullptr);
    SPMD_CHECK(l == (p + static_cast<std::ptrdiff_t>(i)).local());
    if (!mine0) {
      mine0 = l;
      mine0_local = pl.local;
    }
    SPMD_CHECK(l == mine0 + (pl.local - mine0_local));
    *l = make<E>(i, 1);
  }
  upc_barrier;
  // Everybody reads everything, through the array, the pointer, and p[i].
  for (std::size_t i = 0; i < n; ++i) {
    const auto si = static_cast<std::ptrdiff_t>(i);
    SPMD_CHECK(same<E>(a[i], make<E>(i, 1)));
    SPMD_CHECK(same<E>(*(p + si), make<E>(i, 1)));
    SPMD_CHECK(same<E>(p[si], make<E>(i, 1)));
  }
  upc_barrier;
  // Remote writes through the pointer, read back locally by the owner.
  for (std::size_t i = 0; i < n; ++i)
    if ((i * 7 + 3) % T == me) p[static_cast<std::ptrdiff_t>(i)] = make<E>(i, 2);
  upc_barrier;
  for (std::size_t i = 0; i < n; ++i)
    if (expected_place(i, B, T).thread == me) SPMD_CHECK(same<E>(*static_cast<E*>(p + static_cast<std::ptrdiff_t>(i)), make<E>(i, 2)));

  // ++ and -- walk the whole array both ways.
  {
    ptr w = p;
    for (std::size_t i = 0; i < n; ++i) {
      check_pointer<E, B>(w, p, i);
      const ptr old = w++;
      SPMD_CHECK(old == p + static_cast<std::ptrdiff_t>(i));
      check_pointer<E, B>(old, p, i);
    }
    check_pointer<E, B>(w, p, n);
    for (std::size_t i = n; i > 0; --i) {
      const ptr old = w--;
      check_pointer<E, B>(old, p, i);
      check_pointer<E, B>(w, p, i - 1);
    }
    SPMD_CHECK(w == p);
    for (std::size_t i = 0; i < n; ++i) check_pointer<E, B>(++w, p, i + 1);
    for (std::size_t i = n; i > 0; --i) check_pointer<E, B>(--w, p, i - 1);
  }

  // Steps of every size and sign from every starting element (non-zero phases included).
  const auto steps = steps_for(B, T);
  for (std::size_t i = 0; i <= n; ++i) {
    const ptr q = p + static_cast<std::ptrdiff_t>(i);
    for (std::ptrdiff_t k : steps) {
      const std::ptrdiff_t j = static_cast<std::ptrdiff_t>(i) + k;
      if (j < 0 || j > static_cast<std::ptrdiff_t>(n)) continue;
      check_pointer<E, B>(q + k, p, static_cast<std::size_t>(j));
      check_pointer<E, B>(q - (-k), p, static_cast<std::size_t>(j));
      ptr m = q;
      m += k;
      check_pointer<E, B>(m, p, static_cast<std::size_t>(j));
      m -= k;
      SPMD_CHECK(m == q);
      SPMD_CHECK_EQ((q + k) - q, k);
      // Comparisons follow the element order.
      const ptr o = q + k;
      SPMD_CHECK_EQ(o < q, k < 0);
      SPMD_CHECK_EQ(o <= q, k <= 0);
      SPMD_CHECK_EQ(o > q, k > 0);
      SPMD_CHECK_EQ(o >= q, k >= 0);
      SPMD_CHECK_EQ(o == q, k == 0);
      SPMD_CHECK_EQ(o != q, k != 0);
    }
  }

  // Casting a pointer with remote affinity to a local pointer is a clear error.
  if (T > 1) {
    std::size_t remote = n;
    for (std::size_t i = 0; i < n && remote == n; ++i)
      if (expected_place(i, B, T).thread != me) remote = i;
    if (remote < n) {
      const ptr q = p + static_cast<std::ptrdiff_t>(remote);
      bool threw = false;
      try {
        (void)static_cast<E*>(q);
      } catch (const upc::error& e) {
        threw = true;
        const std::string w = e.what();
        SPMD_CHECK(w.find("local pointer") != std::string::npos);
        SPMD_CHECK(w.find("affinity to thread " + std::to_string(upc_threadof(q))) != std::string::npos);
        SPMD_CHECK(w.find("(thread " + std::to_string(me) + ")") != std::string::npos);
        SPMD_CHECK_EQ(e.thread(), static_cast<int>(me));
      }
      SPMD_CHECK(threw);
      threw = false;
      try {
        (void)static_cast<void*>(upc::sptr<void>(q));
      } catch (const upc::error& e) {
        threw = true;
        SPMD_CHECK(std::string(e.what()).find("affinity to thread") != std::string::npos);
      }
      SPMD_CHECK(threw);
    }
  }
  upc_barrier;
}

// An indefinite pointer to upc_alloc'd memory stays on the allocating thread.
template <class E>
void indefinite_pointer_on_my_thread(std::size_t n) {
  using ptr = upc::sptr<E, upc::indefinite>;
  const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
  upc::shared_array<ptr> published(upc::per_thread(1));
  const ptr p(upc_alloc(n * sizeof(E)));
  SPMD_CHECK_EQ(upc_threadof(p), me);
  for (std::size_t i = 0; i <= n; ++i) {
    check_pointer<E, 0>(p + static_cast<std::ptrdiff_t>(i), p, i);
    SPMD_CHECK_EQ((p + static_cast<std::ptrdiff_t>(i)) - p, static_cast<std::ptrdiff_t>(i));
  }
  E* l = static_cast<E*>(p);
  for (std::size_t i = 0; i < n; ++i) l[i] = make<E>(i, static_cast<int>(me));
  published[me] = p;
  upc_barrier;
  for (std::size_t t = 0; t < T; ++t) {
    const ptr q = published[t];
    SPMD_CHECK_EQ(upc_threadof(q), t);
    for (std::size_t i = 0; i < n; ++i) SPMD_CHECK(same<E>(q[static_cast<std::ptrdiff_t>(i)], make<E>(i, static_cast<int>(t))));
  }
  upc_barrier;
  upc_free(p);
}

template <class E>
void null_pointers() {
  upc::sptr<E, 3> n;
  SPMD_CHECK(n == nullptr);
  SPMD_CHECK(nullptr == n);
  SPMD_CHECK(!n);
  SPMD_CHECK(n.is_null());
  SPMD_CHECK_EQ(upc_threadof(n), 0u);
  SPMD_CHECK_EQ(upc_phaseof(n), 0u);
  SPMD_CHECK_EQ(upc_addrfield(n), 0u);
  SPMD_CHECK(static_cast<E*>(n) == nullptr);
  const upc::sptr<void> v = n;
  SPMD_CHECK(!v);
  SPMD_CHECK(v == upc::sptr<void>(nullptr));
  SPMD_CHECK(static_cast<void*>(v) == nullptr);
  SPMD_CHECK((upc::sptr<E, 3>(v) == nullptr));
  SPMD_CHECK((upc::sptr<E, upc::indefinite>(nullptr) == nullptr));
  upc::sptr<E, 3> assigned = upc::sptr<E, 3>(v);
  assigned = nullptr;
  SPMD_CHECK(assigned == nullptr);
  bool threw = false;
  try {
    E x = *n;
    (void)x;
  } catch (const upc::error& e) {
    threw = true;
    SPMD_CHECK(std::string(e.what()).find("null pointer-to-shared") != std::string::npos);
  }
  SPMD_CHECK(threw);
  // Allocations never return something that looks null.
  upc::shared_array<E, 3> a(5);
  SPMD_CHECK((upc::sptr<E, 3>(a) != nullptr));
  SPMD_CHECK((upc::sptr<void>(upc::sptr<E, 3>(a))));
}

template <class E>
void all_block_sizes() {
  const std::size_t T = static_cast<std::size_t>(THREADS);
  pointers_into_array<E, 0>(37);
  pointers_into_array<E, 1>(3 * T + 2);
  pointers_into_array<E, 2>(2 * 2 * T + 3);
  pointers_into_array<E, 3>(2 * 3 * T + 1);
  pointers_into_array<E, 7>(2 * 7 * T + 9);
  pointers_into_array<E, 64>(64 * T + 64 / 2 + 5);
  // Small arrays: fewer elements than threads or than one block.
  pointers_into_array<E, 3>(2);
  pointers_into_array<E, 64>(1);
  pointers_into_array<E, 1>(0);
  indefinite_pointer_on_my_thread<E>(29);
  null_pointers<E>();
}

TEST_CASE("layout: pointer-to-shared arithmetic, queries, casts and privatisation on both backends") {
  spmd::run_everywhere([] {
    all_block_sizes<long>();
    all_block_sizes<rgb>();
  });
}

TEST_CASE("layout: pointers into upc_all_alloc'd memory follow the declared block size") {
  spmd::run_everywhere(
      [] {
        const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
        const std::size_t nblocks = 2 * T + 1;
        const upc::sptr<int, 3> p(upc_all_alloc(nblocks, 3 * sizeof(int)));
        const std::size_t n = nblocks * 3;
        for (std::size_t i = 0; i < n; ++i) check_pointer<int, 3>(p + static_cast<std::ptrdiff_t>(i), p, i);
        for (std::size_t t = 0; t < T; ++t)
          SPMD_CHECK_EQ(upc_affinitysize(nblocks * 3 * sizeof(int), 3 * sizeof(int), t), owned_closed(n, 3, T, t) * sizeof(int));
        for (std::size_t i = 0; i < n; ++i)
          if (expected_place(i, 3, T).thread == me) *static_cast<int*>(p + static_cast<std::ptrdiff_t>(i)) = static_cast<int>(i) * 3 + 1;
        upc_barrier;
        for (std::size_t i = 0; i < n; ++i) SPMD_CHECK_EQ(static_cast<int>(p[static_cast<std::ptrdiff_t>(i)]), static_cast<int>(i) * 3 + 1);
        upc_all_free(p);
      },
      {1, 3, 4, 16});
}

}  // namespace

TEST_CASE("every pointer-to-shared converts to shared const void *") {
  spmd::run_ok(2, upc::backend_kind::threads, [] {
    upc::sptr<void> v = upc_all_alloc(THREADS, 8);
    upc::sptr<const void> c = v;                      // shared void * -> shared const void *
    upc::sptr<const void> ci = upc::sptr<int, 2>(v);  // typed -> shared const void *
    SPMD_CHECK(c.address() == v.address());
    SPMD_CHECK(ci.address() == v.address());
    upc_all_free(v);
  });
}

// ---- UPC_MAX_BLOCK_SIZE (issue 8.6) -------------------------------------------------
// A program may test it in the preprocessor (it was a C++ expression that #if
// cannot evaluate) and use it in expressions.
#if !defined(UPC_MAX_BLOCK_SIZE) || UPC_MAX_BLOCK_SIZE != 4294967296
#error "UPC_MAX_BLOCK_SIZE must be an integer constant usable in #if, equal to 2^32"
#endif
#if UPC_MAX_BLOCK_SIZE / 1024 < 64
#error "UPC_MAX_BLOCK_SIZE arithmetic in #if"
#endif
static_assert(UPC_MAX_BLOCK_SIZE == (std::size_t{1} << 32));
static_assert(upc::max_block_size == UPC_MAX_BLOCK_SIZE);
static_assert(upc::sptr<char, UPC_MAX_BLOCK_SIZE>::block_size == UPC_MAX_BLOCK_SIZE);  // the limit itself is allowed

TEST_CASE("UPC_MAX_BLOCK_SIZE is a plain integer constant usable in #if and in expressions (issue 8.6)") {
  const std::size_t limit = UPC_MAX_BLOCK_SIZE;
  CHECK(limit == 4294967296u);
  // The largest block size works: a pointer walks its whole block without leaving the thread.
  const upc::shared_address base{64, 0, 0};
  const upc::shared_address last = upc::layout::advance(base, UPC_MAX_BLOCK_SIZE - 1, 1, UPC_MAX_BLOCK_SIZE, 4);
  CHECK(last.thread == 0);
  CHECK(last.phase == UPC_MAX_BLOCK_SIZE - 1);
  const upc::shared_address next = upc::layout::advance(base, UPC_MAX_BLOCK_SIZE, 1, UPC_MAX_BLOCK_SIZE, 4);
  CHECK(next.thread == 1);
  CHECK(next.phase == 0);
}

// ---- shared void * converts to typed pointers-to-shared as in C (issue 8) -----------
static_assert(std::is_convertible_v<upc::sptr<void>, upc::sptr<int, 3>>);
static_assert(std::is_convertible_v<upc::sptr<void>, upc::sptr<const int>>);
static_assert(std::is_convertible_v<upc::sptr<const void>, upc::sptr<const double, upc::indefinite>>);
static_assert(!std::is_convertible_v<upc::sptr<const void>, upc::sptr<int>>);  // dropping const needs a cast
static_assert(std::is_constructible_v<upc::sptr<int>, upc::sptr<const void>>);
static_assert(!std::is_convertible_v<upc::sptr<int, 2>, upc::sptr<int, 3>>);     // other block size: cast()
static_assert(!std::is_convertible_v<upc::sptr<int>, upc::sptr<long>>);        // other element type: cast()

namespace {
// Overloads on shared void * and a typed pointer stay unambiguous: exact matches win.
int which(upc::sptr<void>) { return 0; }
int which(upc::sptr<int, 3>) { return 3; }
}  // namespace

TEST_CASE("shared void * converts implicitly to typed pointers-to-shared: shared [3] int *p = upc_all_alloc(...)") {
  spmd::run_everywhere(
      [] {
        const std::size_t T = static_cast<std::size_t>(THREADS);
        upc::sptr<int, 3> p = upc_all_alloc(T, 3 * sizeof(int));  // copy-initialisation, as in C
        check_pointer<int, 3>(p + 4, p, 4);
        upc::sptr<int, 3> q;
        q = upc_all_alloc(T, 3 * sizeof(int));  // assignment
        SPMD_CHECK(q != p);
        const upc::sptr<void> v = q + 1;
        SPMD_CHECK(v == q + 1);  // typed and generic compare in both orders
        SPMD_CHECK(q + 1 == v);
        SPMD_CHECK(!(v == p));
        SPMD_CHECK_EQ(which(v), 0);
        SPMD_CHECK_EQ(which(q), 3);
        // The phase survives the round trip for block sizes above 1.
        const upc::sptr<int, 3> back = v;
        SPMD_CHECK_EQ(upc_phaseof(back), 1u);
        upc_barrier;
        upc_all_free(q);
        upc_all_free(p);
      },
      {1, 2, 5});
}
