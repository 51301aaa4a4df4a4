/* upccoll_initialize(&argc, &argv) takes its --upccoll-progress= option out of
 * the calling thread's own argc/argv (issue 27 item 2): every thread sees the
 * same arguments before and after, and a bad value is refused on every thread.
 *   PROG x --upccoll-progress=inline y   status 0: argc 3, argv {PROG, x, y}
 *   PROG x --upccoll-progress=bogus      status 3 on every thread */
#include <upc.h>
#include <upccoll.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  if (upccoll_initialize(&argc, &argv) != UPCCOLL_SUCCESS) {
    printf("thread %d: upccoll_initialize refused the progress mode\n", MYTHREAD);
    return 3;
  }
  if (argc != 3 || strcmp(argv[1], "x") != 0 || strcmp(argv[2], "y") != 0 || argv[3] != NULL) {
    printf("thread %d: argc %d after upccoll_initialize, expected 3: x y\n", MYTHREAD, argc);
    return 1;
  }
  upccoll_finalize();
  printf("thread %d: upccoll_initialize took its option out of this thread's argv\n", MYTHREAD);
  return 0;
}
