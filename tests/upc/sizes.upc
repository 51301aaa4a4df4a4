/* upc_blocksizeof, upc_elemsizeof, upc_localsizeof on objects, expressions and
 * types; sizeof on shared objects and types; UPC_MAX_BLOCK_SIZE. */
#include <upc.h>
#include <stdio.h>

shared int a[10 * THREADS];
shared [3] double b[7 * THREADS];
shared [*] long c[5 * THREADS];
shared [] char d[13];
shared [2] int m[4][THREADS];
shared int s;

static int bad;
#define CHECK(c) do { if (!(c)) { printf("thread %d: line %d: %s\n", MYTHREAD, __LINE__, #c); bad = 1; } } while (0)

static size_t ceildiv(size_t x, size_t y) { return (x + y - 1) / y; }

int main(void) {
  size_t T = THREADS;
  CHECK(upc_blocksizeof(a) == 1);
  CHECK(upc_blocksizeof(b) == 3);
  CHECK(upc_blocksizeof c == 5);
  CHECK(upc_blocksizeof(d) == 0);
  CHECK(upc_blocksizeof(shared [7] int) == 7);
  CHECK(upc_blocksizeof(s) == 1);
  CHECK(upc_elemsizeof(a) == sizeof(int));
  CHECK(upc_elemsizeof(b) == sizeof(double));
  CHECK(upc_elemsizeof(m) == sizeof(int));
  CHECK(upc_elemsizeof(shared [2] long [8]) == sizeof(long));
  CHECK(upc_localsizeof(a) == 10 * sizeof(int));
  CHECK(upc_localsizeof(b) == ceildiv(ceildiv(7 * T, 3), T) * 3 * sizeof(double));
  CHECK(upc_localsizeof(c) == 5 * sizeof(long));
  CHECK(upc_localsizeof(d) == 13);
  CHECK(upc_localsizeof(m) == ceildiv(ceildiv(4 * T, 2), T) * 2 * sizeof(int));
  CHECK(upc_localsizeof(s) == sizeof(int));
  CHECK(upc_localsizeof(shared [2] int [8]) == ceildiv(ceildiv(8, 2), T) * 2 * sizeof(int));
  CHECK(sizeof(a) == 10 * T * sizeof(int));
  CHECK(sizeof(b) == 7 * T * sizeof(double));
  CHECK(sizeof(m) == 4 * T * sizeof(int));
  CHECK(sizeof(d) == 13);
  CHECK(sizeof(s) == sizeof(int));
  CHECK(sizeof(shared int) == sizeof(int));
  CHECK(sizeof(a[1]) == sizeof(int));
  CHECK(sizeof(shared int *) == sizeof(upcemu_sptr));
  CHECK(UPC_MAX_BLOCK_SIZE >= 1024);
  return bad;
}
