// Per-thread initialisers of private variables (include/upcemu_c.h): a file-scope
// or static private pointer-to-shared initialised with an address
// (`shared int *p = &x[0];`) is thread-local in the translated program, and its
// value is a call into the runtime, not a C constant. upcc registers a function
// per such variable from a constructor; every thread runs all of them before the
// program's main (libupcemu_c_main), after the shared objects' initialisers.
#include <vector>

#include "upcemu_c.h"
#include "upc.h"

namespace {
std::vector<void (*)(void)>& private_initializers() {
  static std::vector<void (*)(void)> v;  // filled by constructors, read-only during runs
  return v;
}
}  // namespace

extern "C" void upcemu_private_initializer(void (*fn)(void)) { private_initializers().push_back(fn); }

extern "C" void upcemu_run_private_initializers(void) {
  for (auto fn : private_initializers()) fn();
}

extern "C" void upcemu_poll(void) { upc::poll(); }
