/* upc_memget / upc_memput / upc_memset / upc_memcpy on a blocked array. */
#include <upc.h>
#include <stdio.h>
#include <string.h>

#define B 16
shared [B] int a[B * THREADS];
shared [B] int c[B * THREADS];

int main(void) {
  int buf[B], bad = 0;
  for (int i = 0; i < B; i++) buf[i] = MYTHREAD * 100 + i;
  upc_memput(&a[MYTHREAD * B], buf, sizeof buf);
  upc_barrier;
  int peer = (MYTHREAD + 1) % THREADS;
  memset(buf, 0, sizeof buf);
  upc_memget(buf, &a[peer * B], sizeof buf);
  for (int i = 0; i < B; i++)
    if (buf[i] != peer * 100 + i) { printf("buf[%d] = %d\n", i, buf[i]); bad = 1; }
  upc_memcpy(&c[MYTHREAD * B], &a[peer * B], B * sizeof(int));
  upc_barrier;
  for (int i = 0; i < B; i++)
    if (c[MYTHREAD * B + i] != peer * 100 + i) bad = 1;
  upc_barrier;
  upc_memset(&c[MYTHREAD * B], 0, B * sizeof(int));
  upc_barrier;
  for (int i = 0; i < B * THREADS; i++) if (c[i] != 0) bad = 1;
  return bad;
}
