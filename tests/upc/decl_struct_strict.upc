/* A struct or union type defined inside a shared declaration; strict and relaxed
 * on pointer targets; a strict struct's member assigned. Checks its own answers. */
#include <upc.h>
#include <stdio.h>

shared struct S { int a; double b; } s[THREADS];
shared [2] struct { int k; char c; } anon[2 * THREADS];
shared union U { int i; float f; } u[THREADS];
shared struct T { long v; } t_one, *pt;
strict shared struct F { int flag; int data; } fl[THREADS];
strict shared int sx[THREADS];
relaxed shared int rx[THREADS];

static int fails;
#define CHECK(c) do { if (!(c)) { printf("thread %d: line %d: %s\n", MYTHREAD, __LINE__, #c); fails++; } } while (0)

int main(void) {
  int me = MYTHREAD, next = (MYTHREAD + 1) % THREADS, i;
  struct S loc;
  strict shared int *sp = &sx[next];
  relaxed shared int *rp = &rx[next];
  strict shared struct F *fp = &fl[next];
  shared int *plain = (shared int *)sp;

  s[me].a = me; s[me].b = 0.5 * me;
  for (i = 0; i < 2 * THREADS; i++)
    if (upc_threadof(&anon[i]) == me) { anon[i].k = 3 * i; anon[i].c = (char)('a' + i % 26); }
  u[me].i = 100 + me;
  if (me == 0) { t_one.v = 42; }
  sx[me] = 0; rx[me] = 0; fl[me].flag = 0; fl[me].data = 0;
  upc_barrier;
  loc = s[next];
  CHECK(loc.a == next && loc.b == 0.5 * next);
  CHECK(sizeof(struct S) == sizeof loc);
  for (i = 0; i < 2 * THREADS; i++) CHECK(anon[i].k == 3 * i && anon[i].c == (char)('a' + i % 26));
  CHECK(upc_threadof(&anon[2]) == 1 % THREADS);
  CHECK(u[next].i == 100 + next);
  pt = &t_one;
  CHECK(pt->v == 42);
  upc_barrier;
  /* strict and relaxed pointer targets: writes through them, read back by their owner */
  *sp = 10 + me;
  *rp = 20 + me;
  sp[0] += 1;
  (*rp)++;
  /* a strict struct's members: data then flag (the flag's strict write orders them) */
  fp->data = 7 * me;
  fp->flag = 1;
  fl[next].data += 1;
  upc_barrier;
  {
    int prev = (me + THREADS - 1) % THREADS;
    CHECK(sx[me] == 11 + prev);
    CHECK(rx[me] == 21 + prev);
    CHECK(fl[me].flag == 1 && fl[me].data == 7 * prev + 1);
    CHECK(*plain == sx[next]);
    CHECK(upc_threadof(sp) == (size_t)next && upc_threadof(rp) == (size_t)next);
  }
  upc_barrier;
  if (fails) return 1;
  if (me == 0) printf("decl_struct_strict: ok\n");
  return 0;
}
