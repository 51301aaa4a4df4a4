/* getopt in old C style: no <unistd.h> or <getopt.h>, the program declares what
 * it uses itself (upcemu_c.h turns the declarations into its own; docs/upcc.md).
 * Every thread parses its options: PROG -a x -b 7 y -c */
#include <upc.h>
#include <stdio.h>
#include <string.h>

extern char *optarg;
extern int optind, opterr, optopt;
int getopt(int argc, char *const argv[], const char *optstring);

int main(int argc, char **argv) {
  int c, a = 0, c_seen = 0, bad = 0;
  const char *b = 0;
  while ((c = getopt(argc, argv, "ab:c")) != -1) {
    upc_barrier;
    if (c == 'a') a++;
    else if (c == 'b') b = optarg;
    else if (c == 'c') c_seen++;
    else bad = 1;
  }
  if (argc != 7 || a != 1 || c_seen != 1 || !b || strcmp(b, "7") != 0 || optind != 5 || strcmp(argv[optind], "x") != 0 ||
      strcmp(argv[optind + 1], "y") != 0) {
    printf("thread %d: getopt did not give this thread its options (a=%d c=%d b=%s optind=%d)\n", MYTHREAD, a, c_seen,
           b ? b : "(none)", optind);
    bad = 1;
  }
  if (!bad) printf("thread %d: its options\n", MYTHREAD);
  return bad;
}
