/* include/upcemu_libc.h (getopt per UPC thread) next to the system headers:
 * tests/meson.build compiles this with -Werror in C89, C99, C11 and GNU modes,
 * POSIX-only feature macros included, and as C++, with the system headers
 * before the macros (SYSTEM_FIRST), after them (the order upcc gives: upcemu_c.h
 * comes first), or not at all (OWN_DECLARATIONS: old code declares what it
 * uses). Every use below must reach upcemu's functions, whatever glibc's
 * headers declare around them. */
#if defined(SYSTEM_FIRST) && !defined(OWN_DECLARATIONS)
#include <getopt.h>
#include <unistd.h>
#endif
#include "upcemu_libc.h"
#if !defined(SYSTEM_FIRST) && !defined(OWN_DECLARATIONS)
#include <getopt.h>
#include <unistd.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif
extern char *optarg;
extern int optind, opterr, optopt;
#ifdef OWN_DECLARATIONS
int getopt(int argc, char *const argv[], const char *optstring);
#endif
#ifdef __cplusplus
}
#endif

int parse_options(int argc, char **argv);

int parse_options(int argc, char **argv) {
  int c, n = 0;
#ifndef OWN_DECLARATIONS
  static const struct option longopts[] = {{"name", required_argument, 0, 'n'}, {0, 0, 0, 0}};
  int index = 0;
#endif
  opterr = 0;
  optind = 1;
  while ((c = getopt(argc, argv, "ab:")) != -1)
    if (c == 'b' && optarg) n += optarg[0];
#ifndef OWN_DECLARATIONS
  optind = 0;
  while ((c = getopt_long(argc, argv, "a", longopts, &index)) != -1) n += c;
  optind = 0;
  while ((c = getopt_long_only(argc, argv, "a", longopts, &index)) != -1) n += c;
#endif
  /* the names are this thread's: the locations upcemu keeps */
  n += &optind == upcemu_optind_location() && &opterr == upcemu_opterr_location() &&
       &optopt == upcemu_optopt_location() && &optarg == upcemu_optarg_location();
  return n + optopt + optind;
}
