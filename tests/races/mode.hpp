// The one argument of every race-kind program (tests/races/): `wrong` runs the
// race, `right` the same program with the fix. Anything else: usage, status 2.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace race_kind {

inline bool done_right(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "right") == 0) return true;
  if (argc == 2 && std::strcmp(argv[1], "wrong") == 0) return false;
  std::fprintf(stderr, "usage: %s wrong|right\n", argc > 0 ? argv[0] : "race-kind program");
  std::exit(2);
}

}  // namespace race_kind
