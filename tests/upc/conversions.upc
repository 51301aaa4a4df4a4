/* Issue 26, defects 4 and 5: conversions between pointer-to-shared types (UPC
 * 1.3 6.4.3), explicit and implicit (assignment, initialisation, argument,
 * return), members of shared structs (6.4.4: `&` of a shared structure element of
 * type T has type `shared [] T *`, so its block size is 0 and it steps on the
 * struct's thread), and upc_lock_t * as a pointer-to-shared (7.2.4). The
 * expected values follow from the specification's rules, written out here. */
#include <upc.h>
#include <stdio.h>

shared [4] int a[8 * THREADS];
struct S {
  int x;
  int arr[5];
  double d;
};
shared [2] struct S s[2 * THREADS];
struct incomplete;

static int bad;
#define CHECK(c) do { if (!(c)) { printf("thread %d: line %d: %s\n", MYTHREAD, __LINE__, #c); bad = 1; } } while (0)

shared [] int *to_indefinite(shared void *v) { return v; }        /* implicit, on return */
size_t phase_of_block1(shared int *p) { return upc_phaseof(p); }  /* implicit, as an argument */

int main(void) {
  shared void *v = &a[2]; /* implicit to the generic pointer: the phase is kept */
  CHECK(upc_phaseof(v) == 2 && upc_threadof(v) == 0);

  /* from shared void *: to block 1 or indefinite, phase 0 (6.4.3p3) */
  shared [] int *ind = v;          /* initialisation */
  shared int *one;
  one = v;                         /* assignment */
  CHECK(upc_phaseof(ind) == 0 && upc_threadof(ind) == 0);
  CHECK(upc_phaseof(one) == 0);
  CHECK(upc_phaseof((shared [] int *)v) == 0);
  CHECK(upc_phaseof(to_indefinite(v)) == 0);
  CHECK(phase_of_block1(v) == 0);
  /* from shared void * to the same block size: the phase is kept */
  shared [4] int *four = v;
  CHECK(upc_phaseof(four) == 2 && four == &a[2]);
  CHECK(*four == a[2]);

  /* between non-generic types: phase 0 when the block or the element size
   * differs or a type is incomplete (6.4.3p2); the place is the same */
  shared [4] int *p = &a[6]; /* thread 1 % THREADS, phase 2 */
  CHECK(upc_phaseof(p) == 2);
  CHECK(upc_phaseof((shared [4] int *)p) == 2);
  CHECK(upc_phaseof((shared [2] int *)p) == 0);
  CHECK(upc_phaseof((shared [4] short *)p) == 0);
  CHECK(upc_phaseof((shared [4] struct incomplete *)p) == 0);
  CHECK(upc_threadof((shared [2] int *)p) == upc_threadof(p));
  CHECK((shared [2] int *)p == p); /* == ignores the phase (6.4.2p5) */
  CHECK(upc_phaseof((shared void *)p) == 2);

  /* null pointers-to-shared */
  shared int *np = NULL;
  shared int *nz = 0;
  CHECK(np == NULL && nz == 0 && !np && upc_threadof(np) == 0 && upc_phaseof(np) == 0);
  CHECK((int *)np == NULL);

  /* members of a shared struct: `shared [] T`, on the struct's thread */
  if (THREADS > 1) CHECK(upc_threadof(&s[2].x) == 1);
  CHECK(upc_blocksizeof(s) == 2);
  CHECK(upc_blocksizeof(s[0].x) == 0);
  CHECK(upc_blocksizeof(s[3].arr) == 0);
  CHECK(upc_phaseof(&s[1].x) == 0 && upc_phaseof(&s[1].arr[3]) == 0);
  if (THREADS > 1) { /* s[3] exists from THREADS 2 (s has 2 * THREADS elements) */
    shared [] int *m = &s[3].arr[0];
    CHECK(m + 3 == &s[3].arr[3]);
    CHECK(upc_threadof(m + 4) == upc_threadof(&s[3]));
    CHECK(s[3].arr + 2 == &s[3].arr[2]);
    CHECK(&s[3].arr[4] - &s[3].arr[1] == 3);
    CHECK((&s[3].arr[1])[2] == s[3].arr[3]);
  }
  upc_barrier;
  if (MYTHREAD == 0)
    for (int i = 0; i < 2 * THREADS; i++)
      for (int k = 0; k < 5; k++) s[i].arr[k] = 10 * i + k;
  upc_barrier;
  for (int i = 0; i < 2 * THREADS; i++) {
    shared [] int *row = s[i].arr;
    for (int k = 0; k < 5; k++) {
      CHECK(row[k] == 10 * i + k);
      CHECK(*(s[i].arr + k) == 10 * i + k);
      CHECK(upc_threadof(&row[k]) == (size_t)((i / 2) % THREADS));
    }
  }

  /* to an integer (Berkeley's choice, with upcc's warning): thread << 48 | offset,
   * equal for equal pointers whatever their phase, 0 for null */
  CHECK((long)np == 0);
  CHECK((unsigned long)(shared void *)p == (unsigned long)(shared [2] int *)p);
  CHECK(((unsigned long)&a[4 * THREADS] >> 48) == 0);
  CHECK((unsigned long)(&a[4 * THREADS]) % sizeof(int) == 0);

  /* sizeof of pointer-to-shared types */
  CHECK(sizeof(shared int *) == sizeof(shared void *));
  CHECK(sizeof(shared [4] double *[3]) == 3 * sizeof(shared void *));
  CHECK(sizeof(upc_lock_t *) == sizeof(shared void *));
  CHECK(sizeof(struct S) == sizeof(s[0]));

  /* a lock is a pointer-to-shared: to and from shared void *, upc_threadof */
  upc_lock_t *lock = upc_all_lock_alloc();
  shared void *lv = lock;
  upc_lock_t *back = (upc_lock_t *)lv;
  CHECK(back == lock && upc_phaseof(lock) == 0);
  CHECK(upc_threadof(lock) < (size_t)THREADS);
  upc_lock(back);
  upc_unlock(lock);
  upc_barrier;
  if (MYTHREAD == 0) upc_lock_free(lock);
  return bad;
}
