/* A struct reached through a typedef of a pointer-to-shared (`typedef shared
 * node_t *node_p;`): casts to the typedef, byte arithmetic through
 * `shared [] char *`, member access, chains of ->, pointers in shared memory. */
#include <upc.h>
#include <stdio.h>
#include <stddef.h>

typedef struct node_s node_t;
typedef shared node_t *node_p;
struct node_s {
  shared struct node_s *next;
  long value;
  int tag[3];
};

shared [] char arena[64 * sizeof(node_t)];
node_p shared head;

static int errors;

static void check(int ok, const char *what, int i) {
  if (!ok) {
    printf("thread %d: FAIL %s %d\n", MYTHREAD, what, i);
    errors++;
  }
}

static node_p node_at(int k) {
  return (node_p)((shared [] char *)arena + k * sizeof(node_t));
}

int main(void) {
  int k, n = 2 * THREADS + 1;
  if (MYTHREAD == 0) {
    node_p h = (node_p)arena;
    head = h;
    for (k = 0; k < n; k++) {
      node_p x = node_at(k);
      x->value = 10 * k;
      x->next = k + 1 < n ? node_at(k + 1) : NULL;
    }
  }
  upc_barrier;
  {
    node_p x = head;
    long sum = 0;
    k = 0;
    while (x) {
      check(x->value == 10 * k, "node", k);
      check(x == node_at(k), "address", k);
      sum += x->value;
      x = x->next;
      k++;
    }
    check(k == n, "length", k);
    check(sum == 10L * n * (n - 1) / 2, "sum", 0);
    check(head->next->next->value == 20, "head->next->next->value", 0);
    check((shared [] char *)head->next - (shared [] char *)head == (ptrdiff_t)sizeof(node_t), "stride", 0);
  }
  upc_barrier;
  if (errors == 0 && MYTHREAD == 0)
    printf("typedef_sptr: ok\n");
  return errors != 0;
}
