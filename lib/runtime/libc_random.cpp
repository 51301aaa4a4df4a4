// rand, srand, random, srandom, initstate, setstate and the drand48 family with
// their state per OS thread, so per UPC thread on every backend: after srand(s)
// each thread gets the sequence a process of its own gets from glibc after
// srand(s), whatever the other threads draw meanwhile.
//
// These definitions take the place of glibc's for the whole program (a program
// is linked with libupcemu before the C library; weak, so that a program that
// defines its own rand keeps it). Each one is glibc's reentrant form (random_r,
// drand48_r, ...) on a thread-local state that starts as glibc's does: the
// random() table as initstate(1, ..., 128) leaves it (glibc's own initial table,
// rand() being random()), the drand48 state all zero. tests/upc/libc_state.upc and
// libc_state_cpp.cpp compare every sequence with glibc's in a separate process.
#include <stdlib.h>
#include <string.h>

#include <cstdint>

#include "libc_state.hpp"

namespace upc::detail {
namespace {

struct random_state {
  bool ready = false;
  random_data table_state;            // random_r's view of `table` (or of initstate's buffer)
  std::int32_t table[32];             // 128 bytes: glibc's default TYPE_3 table
  drand48_data rand48;                // all zero: glibc's initial drand48 state
};

thread_local random_state tl_random;

random_data& table_state() noexcept {
  random_state& r = tl_random;
  if (!r.ready) {
    memset(&r.table_state, 0, sizeof r.table_state);
    initstate_r(1, reinterpret_cast<char*>(r.table), sizeof r.table, &r.table_state);
    r.ready = true;
  }
  return r.table_state;
}

drand48_data& rand48_state() noexcept { return tl_random.rand48; }

}  // namespace

void reset_random_state() noexcept {
  tl_random.ready = false;
  memset(&tl_random.rand48, 0, sizeof tl_random.rand48);
}

}  // namespace upc::detail

using upc::detail::rand48_state;
using upc::detail::table_state;

extern "C" {

__attribute__((weak)) int rand(void) noexcept {
  std::int32_t r;
  random_r(&table_state(), &r);
  return r;
}
__attribute__((weak)) void srand(unsigned int seed) noexcept { srandom_r(seed, &table_state()); }
__attribute__((weak)) long int random(void) noexcept {
  std::int32_t r;
  random_r(&table_state(), &r);
  return r;
}
__attribute__((weak)) void srandom(unsigned int seed) noexcept { srandom_r(seed, &table_state()); }
// Both return the previous state as glibc does: the address just before the
// table (where its type word is).
__attribute__((weak)) char* initstate(unsigned int seed, char* state, size_t n) noexcept {
  random_data& d = table_state();
  char* previous = reinterpret_cast<char*>(&d.state[-1]);
  return initstate_r(seed, state, n, &d) == -1 ? nullptr : previous;
}
__attribute__((weak)) char* setstate(char* state) noexcept {
  random_data& d = table_state();
  char* previous = reinterpret_cast<char*>(&d.state[-1]);
  return setstate_r(state, &d) < 0 ? nullptr : previous;
}

__attribute__((weak)) double drand48(void) noexcept {
  double x;
  drand48_r(&rand48_state(), &x);
  return x;
}
__attribute__((weak)) double erand48(unsigned short int xsubi[3]) noexcept {
  double x;
  erand48_r(xsubi, &rand48_state(), &x);
  return x;
}
__attribute__((weak)) long int lrand48(void) noexcept {
  long int x;
  lrand48_r(&rand48_state(), &x);
  return x;
}
__attribute__((weak)) long int nrand48(unsigned short int xsubi[3]) noexcept {
  long int x;
  nrand48_r(xsubi, &rand48_state(), &x);
  return x;
}
__attribute__((weak)) long int mrand48(void) noexcept {
  long int x;
  mrand48_r(&rand48_state(), &x);
  return x;
}
__attribute__((weak)) long int jrand48(unsigned short int xsubi[3]) noexcept {
  long int x;
  jrand48_r(xsubi, &rand48_state(), &x);
  return x;
}
__attribute__((weak)) void srand48(long int seed) noexcept { srand48_r(seed, &rand48_state()); }
__attribute__((weak)) unsigned short int* seed48(unsigned short int seed16v[3]) noexcept {
  drand48_data& d = rand48_state();
  seed48_r(seed16v, &d);
  return d.__old_x;  // glibc returns its own state's previous seed
}
__attribute__((weak)) void lcong48(unsigned short int param[7]) noexcept { lcong48_r(param, &rand48_state()); }

}  // extern "C"
