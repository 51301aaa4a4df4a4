/* A module whose constructor sleeps 6 s: a thread that opens it holds the
   dynamic loader's lock for that long (glibc runs constructors under it), as a
   thread in the middle of dlopen does when another crashes. test_backtrace.cpp
   checks that a crash's backtrace then comes without symbols, in time, rather
   than never. */
#include <unistd.h>

__attribute__((constructor)) static void hold_the_loader_lock() { ::sleep(6); }
