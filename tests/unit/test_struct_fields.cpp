// Fields of shared structs in place (issue 8, friction: `s.x = 1`, `p->x` needed a
// cast to shared [] char *, offsetof and a cast back): a[i].field(&S::x),
// p.field(&S::x) (UPC's &p->x), p->*&S::x (p->x), nested structs, arrays in
// structs, members of a base class, const, strict, shared scalars. Every address
// is checked against offsetof and the element's own (thread, offset), computed
// here independently of the code under test.
#include <cstddef>
#include <cstring>
#include <string>
#include <type_traits>

#include "../support/spmd.hpp"

namespace {

struct inner {
  short a;
  double d;
};
struct particle {
  int id;
  char tag;
  inner in;
  int hist[4];
  double m[2][3];
};
struct tagged : particle {  // a field of the base class, reached through the derived type
  long extra;
};

// The types the spec gives: a field of an element is shared [] M (indefinite
// block size, on the element's thread); const stays const; strictness is kept.
static_assert(std::is_same_v<decltype(std::declval<upc::sptr<particle, 3>>().field(&particle::id)),
                             upc::sptr<int, upc::indefinite>>);
static_assert(std::is_same_v<decltype(std::declval<upc::sptr<const particle, 3>>().field(&particle::id)),
                             upc::sptr<const int, upc::indefinite>>);
static_assert(std::is_same_v<decltype(std::declval<upc::sptr<particle, 2, upc::strict>>()->*&particle::tag),
                             upc::shared_ref<char, upc::indefinite, upc::strict>>);
static_assert(std::is_same_v<decltype(std::declval<upc::shared_ref<particle, 5>>().field(&particle::in)),
                             upc::shared_ref<inner, upc::indefinite>>);
static_assert(std::is_same_v<decltype(std::declval<upc::sptr<tagged>>().field(&particle::id)),
                             upc::sptr<int, upc::indefinite>>);
// A field pointer costs what any static pointer-to-shared costs.
static_assert(sizeof(upc::sptr<int, upc::indefinite>) == 16);

particle expected(std::size_t i) {
  particle p{};
  p.id = static_cast<int>(i) * 10 + 1;
  p.tag = static_cast<char>('a' + i % 26);
  p.in.a = static_cast<short>(-static_cast<int>(i));
  p.in.d = 0.5 * static_cast<double>(i);
  for (int k = 0; k < 4; ++k) p.hist[k] = static_cast<int>(i) * 100 + k;
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c) p.m[r][c] = static_cast<double>(i) + r * 0.25 + c * 0.125;
  return p;
}
bool same(const particle& a, const particle& b) {
  return a.id == b.id && a.tag == b.tag && a.in.a == b.in.a && a.in.d == b.in.d &&
         std::memcmp(a.hist, b.hist, sizeof a.hist) == 0 && std::memcmp(a.m, b.m, sizeof a.m) == 0;
}

// The field `offset` bytes into element `e`: same thread, offset added, phase 0.
template <class P, class E>
void check_field_pointer(const P& f, const E& element, std::size_t offset) {
  SPMD_CHECK_EQ(upc_threadof(f), upc_threadof(element));
  SPMD_CHECK_EQ(upc_addrfield(f), upc_addrfield(element) + offset);
  SPMD_CHECK_EQ(upc_phaseof(f), 0u);
  SPMD_CHECK_EQ(upc_blocksizeof(f), 0u);
}

