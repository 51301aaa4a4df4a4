/* Every UPC thread parses its options with getopt_long and getopt (checks in
 * getopt_body.h): each gets all of them, from its own argv (docs/upcc.md "C
 * library state"). <getopt.h> is included after upcc's upcemu_c.h, as always. */
#include <upc.h>

#include "getopt_body.h"

int main(int argc, char **argv) {
  int failures = check_getopt(argc, argv);
  if (!failures) printf("thread %d: its options, its argv\n", MYTHREAD);
  return failures != 0;
}
