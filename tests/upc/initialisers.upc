/* Initialisers of shared objects (UPC 1.3: static shared objects may be
 * initialised; the value is there before any thread runs): scalars, arrays of
 * every layout, sizes taken from the initialiser, multi-dimensional arrays,
 * char strings, long double, structs, pointers-to-shared to other shared
 * objects, block-scope static shared objects. */
#include <upc_relaxed.h>
#include <stdio.h>
#include <string.h>

struct pt { int x; double y; };

shared int scalar = 7;
shared double dscalar = 2.5;
shared int a[6] = {1, 2, 3, 4, 5, 6};
shared [2] long b[7] = {10, 20, 30, 40, 50, 60, 70};
shared [] short c[] = {5, 6, 7, 8};
shared int partial[8] = {9, 8};          /* the rest is zero */
shared [3] int m[2][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
shared char text[] = "hello, UPC";
shared long double ld[3] = {1.5L, -2.25L, 1e100L};
shared struct pt pts[3] = {{1, 0.5}, {2, 1.5}, [2] = {.y = 9.0, .x = 3}};
shared int dyn[3 * THREADS] = {100, 101, 102};
shared int *shared ptrs[2] = {&a[1], &b[3]};   /* b is [2] long: converted on use */
shared [2] long *shared pb = &b[5];
shared int *shared pnull = NULL;

static int bad;
static void check(const char *what, long double got, long double want) {
  if (got != want) {
    printf("thread %d: %s: got %Lg, want %Lg\n", MYTHREAD, what, got, want);
    bad = 1;
  }
}

static int counter(void) {
  static shared int calls = 1000;   /* block scope, initialised once */
  static shared [] int hist[3] = {1, 2, 3};
  int v;
  upc_barrier;
  if (MYTHREAD == 0) { calls++; hist[0] += 10; }
  upc_barrier;
  v = calls + hist[0] + hist[2];
  upc_barrier;
  return v;
}

int main(void) {
  check("scalar", scalar, 7);
  check("dscalar", dscalar, 2.5);
  for (int i = 0; i < 6; i++) check("a[i]", a[i], i + 1);
  for (int i = 0; i < 7; i++) check("b[i]", b[i], 10 * (i + 1));
  check("sizeof c", sizeof(c), 4 * sizeof(short));
  for (int i = 0; i < 4; i++) check("c[i]", c[i], i + 5);
  check("partial[0]", partial[0], 9);
  check("partial[1]", partial[1], 8);
  for (int i = 2; i < 8; i++) check("partial[i]", partial[i], 0);
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 4; j++) check("m[i][j]", m[i][j], i * 4 + j + 1);
  check("sizeof text", sizeof(text), 11);
  {
    char local[sizeof(text)];
    for (int i = 0; i < (int)sizeof(text); i++) local[i] = text[i];
    if (strcmp(local, "hello, UPC") != 0) { printf("text: got '%s'\n", local); bad = 1; }
  }
  check("ld[0]", ld[0], 1.5L);
  check("ld[1]", ld[1], -2.25L);
  check("ld[2]", ld[2], 1e100L);
  check("pts[0].x", pts[0].x, 1);
  check("pts[1].y", pts[1].y, 1.5);
  check("pts[2].x", pts[2].x, 3);
  check("pts[2].y", pts[2].y, 9.0);
  check("dyn[0]", dyn[0], 100);
  check("dyn[2]", dyn[2], 102);
  if (THREADS > 1) check("dyn[3]", dyn[3], 0);  /* dyn has 3 elements at THREADS 1 */
  check("*ptrs[0]", *ptrs[0], 2);
  check("ptrs[0] thread", upc_threadof(ptrs[0]), 1 % THREADS);
  check("*pb", *pb, 60);
  check("pb thread", upc_threadof(pb), 2 % THREADS);
  check("pb phase", upc_phaseof(pb), 1);
  check("pnull", pnull == NULL, 1);
  check("counter", counter(), 1001 + 11 + 3);
  check("counter again", counter(), 1002 + 21 + 3);
  upc_barrier;
  /* after the barrier: writes of one thread seen by all */
  if (MYTHREAD == THREADS - 1) a[0] = -1;
  upc_barrier;
  check("a[0] written", a[0], -1);
  if (bad) return 1;
  if (MYTHREAD == 0) printf("initialisers: ok (%d threads)\n", THREADS);
  return 0;
}