// Write every field of every element in place (each element by a thread that
// usually does not own it), then read the whole elements back.
template <std::size_t B>
void fields_of_array_elements(std::size_t n) {
  const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
  upc::shared_array<particle, B> a(n);
  for (std::size_t i = 0; i < n; ++i) {
    if ((i + 1) % T != me) continue;
    const particle e = expected(i);
    a[i].field(&particle::id) = e.id;
    a[i].field(&particle::tag) = e.tag;
    a[i].field(&particle::in).field(&inner::a) = e.in.a;  // nested struct
    a[i].field(&particle::in).field(&inner::d) = e.in.d;
    for (std::size_t k = 0; k < 4; ++k) a[i].field(&particle::hist)[k] = e.hist[k];  // array in a struct
    for (std::size_t r = 0; r < 2; ++r)
      for (std::size_t c = 0; c < 3; ++c) a[i].field(&particle::m)[r][c] = e.m[r][c];  // 2-D array in a struct
  }
  upc_barrier;
  for (std::size_t i = 0; i < n; ++i) {
    const particle got = a[i];
    SPMD_CHECK(same(got, expected(i)));
    // Reads of single fields, and compound assignment in place.
    SPMD_CHECK_EQ(static_cast<int>(a[i].field(&particle::id)), expected(i).id);
    SPMD_CHECK_EQ(static_cast<double>(a[i].field(&particle::in).field(&inner::d)), expected(i).in.d);
    SPMD_CHECK_EQ(static_cast<int>(a[i].field(&particle::hist)[3]), expected(i).hist[3]);
    // Addresses: offsetof from the element, on the element's thread.
    const upc::sptr<particle, B> e = &a[i];
    check_field_pointer(&a[i].field(&particle::tag), e, offsetof(particle, tag));
    check_field_pointer(e.field(&particle::in).field(&inner::d), e, offsetof(particle, in) + offsetof(inner, d));
    check_field_pointer(a[i].field(&particle::hist).data() + 2, e, offsetof(particle, hist) + 2 * sizeof(int));
    check_field_pointer(&a[i].field(&particle::m)[1][2], e, offsetof(particle, m) + (1 * 3 + 2) * sizeof(double));
    check_field_pointer(&a[i].field(&particle::hist), e, offsetof(particle, hist));  // &a[i].hist: shared [] int (*)[4]
    check_field_pointer(&a[i].field(&particle::hist) + 1, e, offsetof(particle, hist) + sizeof(int[4]));
  }
  upc_barrier;
  for (std::size_t i = 0; i < n; ++i)
    if (i % T == me) a[i].field(&particle::hist)[1] += 5;
  upc_barrier;
  for (std::size_t i = 0; i < n; ++i) SPMD_CHECK_EQ(static_cast<int>(a[i].field(&particle::hist)[1]), expected(i).hist[1] + 5);

  // Privatised: a field of an element I own is a plain local int.
  for (std::size_t i = 0; i < n; ++i) {
    const upc::sptr<particle, B> e = &a[i];
    if (upc_threadof(e) != me) continue;
    particle* mine = e.local();
    SPMD_CHECK(e.field(&particle::id).local() == &mine->id);
    SPMD_CHECK(e.field(&particle::in).field(&inner::d).local() == &mine->in.d);
  }
  upc_barrier;
}

}  // namespace

TEST_CASE("struct fields: a[i].field(&S::x) reads and writes fields in place at offsetof, on the element's thread") {
  spmd::run_everywhere(
      [] {
        const std::size_t T = static_cast<std::size_t>(THREADS);
        fields_of_array_elements<1>(2 * T + 1);
        fields_of_array_elements<3>(3 * T + 2);
        fields_of_array_elements<upc::indefinite>(5);
      },
      {1, 2, 3, 5, 8});
}

