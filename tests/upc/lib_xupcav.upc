/* <xupc_collectiveav.h> (seed 001's xupc value collectives, on private arrays)
 * through upcc, checked against sequential computations: broadcast, scatter,
 * gather, gather_all, exchange and permute on int, double and a struct type,
 * from every root; reduce / reduce_all on the eleven reduction types with
 * UPC_ADD and UPC_MAX (and the integer ops on int); prefix_reduce on int, long,
 * double. */
#include <upc.h>
#include <xupc_collectiveav.h>
#include <stdio.h>
#include <string.h>

#define K 5
#define MAXT 16

static int failures;
#define CHECK(cond, ...)                                  \
  do {                                                    \
    if (!(cond)) {                                        \
      printf("thread %d: line %d: ", MYTHREAD, __LINE__); \
      printf(__VA_ARGS__);                                \
      printf("\n");                                       \
      failures++;                                         \
    }                                                     \
  } while (0)

struct pair { short a; double b; };

/* thread t's element i, small enough for every type (signed char included) */
static int val(int t, int i) { return (t * 7 + i * 3 + 1) % 11 - 3; }

/* Data movement on one TYPE: FILL(t, i) is thread t's value i, EQ compares. */
#define MOVEMENT(TYPE, NAME, FILL, EQ)                                                                         \
  do {                                                                                                         \
    TYPE mine[K], got[K], many[MAXT * K], many2[MAXT * K];                                                     \
    for (int root = 0; root < T; root++) {                                                                     \
      /* broadcast: root's values everywhere */                                                                \
      for (int i = 0; i < K; i++) mine[i] = FILL(me, i);                                                       \
      xupc_allv_broadcast(TYPE, mine, K, root);                                                                \
      for (int i = 0; i < K; i++) CHECK(EQ(mine[i], FILL(root, i)), NAME " broadcast root %d [%d]", root, i);  \
      /* scatter: piece me of root's THREADS*K values */                                                       \
      for (int j = 0; j < T * K; j++) many[j] = FILL(me + 100, j);                                             \
      xupc_allv_scatter(TYPE, got, many, K, root);                                                             \
      for (int i = 0; i < K; i++)                                                                              \
        CHECK(EQ(got[i], FILL(root + 100, me * K + i)), NAME " scatter root %d [%d]", root, i);                \
      /* gather: everyone's values into root's array, by thread */                                             \
      for (int i = 0; i < K; i++) mine[i] = FILL(me + 50, i);                                                  \
      for (int j = 0; j < T * K; j++) many[j] = FILL(99, 0);                                                   \
      xupc_allv_gather(TYPE, many, mine, K, root);                                                             \
      if (me == root)                                                                                          \
        for (int t = 0; t < T; t++)                                                                            \
          for (int i = 0; i < K; i++)                                                                          \
            CHECK(EQ(many[t * K + i], FILL(t + 50, i)), NAME " gather root %d [%d][%d]", root, t, i);          \
    }                                                                                                          \
    /* gather_all: everyone's values into every thread's array */                                              \
    for (int i = 0; i < K; i++) mine[i] = FILL(me + 20, i);                                                    \
    xupc_allv_gather_all(TYPE, many, mine, K);                                                                 \
    for (int t = 0; t < T; t++)                                                                                \
      for (int i = 0; i < K; i++) CHECK(EQ(many[t * K + i], FILL(t + 20, i)), NAME " gather_all [%d][%d]", t, i); \
    /* exchange: piece j of my src to thread j; piece i of my dst from thread i */                             \
    for (int j = 0; j < T * K; j++) many[j] = FILL(me * MAXT + j / K, j % K);                                  \
    xupc_allv_exchange(TYPE, many2, many, K);                                                                  \
    for (int t = 0; t < T; t++)                                                                                \
      for (int i = 0; i < K; i++)                                                                              \
        CHECK(EQ(many2[t * K + i], FILL(t * MAXT + me, i)), NAME " exchange [%d][%d]", t, i);                  \
    /* permute: to the left neighbour, then to the reversed rank */                                            \
    for (int i = 0; i < K; i++) mine[i] = FILL(me + 30, i);                                                    \
    xupc_allv_permute(TYPE, got, mine, K, (me + T - 1) % T);                                                   \
    for (int i = 0; i < K; i++) CHECK(EQ(got[i], FILL((me + 1) % T + 30, i)), NAME " permute left [%d]", i);   \
    xupc_allv_permute(TYPE, got, mine, K, T - 1 - me);                                                         \
    for (int i = 0; i < K; i++) CHECK(EQ(got[i], FILL(T - 1 - me + 30, i)), NAME " permute reversed [%d]", i); \
  } while (0)

#define FILL_INT(t, i) (1000 * (t) + (i))
#define FILL_DOUBLE(t, i) ((t) + (i) / 8.0)
#define FILL_PAIR(t, i) ((struct pair){(short)(t), (i) + 0.5})
#define EQ_PLAIN(a, b) ((a) == (b))
#define EQ_PAIR(x, y) ((x).a == (y).a && (x).b == (y).b)

/* reduce_all with UPC_ADD and UPC_MAX, reduce to every root with UPC_ADD, on
 * one of the reduction types; the sequential fold in TYPE, in thread order. */
