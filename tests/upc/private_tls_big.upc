/* A private global array larger than the default UPC thread stack (8 MiB): on the
   threads backend each UPC thread's copy is static TLS, which glibc places in the
   thread's stack mapping; the launcher adds it to the stack asked for, so the
   thread starts and still has its whole stack for calls (a 6 MiB local here). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <upc.h>

#define BIG_DOUBLES (12 * 1024 * 1024 / 8)      /* 12 MiB per UPC thread */
double big[BIG_DOUBLES];

static int deep_stack(int seed) {
  volatile char local[6 << 20];                  /* 6 MiB of the 8 MiB stack */
  memset((char *)local, seed, sizeof local);
  return local[0] + local[sizeof local - 1];
}

int main(void) {
  for (long i = 0; i < BIG_DOUBLES; i++) big[i] = MYTHREAD * 1e7 + i;
  upc_barrier;
  for (long i = 0; i < BIG_DOUBLES; i++)
    if (big[i] != MYTHREAD * 1e7 + i) {
      printf("thread %d: big[%ld] = %g, expected %g (private copies shared?)\n", MYTHREAD, i, big[i],
             MYTHREAD * 1e7 + i);
      return 1;
    }
  if (deep_stack(MYTHREAD + 1) != 2 * (MYTHREAD + 1)) {
    printf("thread %d: the 6 MiB local array lost its contents\n", MYTHREAD);
    return 1;
  }
  upc_barrier;
  if (MYTHREAD == 0) printf("private_tls_big: %d threads, %d MiB private array each: ok\n", THREADS, 12);
  return 0;
}
