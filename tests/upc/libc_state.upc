/* C library state that is a process's own on a UPC implementation that runs each
 * thread as a process, and must be each UPC thread's own on every upcemu backend
 * (docs/implementation-defined.md "C library state"): on every thread, rand,
 * random and the drand48 family after their seeding functions give the sequence
 * glibc gives a separate process (argv[1]: the file libc_reference.c wrote), strtok
 * cuts the thread's own string, errno is the thread's own. A barrier between
 * every two calls makes the threads' calls interleave. */
#include <upc.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libc_sequences.h"

#define MAX_VALUES 64

static char names[MAX_VALUES][48];
static int indexes[MAX_VALUES];
static double expected[MAX_VALUES];
static int count, next, bad;

strict shared int arrived[THREADS];

/* The lines of the reference file for this thread's seed, in order. */
static int load_reference(const char *path, int seed) {
  char line[160];
  FILE *f = fopen(path, "r");
  if (!f) {
    printf("thread %d: cannot open %s\n", MYTHREAD, path);
    return 0;
  }
  while (fgets(line, sizeof line, f)) {
    char *name = strchr(line, ' '), *bar, *value;
    if (!name || atoi(line) != seed) continue;
    name++;
    bar = strchr(name, '|');
    if (!bar || count == MAX_VALUES || bar - name >= 48) break;
    *bar = '\0';
    strcpy(names[count], name);
    indexes[count] = atoi(bar + 1);
    value = strchr(bar + 1, '|');
    if (!value) break;
    expected[count++] = strtod(value + 1, NULL);
  }
  fclose(f);
  return count > 0;
}

static void check_value(const char *name, int i, double v) {
  if (next >= count || strcmp(names[next], name) != 0 || indexes[next] != i || expected[next] != v) {
    printf("thread %d: %s [%d] = %a; glibc in a process of its own: %s [%d] = %a\n", MYTHREAD, name, i, v,
           next < count ? names[next] : "(nothing)", next < count ? indexes[next] : -1, next < count ? expected[next] : 0.0);
    bad = 1;
  }
  next++;
}

static void barrier_step(void) { upc_barrier; }

static void check_token(const char *got, const char *want) {
  if ((got == NULL) != (want == NULL) || (got && strcmp(got, want) != 0)) {
    printf("thread %d: strtok gave '%s', expected '%s'\n", MYTHREAD, got ? got : "(null)", want ? want : "(null)");
    bad = 1;
  }
}

int main(int argc, char **argv) {
  char text[64], want[4][16];
  int t;
  if (argc < 2 || !load_reference(argv[1], MYTHREAD + 1)) {
    printf("usage: libc_state REFERENCE_FILE (from libc_reference)\n");
    return 2;
  }
  libc_sequences(MYTHREAD + 1, check_value, barrier_step);
  if (next != count) {
    printf("thread %d: %d values checked, the reference has %d\n", MYTHREAD, next, count);
    bad = 1;
  }

  /* strtok: every thread cuts its own string, one token per barrier */
  snprintf(text, sizeof text, ",t%d;a%d,,b%d;c%d;", MYTHREAD, MYTHREAD, MYTHREAD, MYTHREAD);
  snprintf(want[0], sizeof want[0], "t%d", MYTHREAD);
  snprintf(want[1], sizeof want[1], "a%d", MYTHREAD);
  snprintf(want[2], sizeof want[2], "b%d", MYTHREAD);
  snprintf(want[3], sizeof want[3], "c%d", MYTHREAD);
  check_token(strtok(text, ",;"), want[0]);
  upc_barrier;
  for (t = 1; t < 4; t++) {
    check_token(strtok(NULL, ",;"), want[t]);
    upc_barrier;
  }
  check_token(strtok(NULL, ",;"), NULL);
  upc_barrier;

  /* errno: each thread's own. Set, then wait until every thread has set its own
   * (strict flags, no library call that could set errno), then read. */
  errno = 1000 + MYTHREAD;
  arrived[MYTHREAD] = 1;
  for (t = 0; t < THREADS; t++)
    while (!arrived[t]) {
    }
  if (errno != 1000 + MYTHREAD) {
    printf("thread %d: errno is %d, this thread set %d\n", MYTHREAD, errno, 1000 + MYTHREAD);
    bad = 1;
  }
  upc_barrier;
  if (!bad) printf("thread %d: rand, random, drand48, strtok and errno are this thread's own\n", MYTHREAD);
  return bad;
}