#define REDUCTIONS(TYPE, NAME)                                                                                 \
  do {                                                                                                         \
    TYPE src[K], esum = 0, emx = (TYPE)val(0, 0);                                                              \
    for (int i = 0; i < K; i++) src[i] = (TYPE)val(me, i);                                                     \
    for (int t = 0; t < T; t++)                                                                                \
      for (int i = 0; i < K; i++) {                                                                            \
        TYPE v = (TYPE)val(t, i);                                                                              \
        esum = (TYPE)(esum + v);                                                                               \
        if (v > emx) emx = v;                                                                                  \
      }                                                                                                        \
    TYPE s = xupc_allv_reduce_all(TYPE, src, K, UPC_ADD);                                                      \
    CHECK(s == esum, NAME " reduce_all ADD = %Lg, expected %Lg", (long double)s, (long double)esum);           \
    TYPE m = xupc_allv_reduce_all(TYPE, src, K, UPC_MAX);                                                      \
    CHECK(m == emx, NAME " reduce_all MAX = %Lg, expected %Lg", (long double)m, (long double)emx);             \
    for (int root = 0; root < T; root++) {                                                                     \
      TYPE r = xupc_allv_reduce(TYPE, src, K, root, UPC_ADD);                                                  \
      CHECK(r == esum, NAME " reduce root %d = %Lg, expected %Lg", root, (long double)r, (long double)esum);   \
    }                                                                                                          \
  } while (0)

/* prefix_reduce with UPC_ADD: dst[k] = every value of lower threads + src[0..k] */
#define PREFIX(TYPE, NAME)                                                                                     \
  do {                                                                                                         \
    TYPE src[K], dst[K];                                                                                       \
    for (int i = 0; i < K; i++) src[i] = (TYPE)(val(me, i) * 3);                                               \
    xupc_allv_prefix_reduce(TYPE, dst, src, K, UPC_ADD);                                                       \
    TYPE acc = 0;                                                                                              \
    for (int t = 0; t < me; t++)                                                                               \
      for (int i = 0; i < K; i++) acc += (TYPE)(val(t, i) * 3);                                                \
    for (int i = 0; i < K; i++) {                                                                              \
      acc += src[i];                                                                                           \
      CHECK(dst[i] == acc, NAME " prefix_reduce [%d] = %Lg, expected %Lg", i, (long double)dst[i], (long double)acc); \
    }                                                                                                          \
  } while (0)

int main(void) {
  const int T = THREADS, me = MYTHREAD;
  if (T > MAXT) {
    if (me == 0) printf("lib_xupcav: THREADS must be at most %d\n", MAXT);
    return 1;
  }
  MOVEMENT(int, "int", FILL_INT, EQ_PLAIN);
  MOVEMENT(double, "double", FILL_DOUBLE, EQ_PLAIN);
  MOVEMENT(struct pair, "struct pair", FILL_PAIR, EQ_PAIR);

  REDUCTIONS(signed char, "signed char");
  REDUCTIONS(unsigned char, "unsigned char");
  REDUCTIONS(short, "short");
  REDUCTIONS(unsigned short, "unsigned short");
  REDUCTIONS(int, "int");
  REDUCTIONS(unsigned int, "unsigned int");
  REDUCTIONS(long, "long");
  REDUCTIONS(unsigned long, "unsigned long");
  REDUCTIONS(float, "float");
  REDUCTIONS(double, "double");
  REDUCTIONS(long double, "long double");

  /* the other ops on int: MULT, AND, OR, XOR, LOGAND, LOGOR, MIN */
  {
    int src[K], e_mult = 1, e_and = ~0, e_or = 0, e_xor = 0, e_land = 1, e_lor = 0, e_min = val(0, 0) + 5;
    for (int i = 0; i < K; i++) src[i] = val(me, i) + 5; /* 2 .. 12 */
    for (int t = 0; t < T; t++)
      for (int i = 0; i < K; i++) {
        int v = val(t, i) + 5;
        if (i < 2) e_mult *= v;
        e_and &= v, e_or |= v, e_xor ^= v;
        e_land = e_land && v, e_lor = e_lor || v;
        if (v < e_min) e_min = v;
      }
    CHECK(xupc_allv_reduce_all(int, src, 2, UPC_MULT) == e_mult, "int MULT");
    CHECK(xupc_allv_reduce_all(int, src, K, UPC_AND) == e_and, "int AND");
    CHECK(xupc_allv_reduce_all(int, src, K, UPC_OR) == e_or, "int OR");
    CHECK(xupc_allv_reduce_all(int, src, K, UPC_XOR) == e_xor, "int XOR");
    CHECK(xupc_allv_reduce_all(int, src, K, UPC_LOGAND) == e_land, "int LOGAND");
    CHECK(xupc_allv_reduce_all(int, src, K, UPC_LOGOR) == e_lor, "int LOGOR");
    CHECK(xupc_allv_reduce_all(int, src, K, UPC_MIN) == e_min, "int MIN");
    /* the value of a reduction is an expression of TYPE */
    CHECK(xupc_allv_reduce_all(int, src, K, UPC_MIN) + 1 == e_min + 1, "int MIN + 1");
  }

  PREFIX(int, "int");
  PREFIX(long, "long");
  PREFIX(double, "double");

  if (failures) printf("thread %d: %d failures\n", MYTHREAD, failures);
  upc_barrier;
  if (MYTHREAD == 0 && !failures) printf("lib_xupcav: OK at THREADS %d\n", THREADS);
  return failures != 0;
}
