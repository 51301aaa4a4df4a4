/* Run with 2 or more threads: the barrier ids differ, a run-time error. */
#include <upc.h>
int main(void) {
  upc_barrier MYTHREAD;
  return 0;
}
