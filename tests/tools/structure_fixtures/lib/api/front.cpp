// A front-end: the engine's public header is fine, the other two are not
// (the second is found through lib/, as meson's implicit include path does).
#include "../coll/engine.hpp"
#include "../coll/inner.hpp"
#include "coll/detail.hpp"

const char* front_name = "upccoll_bcast";  // upccoll words belong in front-ends
