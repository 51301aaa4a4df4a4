#pragma once
// An include cycle: first.hpp -> second.hpp -> first.hpp.
#include "second.hpp"

struct first_type {
  int value;
};
