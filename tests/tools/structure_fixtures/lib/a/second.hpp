#pragma once
#include "first.hpp"

struct second_type {
  first_type* first;
};
