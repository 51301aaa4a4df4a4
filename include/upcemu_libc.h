/* upcemu_libc.h: getopt with its state per UPC thread (docs/implementation-defined.md
 * "C library state"). Included by <upc.h> (C++) and by upcemu_c.h, which upcc
 * -include's into every translated UPC file, so a program needs nothing of its own.
 *
 * On the threads backend every UPC thread is an OS thread of one process, and
 * glibc's getopt keeps its state (optind, optarg, opterr, optopt and where it is
 * inside an argument) once per process: a program that parses its options on every
 * thread would get them on one thread only. So, as glibc does for errno
 * (`#define errno (*__errno_location ())`), the four variables are macros for this
 * thread's own, and getopt, getopt_long and getopt_long_only are function-like
 * macros for parsers that keep their state per thread (lib/runtime/libc_getopt.cpp;
 * they behave as glibc's, permutation of argv and long options included).
 *
 * Works whether the program includes <unistd.h> / <getopt.h> before this header,
 * after it, or not at all: a declaration the system headers (or the program)
 * make later, `extern int optind;`, becomes `extern int (*upcemu_optind_location ());`,
 * a declaration of the same function; `extern int getopt (...)` becomes one of
 * upcemu_getopt with glibc's own prototype. Only a call `getopt (...)` is renamed,
 * so `&getopt` is still glibc's.
 *
 * Define UPCEMU_PROCESS_GETOPT before including it (upcc -DUPCEMU_PROCESS_GETOPT)
 * to keep the process-wide getopt: for a program that defines its own getopt or
 * optind, which these macros would rename. */
#ifndef UPCEMU_LIBC_H
#define UPCEMU_LIBC_H
/* A system header: a program's own `extern int optind;` expanded to a function
 * declaration must not warn about its parentheses (-Wparentheses in C++). */
#pragma GCC system_header

#ifndef UPCEMU_PROCESS_GETOPT
#ifdef __cplusplus
extern "C" {
#define UPCEMU_LIBC_NOTHROW noexcept
#else
#define UPCEMU_LIBC_NOTHROW __attribute__((__nothrow__))
#endif

/* This thread's optind, opterr, optopt and optarg. */
int *upcemu_optind_location(void);
int *upcemu_opterr_location(void);
int *upcemu_optopt_location(void);
char **upcemu_optarg_location(void);

/* glibc's getopt (GNU: argv is permuted unless POSIXLY_CORRECT is set or optstring
 * starts with '+'), with this thread's state. */
int upcemu_getopt(int argc, char *const *argv, const char *optstring) UPCEMU_LIBC_NOTHROW;
/* glibc's getopt_long and getopt_long_only. Declared here when <getopt.h> has
 * already defined struct option; otherwise <getopt.h> declares them through the
 * macros below when it is included (a program cannot call them without it). */
#if defined(_GETOPT_H) || defined(_GETOPT_EXT_H)
int upcemu_getopt_long(int argc, char *const *argv, const char *optstring, const struct option *longopts,
                       int *longindex) UPCEMU_LIBC_NOTHROW;
int upcemu_getopt_long_only(int argc, char *const *argv, const char *optstring, const struct option *longopts,
                            int *longindex) UPCEMU_LIBC_NOTHROW;
#endif

#ifdef __cplusplus
}
#endif
#undef UPCEMU_LIBC_NOTHROW

#define optind (*upcemu_optind_location())
#define opterr (*upcemu_opterr_location())
#define optopt (*upcemu_optopt_location())
#define optarg (*upcemu_optarg_location())
#define getopt(argc, argv, optstring) upcemu_getopt(argc, argv, optstring)
#define getopt_long(argc, argv, optstring, longopts, longindex) \
  upcemu_getopt_long(argc, argv, optstring, longopts, longindex)
#define getopt_long_only(argc, argv, optstring, longopts, longindex) \
  upcemu_getopt_long_only(argc, argv, optstring, longopts, longindex)
#endif /* UPCEMU_PROCESS_GETOPT */
#endif /* UPCEMU_LIBC_H */
