/* exit() on one UPC thread (UPC 1.3 §5.1.2.2.3: a thread is terminated by a call
 * to exit as by a return from main; the program ends when every thread has
 * ended): that thread ends with the status, its atexit handlers run (last
 * registered first) and its output is flushed; the others go on. Its shared data
 * stays valid. Modes (argv[1]); check_run.py checks the status and the output:
 *   one      thread THREADS-1 calls exit(5) deep in calls, inside a upc_forall;
 *            the others go on and read what it wrote. Status 5.
 *   statuses thread t calls exit(10 + t), thread 0 returns 0: status 11, the
 *            first non-zero status in thread order (THREADS 1: 0).
 *   barrier  thread THREADS-1 calls exit(4) while the others wait for it at a
 *            barrier: that barrier can never complete, a report, status 1
 *            (THREADS 1: status 4). */
#include <upc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

shared int written[THREADS];
strict shared int exited_flag;

static int second_ran; /* private: each thread's own */

static void second_registered(void) { second_ran = 1; }
static void first_registered(void) {
  printf("thread %d: atexit handlers ran%s\n", MYTHREAD, second_ran ? ", last registered first" : " in the wrong order");
}

static void deep(int depth, int status) {
  if (depth == 0) {
    printf("thread %d: calls exit(%d)\n", MYTHREAD, status);
    exit(status);
  }
  deep(depth - 1, status);
  printf("thread %d: after exit (never printed)\n", MYTHREAD);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "one";
  int i, last = THREADS - 1;
  atexit(first_registered);
  atexit(second_registered);
  upc_barrier;
  if (strcmp(mode, "one") == 0) {
    if (MYTHREAD == last) {
      written[MYTHREAD] = 4242;
      exited_flag = 1; /* strict: written[] is visible first */
      upc_forall (i = 0; i < THREADS; i++; i)
        deep(3, 5);
    }
    if (MYTHREAD == 0) {
      while (!exited_flag) {
      }
      if (written[last] != 4242) {
        printf("thread 0: thread %d's shared data is gone\n", last);
        return 1;
      }
    }
    printf("thread %d: went on after thread %d called exit\n", MYTHREAD, last);
    return 0;
  }
  if (strcmp(mode, "statuses") == 0) {
    if (MYTHREAD > 0) deep(1, 10 + MYTHREAD);
    return 0;
  }
  if (strcmp(mode, "barrier") == 0) {
    if (MYTHREAD == last) deep(0, 4);
    upc_barrier;
    printf("thread %d: past a barrier thread %d never reached\n", MYTHREAD, last);
    return 0;
  }
  printf("unknown mode %s\n", mode);
  return 2;
}
