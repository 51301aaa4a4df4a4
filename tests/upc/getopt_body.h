/* Every UPC thread parses its options with getopt: the checks shared by
 * getopt_threads.upc (upcc) and getopt_threads_cpp.cpp (C++ API), in the subset
 * of C and C++ both compile. Run as
 *   PROG input1 -v --count=3 input2 -o out.txt --verbose --name abc -- -x last
 * Each thread must get every option, its own argv permuted as GNU getopt permutes
 * it, its own optind/optarg/opterr/optopt, and its own argument strings. A
 * barrier after each getopt call makes the threads' calls interleave. Returns the
 * number of failed checks. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int getopt_failures;

static void expect(int ok, const char *what) {
  if (!ok) {
    printf("thread %d: %s\n", MYTHREAD, what);
    getopt_failures++;
  }
}

/* The options every thread is given, in the order glibc's getopt_long leaves argv. */
static const char *const permuted_argv[] = {"-v", "--count=3", "-o", "out.txt", "--verbose", "--name", "abc", "--",
                                            "input1", "input2", "-x", "last"};

static int check_getopt(int argc, char **argv) {
  static struct option longopts[] = {{"count", required_argument, 0, 'c'},
                                     {"name", required_argument, 0, 'n'},
                                     {"verbose", no_argument, 0, 'v'},
                                     {0, 0, 0, 0}};
  char a[] = "-a", b[] = "-b", bad_option[] = "-y", file[] = "file", value[16];
  char *mine[12];
  int c, i, n = 0, verbose = 0, count = 0, a_seen = 0;
  const char *out = 0, *name = 0, *b_value = 0;

  if (argc != 13) {
    printf("thread %d: run with the 12 arguments of getopt_body.h, got %d\n", MYTHREAD, argc - 1);
    return 1;
  }
  /* 1. The program's own arguments, options after non-options (permutation). */
  while ((c = getopt_long(argc, argv, "vo:", longopts, 0)) != -1) {
    upc_barrier;
    if (c == 'v') verbose++;
    else if (c == 'c') count = atoi(optarg);
    else if (c == 'o') out = optarg;
    else if (c == 'n') name = optarg;
    else expect(0, "getopt_long returned an option it was not given");
  }
  upc_barrier;
  expect(verbose == 2, "-v and --verbose: not both seen");
  expect(count == 3, "--count=3 not seen");
  expect(out && strcmp(out, "out.txt") == 0, "-o out.txt not seen");
  expect(name && strcmp(name, "abc") == 0, "--name abc not seen");
  expect(optind == 9, "optind is not 9 (the first non-option after the permutation)");
  for (i = 1; i < argc; i++) expect(strcmp(argv[i], permuted_argv[i - 1]) == 0, "argv is not permuted as glibc permutes it");

  /* 2. A vector of this thread's own, parsed from the start again (optind = 0):
   * thread t gives -a (t % 3 + 1) times, an invalid option, -b t<t>, a file. The
   * same number of calls everywhere (getopt keeps returning -1 at the end). */
  snprintf(value, sizeof value, "t%d", MYTHREAD);
  if (MYTHREAD % 2) bad_option[1] = 'z';
  mine[n++] = argv[0];
  for (i = 0; i <= MYTHREAD % 3; i++) mine[n++] = a;
  mine[n++] = bad_option;
  mine[n++] = file;
  mine[n++] = b;
  mine[n++] = value;
  mine[n] = 0;
  optind = 0;
  opterr = 0; /* quiet: the invalid option only sets optopt */
  for (i = 0; i < 7; i++) {
    c = getopt(n, mine, "ab:");
    upc_barrier;
    if (c == 'a') a_seen++;
    else if (c == 'b') b_value = optarg;
    else if (c == '?') expect(optopt == bad_option[1], "optopt is not this thread's invalid option");
  }
  expect(a_seen == MYTHREAD % 3 + 1, "-a not seen as many times as this thread gave it");
  expect(b_value && strcmp(b_value, value) == 0, "-b's argument is not this thread's");
  expect(optind == n - 1 && strcmp(mine[optind], "file") == 0, "optind does not name this thread's file");
  upc_barrier;

  /* 3. The argument strings are this thread's own copy. */
  argv[argc - 1][0] = (char)('A' + MYTHREAD % 26);
  upc_barrier;
  expect(argv[argc - 1][0] == 'A' + MYTHREAD % 26, "another thread wrote into this thread's argv");
  upc_barrier;
  return getopt_failures;
}
