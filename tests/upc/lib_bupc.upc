/* Berkeley UPC's extensions through upcc (<bupc_extensions.h>, which upcc's
 * <upc.h> includes as Berkeley's does: this program includes only <upc.h>,
 * like the Berkeley codes it stands for): timers, thread distance,
 * non-blocking copies and handle arrays, semaphores with signalling puts,
 * atomics, pointer-to-shared utilities; each checked against what the
 * operation must give. With an argument, one misuse that must stop the run
 * (tests/meson.build checks the report). */
#include <upc.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define B 3
shared [B] int a[B * THREADS];
shared int got[THREADS];
shared uint64_t counter;
shared int64_t mixed[THREADS];
shared int32_t small[THREADS];
bupc_sem_t *shared sems[THREADS];
bupc_sem_t *shared sems2[THREADS];

static int failures;
#define CHECK(cond, ...)                                  \
  do {                                                    \
    if (!(cond)) {                                        \
      printf("thread %d: line %d: ", MYTHREAD, __LINE__); \
      printf(__VA_ARGS__);                                \
      printf("\n");                                       \
      failures++;                                         \
    }                                                     \
  } while (0)

/* The misuses, one per run (argv[1]). */
static int misuse(const char *which) {
  bupc_sem_t *s = bupc_sem_alloc(BUPC_SEM_BOOLEAN);
  if (!strcmp(which, "boolean_twice")) {
    bupc_sem_post(s);
    bupc_sem_post(s); /* a boolean semaphore holds at most 1 */
  } else if (!strcmp(which, "boolean_n")) {
    bupc_sem_postN(s, 2);
  } else if (!strcmp(which, "single_producer")) {
    bupc_sem_t *p = bupc_sem_alloc(BUPC_SEM_INTEGER | BUPC_SEM_SPRODUCER);
    if (MYTHREAD == 0) sems[0] = p;
    upc_barrier;
    /* two threads other than its own (thread 0's posts do not count, as in
       Berkeley's check): run with 3 threads */
    if (MYTHREAD == 1 || MYTHREAD == 2) bupc_sem_post(sems[0]);
    upc_barrier;
  } else if (!strcmp(which, "misaligned")) {
    bupc_atomicU64_fetchadd_relaxed((shared [] char *)&counter + 4, 1);
  } else if (!strcmp(which, "sync_twice")) {
    int x = 1;
    bupc_handle_t h = bupc_memput_async(&got[MYTHREAD], &x, sizeof x);
    bupc_waitsync(h);
    bupc_waitsync(h);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1) return misuse(argv[1]);
  const int me = MYTHREAD, T = THREADS, right = (MYTHREAD + 1) % THREADS, left = (MYTHREAD + THREADS - 1) % THREADS;
  int i;

  /* ---- timers ---- */
  bupc_tick_t t0 = bupc_ticks_now();
  bupc_tick_t t1 = t0;
  while (bupc_ticks_to_us(t1 - t0) < 2000) t1 = bupc_ticks_now(); /* 2 ms of ticks */
  CHECK(t1 >= t0 && bupc_ticks_to_ns(t1 - t0) >= 2000000, "2 ms measured as %llu ns", (unsigned long long)bupc_ticks_to_ns(t1 - t0));
  CHECK(bupc_ticks_to_us(123456789) == 123456 && bupc_ticks_to_ns(123456789) == 123456789, "tick conversions");
  CHECK(BUPC_TICK_MIN == 0 && BUPC_TICK_MAX == UINT64_MAX, "tick limits");
  CHECK(bupc_tick_granularityus() > 0 && bupc_tick_granularityus() < 1000, "granularity %g us", bupc_tick_granularityus());
  CHECK(bupc_tick_overheadus() > 0 && bupc_tick_overheadus() < 1000, "overhead %g us", bupc_tick_overheadus());

  /* ---- thread distance (one node: upcrun without --nodes) ---- */
  for (i = 0; i < T; i++) {
    unsigned int d = bupc_thread_distance(me, i);
    CHECK(d == bupc_thread_distance(i, me), "distance not symmetric");
    CHECK(i == me ? d == BUPC_THREADS_SAME : d == BUPC_THREADS_VERYNEAR, "distance %d-%d is %u", me, i, d);
  }

  /* ---- non-blocking copies and handle arrays ---- */
  int vals[B];
  for (i = 0; i < B; i++) vals[i] = 100 * me + i;
  bupc_handle_t h[3];
  h[0] = bupc_memput_async(&a[right * B], vals, sizeof vals);
  h[1] = BUPC_COMPLETE_HANDLE;
  h[2] = bupc_memset_async(&got[me], 0, sizeof(int));
  bupc_waitsync_all(h, 3);
  CHECK(h[0] == BUPC_COMPLETE_HANDLE && h[2] == BUPC_COMPLETE_HANDLE, "waitsync_all retires every handle");
  upc_barrier;
  int back[B];
  h[0] = bupc_memget_async(back, &a[me * B], sizeof back);
  CHECK(bupc_trysync_some(h, 1) == 1 && h[0] == BUPC_COMPLETE_HANDLE, "trysync_some");
  for (i = 0; i < B; i++) CHECK(back[i] == 100 * left + i, "memput_async/memget_async [%d] = %d", i, back[i]);
  CHECK(bupc_trysync_all(h, 3) == 1 && bupc_trysync_some(h, 3) == 1, "all complete already");
  h[1] = bupc_memcpy_async(&a[me * B], &a[me * B], 0);
  bupc_waitsync_some(h, 3);
  CHECK(h[1] == BUPC_COMPLETE_HANDLE, "waitsync_some");
  bupc_begin_accessregion();
  bupc_memput_asynci(&got[right], &me, sizeof me);
  bupc_handle_t region = bupc_end_accessregion();
  bupc_waitsync(region);
  bupc_waitsynci();
  CHECK(bupc_trysynci() == 1, "trysynci");
  upc_barrier;
  CHECK(got[me] == left, "asynci put: %d", got[me]);

  /* ---- semaphores: each thread signals its right neighbour ---- */
  bupc_sem_t *mine = bupc_sem_alloc(0);
  CHECK(upc_threadof(mine) == (size_t)me, "a semaphore lives on its allocating thread");
  sems[me] = mine;
  upc_barrier;
  CHECK(bupc_sem_try(mine) == 0, "try on 0");
  upc_barrier; /* nobody posts before every thread has tried */
  int token = 7000 + me;
  bupc_memput_signal(&got[right], &token, sizeof token, sems[right], 1);
  bupc_sem_wait(mine);
  CHECK(got[me] == 7000 + left, "memput_signal data: %d", got[me]);
  upc_barrier; /* everyone has read got[me] before the next put writes it again (a race otherwise) */
  bupc_memput_signal_async(&got[right], &token, sizeof token, sems[right], 3);
  bupc_sem_waitN(mine, 3);
  bupc_sem_postN(mine, 5);
  CHECK(bupc_sem_tryN(mine, 6) == 0 && bupc_sem_tryN(mine, 5) == 1 && bupc_sem_try(mine) == 0, "postN/tryN");
  upc_barrier;
  bupc_sem_t *flag = bupc_sem_alloc(BUPC_SEM_BOOLEAN | BUPC_SEM_SPRODUCER | BUPC_SEM_SCONSUMER);
  bupc_sem_post(flag);
  CHECK(bupc_sem_try(flag) == 1 && bupc_sem_try(flag) == 0, "boolean post/try");
  bupc_sem_free(flag);
  /* a single-producer semaphore posted by its own thread and by one other (the
     left neighbour), as Berkeley's bupc_semperf does: allowed */
  upc_barrier;
  bupc_sem_t *single = bupc_sem_alloc(BUPC_SEM_INTEGER | BUPC_SEM_SPRODUCER | BUPC_SEM_SCONSUMER);
  sems2[me] = single;
  bupc_sem_post(single);
  bupc_sem_wait(single);
  upc_barrier;
  bupc_sem_post(sems2[right]);
  bupc_sem_wait(single);
  upc_barrier;
  bupc_sem_free(single);
  /* a ring of posts: thread 0 starts, each passes on after its wait */
  if (me == 0) bupc_sem_post(sems[right]);
  bupc_sem_wait(mine);
  if (me != 0) bupc_sem_post(sems[right]);
  upc_barrier;
  bupc_sem_free(mine);

  /* ---- atomics ---- */
  if (me == 0) counter = 0;
  upc_barrier;
  for (i = 0; i < 100; i++) bupc_atomicU64_fetchadd_relaxed(&counter, (uint64_t)(me + 1));
  upc_barrier;
  CHECK(bupc_atomicU64_read_strict(&counter) == (uint64_t)(100 * T * (T + 1) / 2), "fetchadd total %llu",
        (unsigned long long)counter);
  /* a lock made of cswap: every thread adds once under it */
  upc_barrier;
  if (me == 0) bupc_atomicU64_set_strict(&counter, 0);
  upc_barrier;
  int done = 0;
  while (!done) {
    if (bupc_atomicU64_cswap_strict(&counter, 0, (uint64_t)(me + 1)) == 0) {
      CHECK(bupc_atomicU64_read_relaxed(&counter) == (uint64_t)(me + 1), "held");
      bupc_atomicU64_set_strict(&counter, 0);
      done = 1;
    }
  }
  mixed[me] = -5;
  CHECK(bupc_atomicI64_fetchadd_strict(&mixed[me], -3) == -5 && mixed[me] == -8, "I64 fetchadd");
  CHECK(bupc_atomicI64_swap_relaxed(&mixed[me], 12) == -8 && mixed[me] == 12, "I64 swap");
  CHECK(bupc_atomicI64_fetchand_relaxed(&mixed[me], 10) == 12 && mixed[me] == 8, "I64 and");
  CHECK(bupc_atomicI64_fetchor_relaxed(&mixed[me], 3) == 8 && mixed[me] == 11, "I64 or");
  CHECK(bupc_atomicI64_fetchxor_relaxed(&mixed[me], 1) == 11 && mixed[me] == 10, "I64 xor");
  CHECK(bupc_atomicI64_fetchnot_strict(&mixed[me]) == 10 && mixed[me] == ~(int64_t)10, "I64 not");
  CHECK(bupc_atomicI64_cswap_relaxed(&mixed[me], 0, 1) == ~(int64_t)10 && mixed[me] == ~(int64_t)10, "failed cswap");
  small[me] = 0;
  upc_barrier;
  bupc_atomicI32_fetchadd_relaxed(&small[right], -(me + 1));
  bupc_atomicU32_fetchadd_strict((shared void *)&small[left], 0);
  upc_barrier;
  CHECK(bupc_atomicI32_read_relaxed(&small[me]) == -(left + 1), "I32 from the left: %d", (int)small[me]);
  CHECK((int32_t)bupc_atomicU32_fetchxor_relaxed(&small[me], 0) == -(left + 1), "U32 xor 0");

  /* ---- pointers-to-shared ---- */
  for (i = 0; i < B * T; i++) {
    shared [B] int *q = (shared [B] int *)bupc_ptradd(a, B, sizeof(int), i);
    CHECK(q == &a[i] && upc_phaseof(q) == upc_phaseof(&a[i]) && upc_threadof(q) == upc_threadof(&a[i]), "ptradd %d", i);
  }
  shared [B] int *mid = &a[1];
  CHECK((shared [B] int *)bupc_ptradd(mid, B, sizeof(int), -1) == &a[0], "ptradd backwards");
  int *local = (int *)bupc_cast(&a[me * B + 1]);
  CHECK(local != NULL && local == (int *)&a[me * B + 1], "bupc_cast");
  CHECK(bupc_castable(&a[right * B]) == 1 && bupc_castable(NULL) == 1 && bupc_thread_castable(right) == 1, "castable");
  shared [B] int *again = (shared [B] int *)bupc_local_to_shared(local, me, 1);
  CHECK(again == &a[me * B + 1] && upc_phaseof(again) == 1, "local_to_shared");
  char text[BUPC_DUMP_MIN_LENGTH];
  CHECK(bupc_dump_shared(&a[me * B], text, sizeof text) == 0 && strstr(text, "thread=") != NULL, "dump_shared: %s", text);
  errno = 0;
  CHECK(bupc_dump_shared(&a[0], text, 10) == -1 && errno == EINVAL, "dump_shared, short buffer");
  CHECK(bupc_getenv("PATH") == getenv("PATH"), "getenv");
  bupc_trace_printf(("not traced %d", me));
  bupc_trace_setmask("PGH");
  CHECK(strcmp(bupc_trace_getmask(), "") == 0 && bupc_trace_gettracelocal() == 0, "no tracing");
  bupc_poll();

  if (failures) printf("thread %d: %d failures\n", me, failures);
  upc_barrier;
  if (me == 0 && !failures) printf("lib_bupc: OK at THREADS %d\n", T);
  return failures != 0;
}
