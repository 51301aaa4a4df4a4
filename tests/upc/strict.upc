/* strict and relaxed: <upc_strict.h> makes unqualified shared accesses strict;
 * `relaxed shared` and `#pragma upc relaxed` (to the end of its block) override
 * it; strict writes and reads are fenced before and after (checked on the
 * translated C by the test 'upcc strict - fences'); message passing through a
 * strict flag; upc_fence; upc_notify / upc_wait with and without ids. */
#include <upc_strict.h>
#include <stdio.h>

shared int flag;                  /* strict (the header's default) */
relaxed shared int data[THREADS]; /* relaxed */
shared int other;

static int bad;
#define CHECK(c) do { if (!(c)) { printf("thread %d: line %d: %s\n", MYTHREAD, __LINE__, #c); bad = 1; } } while (0)

int main(void) {
  if (MYTHREAD == 0) {
    for (int i = 0; i < THREADS; i++) data[i] = 10 + i; (void)"mark relaxed write";
    flag = 1; (void)"mark strict write";
  } else {
    while (flag == 0) {} (void)"mark strict read";
    CHECK(data[MYTHREAD] == 10 + MYTHREAD);
  }
  upc_barrier;
  {
#pragma upc relaxed
    if (MYTHREAD == 0) other = 3; (void)"mark pragma relaxed";
  }
  if (MYTHREAD == 0) { other += 1; other++; } (void)"mark strict again";
  upc_fence;
  upc_barrier;
  CHECK(other == 5);
  CHECK(flag == 1);
  upc_notify 7;
  upc_wait 7;
  upc_notify;
  upc_wait 3; /* a wait with an id matches a notify without one */
  upc_notify MYTHREAD * 0 + 9;
  upc_wait;
  upc_barrier 11;
  return bad;
}
