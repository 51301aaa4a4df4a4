/* A whole shared struct copied to private memory (and back) keeps its padding
 * bytes, as a UPC compiler's memget does: a program may compare the copy with
 * memcmp (GCC UPC's test05 does). gcc copies a volatile struct member by member
 * and splits a struct temporary into members, so a translation through either
 * left the copy's padding as it was. Relaxed and strict, to and from shared. */
#include <upc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct padded { char c; short s; int i; long long l; int v[3]; };

shared struct padded relaxed_a[4 * THREADS];
strict shared struct padded strict_a[4 * THREADS];

static int fails;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%d: %s:%d: %s\n", \
  MYTHREAD, __FILE__, __LINE__, #cond); fails++; } } while (0)

static void fill(struct padded *p, int k) {
  memset(p, 0, sizeof *p);
  p->c = (char)k; p->s = (short)(k + 1); p->i = k + 2; p->l = k + 3;
  p->v[0] = k + 4; p->v[1] = k + 5; p->v[2] = k + 6;
}

/* Fills the stack with a pattern, so stale padding would show. */
static void dirty_stack(void) {
  volatile unsigned char junk[4096];
  for (int k = 0; k < 4096; ++k) junk[k] = 0xA5;
}

static int same_as_filled(int k, const struct padded *got) {
  struct padded want;
  fill(&want, k);
  return memcmp(got, &want, sizeof want) == 0;
}

static void check_element(int k) {
  dirty_stack();
  {
    struct padded got = relaxed_a[k];
    CHECK(same_as_filled(k, &got));
  }
  dirty_stack();
  {
    struct padded got = strict_a[k];
    CHECK(same_as_filled(k, &got));
  }
  dirty_stack();
  {
    struct padded got;
    got = strict_a[k];
    CHECK(same_as_filled(k, &got));
  }
}

int main(void) {
  for (int k = MYTHREAD; k < 4 * THREADS; k += THREADS) {
    struct padded p;
    fill(&p, k);
    relaxed_a[k] = p;  /* whole-struct writes, padding included */
    strict_a[k] = p;
  }
  upc_barrier;
  for (int k = 0; k < 4 * THREADS; ++k) check_element(k);
  /* What the writes left in shared memory, bytes and all. */
  for (int k = 0; k < 4 * THREADS; ++k) {
    struct padded raw;
    upc_memget(&raw, &relaxed_a[k], sizeof raw);
    CHECK(same_as_filled(k, &raw));
    upc_memget(&raw, &strict_a[k], sizeof raw);
    CHECK(same_as_filled(k, &raw));
  }
  upc_barrier;
  if (fails) return 1;
  if (MYTHREAD == 0) printf("struct_copy_bytes: ok\n");
  return 0;
}
