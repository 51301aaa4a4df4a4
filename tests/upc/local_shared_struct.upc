/* `static shared struct S {...} s[...]` defined inside a function: the struct
   is local to the function, the object one for all threads that keeps its
   value between calls. Two functions define different structs with the same
   tag; an unnamed struct with an initialiser; a union; a blocked layout;
   pointers-to-shared to the local struct. */
#include <upc.h>
#include <stdio.h>

static int errors;
static void check(int ok, const char *what, int v) {
  if (!ok) {
    printf("thread %d: FAIL %s (%d)\n", MYTHREAD, what, v);
    errors++;
  }
}

/* each call adds 1 to this thread's hits and returns the previous struct */
static int tally(void) {
  static shared struct S { int hits; double w[3]; } s[THREADS];
  struct S mine = s[MYTHREAD];
  s[MYTHREAD].hits++;
  s[MYTHREAD].w[2] += 0.5;
  shared struct S *p = &s[(MYTHREAD + 1) % THREADS];
  check(upc_threadof(p) == (size_t)((MYTHREAD + 1) % THREADS), "threadof &s[next]", 0);
  check(mine.w[2] == 0.5 * mine.hits, "w[2] follows hits", mine.hits);
  return mine.hits;
}

/* another struct S, of another layout, in another function */
static long other(int k) {
  static shared [2] struct S { long a; char tag; long b; } t[2 * THREADS];
  static shared struct { int calls; int last; } info = {100, -1};
  static shared union U { int i; float f; } u;
  if (MYTHREAD == 0) {
    info.calls++;
    info.last = k;
    u.i = k;
  }
  t[2 * MYTHREAD + 1].a = k * 10 + MYTHREAD;
  t[2 * MYTHREAD + 1].tag = 'x';
  upc_barrier;
  check(upc_threadof(&t[2 * MYTHREAD + 1]) == (size_t)MYTHREAD, "[2] layout threadof", MYTHREAD);
  long s = 0;
  for (int i = 0; i < THREADS; i++) {
    s += t[2 * i + 1].a;
    check(t[2 * i + 1].tag == 'x', "t.tag", i);
  }
  check(info.calls == 100 + k && info.last == k && u.i == k, "info, u", info.calls);
  upc_barrier;
  return s;
}

int main(void) {
  for (int i = 0; i < 4; i++)
    check(tally() == i, "tally keeps its value between calls", i);
  for (int k = 1; k <= 3; k++) {
    long want = 0;
    for (int t = 0; t < THREADS; t++) want += k * 10 + t;
    check(other(k) == want, "other: sum over threads", k);
  }
  upc_barrier;
  if (errors == 0 && MYTHREAD == 0) printf("local_shared_struct: ok at %d threads\n", THREADS);
  return errors != 0;
}
