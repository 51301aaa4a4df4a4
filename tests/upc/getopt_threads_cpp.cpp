// getopt_threads.upc in the C++ API: every UPC thread parses its options with
// getopt_long and getopt (checks in getopt_body.h). The system headers come
// before "upc.h" here (the UPC program has them after): both orders must work.
#include <getopt.h>
#include <unistd.h>

#include "upc.h"

#include "getopt_body.h"

int upc_main(int argc, char** argv) {
  const int failures = check_getopt(argc, argv);
  if (!failures) std::printf("thread %d: its options, its argv\n", MYTHREAD);
  return failures != 0;
}
