/* The calls of the C library's random number generators whose results a UPC
 * thread must get as a process of its own gets them from glibc (the state of
 * rand/random and of the drand48 family is per process in glibc, per UPC thread
 * in upcemu: lib/runtime/libc_random.cpp). Shared by
 *   libc_reference.c    plain C, built without upcemu: glibc's own answers;
 *   libc_state.upc      the same calls on every UPC thread (upcc);
 *   libc_state_cpp.cpp  the same calls on every UPC thread (C++ API).
 * Each call's result goes to value(name, i, v); step() comes between calls (a
 * barrier in the UPC programs, so that the threads' calls interleave). The
 * sequence depends on the seed only: thread t uses seed t + 1. */
#ifndef LIBC_SEQUENCES_H
#define LIBC_SEQUENCES_H
#include <stdlib.h>

typedef void (*libc_value_fn)(const char *name, int i, double v);
typedef void (*libc_step_fn)(void);

static void libc_sequences(int seed, libc_value_fn value, libc_step_fn step) {
  char table[64]; /* initstate's private table, left before returning */
  unsigned short x[3], seed16[3], params[7], *old;
  char *previous;
  int i;
  /* A thread that has not seeded yet: srand(1)'s sequence, drand48's zero state. */
  for (i = 0; i < 3; i++) { value("rand before srand", i, rand()); step(); }
  for (i = 0; i < 2; i++) { value("drand48 before srand48", i, drand48()); step(); }
  srand((unsigned)seed);
  step();
  for (i = 0; i < 8; i++) { value("rand", i, rand()); step(); }
  srandom((unsigned)seed * 1000u + 7u);
  step();
  for (i = 0; i < 4; i++) { value("random", i, (double)random()); step(); }
  /* a private table (TYPE_2), then back to the default one where it was */
  previous = initstate((unsigned)seed, table, sizeof table);
  step();
  for (i = 0; i < 3; i++) { value("random after initstate", i, (double)random()); step(); }
  setstate(previous);
  step();
  for (i = 0; i < 2; i++) { value("random after setstate", i, (double)random()); step(); }
  srand48(seed);
  step();
  for (i = 0; i < 4; i++) { value("drand48", i, drand48()); step(); }
  for (i = 0; i < 2; i++) { value("lrand48", i, (double)lrand48()); step(); }
  for (i = 0; i < 2; i++) { value("mrand48", i, (double)mrand48()); step(); }
  x[0] = (unsigned short)seed; x[1] = 2; x[2] = 3;
  for (i = 0; i < 2; i++) { value("erand48", i, erand48(x)); step(); }
  for (i = 0; i < 2; i++) { value("nrand48", i, (double)nrand48(x)); step(); }
  for (i = 0; i < 2; i++) { value("jrand48", i, (double)jrand48(x)); step(); }
  seed16[0] = (unsigned short)seed; seed16[1] = (unsigned short)(seed + 1); seed16[2] = (unsigned short)(seed + 2);
  old = seed48(seed16);
  for (i = 0; i < 3; i++) value("seed48's previous state", i, old[i]);
  step();
  for (i = 0; i < 2; i++) { value("drand48 after seed48", i, drand48()); step(); }
  params[0] = (unsigned short)seed; params[1] = 1; params[2] = 2;
  params[3] = 5; params[4] = 6; params[5] = 7; params[6] = 11;
  lcong48(params);
  step();
  for (i = 0; i < 2; i++) { value("lrand48 after lcong48", i, (double)lrand48()); step(); }
  for (i = 0; i < 2; i++) { value("erand48 after lcong48", i, erand48(x)); step(); }
}
#endif
