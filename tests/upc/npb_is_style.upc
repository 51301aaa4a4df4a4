/* Constructs of NPB-UPC IS (our own program, compiled with upcc -T N): a static
   THREADS seen by the preprocessor, THREADS in two dimensions of a shared array
   of per-thread chunk descriptions, a key exchange by upc_memget from a
   blocked shared key array, and a tree reduction with barriers. Checks the
   exchange against a sequential computation. */
#include <upc_relaxed.h>
#include <stdio.h>
#include <string.h>

#if THREADS < 1 || THREADS > 64
#error "npb_is_style: 1 to 64 threads"
#endif
#if THREADS >= 4
#define NK 512
#else
#define NK 256
#endif
#define MAX_KEY 4096

typedef struct { int count; int displ; } send_info;
shared send_info send_infos_shd[THREADS][THREADS];
shared [NK] int key_array_shd[NK * THREADS];   /* each thread's keys, grouped by bucket */
shared long sums[THREADS];
static int recv_keys[NK * THREADS];

static int key_of(int thread, int i) {  /* deterministic keys, any thread can compute them */
  unsigned x = (unsigned)(thread * 7919 + i * 104729 + 12345);
  x ^= x << 13; x ^= x >> 17; x ^= x << 5;
  return (int)(x % MAX_KEY);
}
static int bucket_of(int key) { return (int)((long)key * THREADS / MAX_KEY); }

int main(void) {
  int errors = 0;
  int *my_keys = (int *)&key_array_shd[MYTHREAD * NK];   /* privatised block */
  send_info my_infos[THREADS];
  int counts[THREADS], displ = 0;
  memset(counts, 0, sizeof counts);
  for (int i = 0; i < NK; i++) counts[bucket_of(key_of(MYTHREAD, i))]++;
  for (int j = 0; j < THREADS; j++) {
    my_infos[j].count = counts[j];
    my_infos[j].displ = displ;
    displ += counts[j];
    send_infos_shd[MYTHREAD][j] = my_infos[j];   /* a struct written through shared */
  }
  /* send_infos_shd[i][MYTHREAD] has affinity to MYTHREAD (cyclic, THREADS columns) */
  for (int i = 0; i < THREADS; i++)
    if (upc_threadof(&send_infos_shd[i][MYTHREAD]) != MYTHREAD) errors++;
  int fill[THREADS];
  for (int j = 0; j < THREADS; j++) fill[j] = my_infos[j].displ;
  for (int i = 0; i < NK; i++) {
    int k = key_of(MYTHREAD, i);
    my_keys[fill[bucket_of(k)]++] = k;
  }
  upc_barrier;
  /* the exchange: thread MYTHREAD fetches its bucket from every thread */
  int total = 0;
  for (int i = 0; i < THREADS; i++) {
    send_info info = send_infos_shd[i][MYTHREAD];
    upc_memget(&recv_keys[total], &key_array_shd[i * NK + info.displ], info.count * sizeof(int));
    total += info.count;
  }
  long local_sum = 0;
  for (int i = 0; i < total; i++) {
    if (bucket_of(recv_keys[i]) != MYTHREAD) errors++;
    local_sum += recv_keys[i];
  }
  /* sequential reference: my bucket's keys over all threads */
  long ref_sum = 0;
  int ref_n = 0;
  for (int t = 0; t < THREADS; t++)
    for (int i = 0; i < NK; i++) {
      int k = key_of(t, i);
      if (bucket_of(k) == MYTHREAD) { ref_sum += k; ref_n++; }
    }
  if (total != ref_n || local_sum != ref_sum) errors++;
  sums[MYTHREAD] = local_sum;
  upc_barrier;
  /* a tree reduction, as IS's: at each step, the threads owning a multiple of 2*s add in */
  for (int s = 1; s < THREADS; s *= 2) {
    upc_forall (int t = 0; t + s < THREADS; t += 2 * s; continue)
      if (t == MYTHREAD) sums[t] += sums[t + s];
    upc_barrier;
  }
  long all = 0;
  for (int t = 0; t < THREADS; t++)
    for (int i = 0; i < NK; i++) all += key_of(t, i);
  if (sums[0] != all) errors++;
  if (upc_blocksizeof(key_array_shd) != NK || sizeof(send_infos_shd) != THREADS * THREADS * sizeof(send_info))
    errors++;
  if (errors) { printf("npb_is_style: thread %d: %d errors\n", MYTHREAD, errors); return 1; }
  upc_barrier;
  if (MYTHREAD == 0) printf("npb_is_style: ok (THREADS %d, %d keys each)\n", THREADS, NK);
  return 0;
}
