/* Forms found in public UPC programs (issue 26's corpus run; our own code):
 * a shared struct declared after a function that uses its type through a pointer;
 * a private global initialised with the address of another (per thread: each
 * thread's pointer points to its own copy); a shared object declared twice
 * (C tentative definitions) and after an extern declaration; a pointer to a
 * shared pointer-to-private. */
#include <upc.h>
#include <stdio.h>

struct F { double ez; int n; };
double get_ez(shared struct F *p) { return p->ez; }
int get_n(shared struct F *p) { return (*p).n; }
shared struct F later[THREADS];

int x = 5;
int *px = &x;
char buf[8] = "abc";
char *pb = buf;

extern shared double y[];
shared double y[THREADS];
shared double y[THREADS];
shared int z;
shared int z = 7;

int *shared [] spp[THREADS];
int *shared [] *pp;
typedef int *shared [] *pp_t;
int priv[4] = {10, 20, 30, 40};

static int bad;
#define CHECK(c) do { if (!(c)) { printf("thread %d: line %d: %s\n", MYTHREAD, __LINE__, #c); bad = 1; } } while (0)

int main(void) {
  static int *sp = &x;
  later[MYTHREAD].ez = MYTHREAD + 0.5;
  later[MYTHREAD].n = MYTHREAD;
  x = 100 + MYTHREAD;
  y[MYTHREAD] = MYTHREAD * 2.0;
  spp[MYTHREAD] = &priv[MYTHREAD % 4];
  pp = &spp[MYTHREAD];
  upc_barrier;
  for (int t = 0; t < THREADS; t++) {
    CHECK(get_ez(&later[t]) == t + 0.5);
    CHECK(get_n(&later[t]) == t);
    CHECK(y[t] == t * 2.0);
  }
  CHECK(*px == 100 + MYTHREAD && px == &x && *sp == 100 + MYTHREAD);
  CHECK(pb == buf && pb[2] == 'c');
  CHECK(z == 7);
  CHECK(sizeof y == THREADS * sizeof(double));
  {
    pp_t q = &spp[MYTHREAD];
    CHECK(**pp == priv[MYTHREAD % 4] && **q == priv[MYTHREAD % 4]);
    CHECK(sizeof(pp_t) == sizeof(shared void *) && upc_threadof(q) == 0); /* shared []: all on thread 0 */
  }
  return bad;
}