TEST_CASE("struct fields: p.field(&S::x) is &p->x and p->*&S::x is p->x, through every kind of pointer") {
  spmd::run_everywhere(
      [] {
        const std::size_t T = static_cast<std::size_t>(THREADS), me = static_cast<std::size_t>(MYTHREAD);
        // shared [2] particle *p = upc_all_alloc(...): the implicit conversion of UPC.
        upc::sptr<particle, 2> p = upc_all_alloc(T, 2 * sizeof(particle));
        const std::size_t n = 2 * T;
        for (std::size_t i = 0; i < n; ++i) {
          if (upc_threadof(p + static_cast<std::ptrdiff_t>(i)) != me) continue;
          const upc::sptr<particle, 2> q = p + static_cast<std::ptrdiff_t>(i);
          q->*&particle::id = static_cast<int>(i);
          (q->*&particle::in).field(&inner::a) = static_cast<short>(i + 1);
          (q->*&particle::hist)[0] = 7;
          (*q.field(&particle::hist))[1] = 8;
        }
        upc_barrier;
        for (std::size_t i = 0; i < n; ++i) {
          const upc::sptr<particle, 2> q = p + static_cast<std::ptrdiff_t>(i);
          SPMD_CHECK_EQ(static_cast<int>(q->*&particle::id), static_cast<int>(i));
          SPMD_CHECK_EQ(static_cast<short>(q.field(&particle::in).field(&inner::a)[0]), static_cast<short>(i + 1));
          SPMD_CHECK_EQ(static_cast<int>((q->*&particle::hist)[0]) + static_cast<int>((q->*&particle::hist)[1]), 15);
          // Arithmetic on a field pointer stays in the element (shared [] int *).
          const upc::sptr<int, upc::indefinite> h = (q->*&particle::hist).data();
          check_field_pointer(h + 3, q, offsetof(particle, hist) + 3 * sizeof(int));
          SPMD_CHECK_EQ((h + 3) - h, 3);
          // A shared const particle * gives shared const fields.
          const upc::sptr<const particle, 2> c = q;
          SPMD_CHECK_EQ(static_cast<int>(c->*&particle::id), static_cast<int>(i));
        }
        // A member of a base class, through a pointer to the derived struct.
        upc::sptr<tagged, upc::indefinite> t = upc_alloc(sizeof(tagged));
        t->*&particle::id = 41;
        t->*&tagged::extra = 42L;
        const tagged layout{};  // tagged is not standard-layout: measure the offsets on an object
        const auto offset_in = [&layout](const void* member) {
          return static_cast<std::size_t>(static_cast<const char*>(member) - reinterpret_cast<const char*>(&layout));
        };
        check_field_pointer(t.field(&particle::id), t, offset_in(&layout.id));
        check_field_pointer(t.field(&tagged::extra), t, offset_in(&layout.extra));
        SPMD_CHECK_EQ(static_cast<int>(t->*&particle::id), 41);
        SPMD_CHECK_EQ(static_cast<long>(t->*&tagged::extra), 42L);
        upc_free(t);
        // Strict pointers keep strict fields.
        const upc::sptr<particle, 2, upc::strict> s = p;
        s->*&particle::tag = 'z';
        SPMD_CHECK_EQ(static_cast<char>(s->*&particle::tag), 'z');
        upc_barrier;
        upc_all_free(p);
      },
      {1, 2, 3, 5});
}

upc::shared<particle> sf_origin;  // shared struct particle origin;

TEST_CASE("struct fields: s.field(&S::x) on a shared scalar struct (UPC's s.x = 1)") {
  spmd::run_everywhere(
      [] {
        if (MYTHREAD == THREADS - 1) {
          sf_origin.field(&particle::id) = 99;
          sf_origin.field(&particle::in).field(&inner::d) = 2.5;
          sf_origin.field(&particle::m)[1][0] = -1.0;
        }
        upc_barrier;
        SPMD_CHECK_EQ(static_cast<int>(sf_origin.field(&particle::id)), 99);
        SPMD_CHECK_EQ(static_cast<double>(sf_origin.field(&particle::in).field(&inner::d)), 2.5);
        const particle whole = sf_origin;
        SPMD_CHECK_EQ(whole.m[1][0], -1.0);
        check_field_pointer(&sf_origin.field(&particle::tag), &sf_origin, offsetof(particle, tag));
        upc_barrier;
        if (MYTHREAD == 0) sf_origin = particle{};
        upc_barrier;
      },
      {1, 3});
}

TEST_CASE("struct fields: a null pointer and an array field index past its end are clear errors") {
  for (upc::backend_kind b : spmd::backends) {
    if (spmd::skip_run(2, b)) continue;
    upc::launch_options o = spmd::options(2, b);
    o.check = true;
    const upc::run_result r = upc::run(o, [] {
      upc::sptr<particle> null;
      SPMD_CHECK_ERROR((void)null.field(&particle::id), "null pointer-to-shared");
      SPMD_CHECK_ERROR((void)static_cast<int>(null->*&particle::id), "null pointer-to-shared");
      upc::shared_array<particle> a(upc::per_thread(1));
      SPMD_CHECK_EQ(static_cast<int>(a[0].field(&particle::hist)[3]), 0);
      SPMD_CHECK_ERROR((void)a[0].field(&particle::hist)[4], "index 4 is out of bounds");
      SPMD_CHECK_ERROR((void)a[0].field(&particle::m)[2], "of 2 elements");
      upc_barrier;
    });
    INFO("backend=", spmd::name(b), " error: ", r.error);
    CHECK(r.ok());
  }
}
