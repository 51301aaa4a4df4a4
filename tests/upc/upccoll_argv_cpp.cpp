// upccoll_argv.upc in the C++ API: upccoll_initialize(&argc, &argv) edits the
// calling thread's own argc/argv (issue 27 item 2), on every thread alike.
#include <cstdio>
#include <cstring>

#include "upc.h"
#include "upccoll.h"

int upc_main(int argc, char** argv) {
  if (upccoll_initialize(&argc, &argv) != UPCCOLL_SUCCESS) {
    std::printf("thread %d: upccoll_initialize refused the progress mode\n", MYTHREAD);
    return 3;
  }
  if (argc != 3 || std::strcmp(argv[1], "x") != 0 || std::strcmp(argv[2], "y") != 0 || argv[3] != nullptr) {
    std::printf("thread %d: argc %d after upccoll_initialize, expected 3: x y\n", MYTHREAD, argc);
    return 1;
  }
  upccoll_finalize();
  std::printf("thread %d: upccoll_initialize took its option out of this thread's argv\n", MYTHREAD);
  return 0;
}
