// Placeholder: being written.
#include "../support/spmd.hpp"
