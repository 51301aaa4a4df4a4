/* Declaration forms that upcc once mistranslated (docs/upcc.md, "Supported now"):
   asm-labelled prototypes with pointer-to-shared parameters, structs with
   pointer-to-shared members defined inside a typedef or a declaration (file and
   block scope), several declarators with initialisers in one declaration. */
#include <upc.h>
#include <stdio.h>
#include <stdlib.h>

shared int x[4 * THREADS];

/* an __asm__ label on prototypes whose parameters are pointers-to-shared */
int count_same(shared void *p, shared int *q, int n) __asm__("upcc_decl_forms_count");
int count_same_def(shared void *p, shared int *q, int n) __asm__("upcc_decl_forms_count");
int count_same_def(shared void *p, shared int *q, int n) {
  int c = 0;
  for (int i = 0; i < n; i++)
    c += upc_threadof(q + i) == upc_threadof(p);
  return c;
}
shared int *pick(shared int *base, int i) __asm__("upcc_decl_forms_pick");
shared int *pick(shared int *base, int i) { return base + i; }

/* a struct with pointer-to-shared members defined inside a typedef */
typedef struct node { shared int *data; long tag; shared struct node *next; } node_t;
shared node_t nodes[THREADS];
/* ... and inside a declaration of two objects */
struct pair { shared int *first, *second; } pair_a, pair_b = { NULL, NULL };
/* several declarators with initialisers at file scope */
shared int *ga, *gb = NULL, *gc;

int main(void) {
  int errors = 0;
  for (int i = 0; i < 4; i++) x[i * THREADS + MYTHREAD] = MYTHREAD * 100 + i;
  upc_barrier;
  /* several declarators with initialisers at block scope */
  shared int *a = &x[0], *b = NULL, *c;
  shared int *d = &x[1], *e = &x[2];
  static shared int *sa, *sb = NULL;  /* static private pointers-to-shared */
  int k = 3, *pk = &k, m = 4;
  c = a + 3;
  if (b != NULL || sb != NULL || gb != NULL) errors++;
  ga = a;
  if (ga != &x[0] || gc != NULL) errors++;
  sa = c;
  if (upc_threadof(c) != 3 % THREADS || *sa != x[3]) errors++;
  if (*d != x[1] || *e != x[2]) errors++;
  if (*pk != 3 || m != 4) errors++;
  if (count_same(&x[MYTHREAD], &x[0], 4 * THREADS) != 4) errors++;
  if (pick(x, 5) != &x[5]) errors++;
  nodes[MYTHREAD].data = &x[MYTHREAD];
  nodes[MYTHREAD].tag = MYTHREAD;
  nodes[MYTHREAD].next = &nodes[(MYTHREAD + 1) % THREADS];
  upc_barrier;
  node_t v = nodes[(MYTHREAD + 1) % THREADS];
  if (v.tag != (MYTHREAD + 1) % THREADS || *v.data != x[(MYTHREAD + 1) % THREADS]) errors++;
  if (v.next->tag != (MYTHREAD + 2) % THREADS || *v.next->data != x[(MYTHREAD + 2) % THREADS]) errors++;
  pair_a.first = &x[THREADS];
  pair_a.second = pair_a.first + THREADS;
  if (*pair_a.second != x[2 * THREADS] || pair_b.first != NULL) errors++;
  /* block scope: a struct and a typedef'd struct defined in declarations */
  struct loc { shared int *p; int n; } l = { &x[1], 1 }, *lp = &l;
  typedef struct { shared int *q; long z; } lt;
  lt w = { &x[2], 2 }, w2 = { e + THREADS, 3 };
  if (*l.p != x[1] || *lp->p != x[1] || *w.q != x[2] || *w2.q != x[2 + THREADS] || lp->n + w.z != 3) errors++;
  if (errors) { printf("decl_forms: thread %d: %d errors\n", MYTHREAD, errors); return 1; }
  upc_barrier;
  if (MYTHREAD == 0) printf("decl_forms: ok\n");
  return 0;
}
