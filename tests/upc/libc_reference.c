/* glibc's own answers for libc_sequences.h: built without upcemu, run at build
 * time, one process per seed (as a UPC thread of a UPC implementation that runs
 * threads as processes). Prints "SEED NAME|I|VALUE" lines, VALUE in %a (exact);
 * libc_state.upc and libc_state_cpp.cpp read them. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libc_sequences.h"

static int current_seed;

static void print_value(const char *name, int i, double v) { printf("%d %s|%d|%a\n", current_seed, name, i, v); }
static void no_step(void) {}

int main(void) {
  for (int seed = 1; seed <= 8; seed++) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) return 1;
    if (pid == 0) { /* a fresh process's state for every seed */
      current_seed = seed;
      libc_sequences(seed, print_value, no_step);
      fflush(stdout);
      _exit(0);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return 1;
  }
  return 0;
}
