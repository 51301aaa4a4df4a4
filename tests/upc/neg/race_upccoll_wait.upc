/* Race: a non-blocking <upccoll.h> broadcast's receive buffer read before
   upccoll_wait: the collective may write it until the wait returns. */
#include <upc.h>
#include <upccoll.h>
shared [4] int S[4 * THREADS];
shared [4] int R[4 * THREADS];
int main(int argc, char **argv) {
  upccoll_handle_t h;
  int early;
  upccoll_initialize(&argc, &argv);
  S[4 * MYTHREAD + 1] = 42;
  upccoll_bcast(&S[4 * MYTHREAD], 4, UPC_INT, &R[4 * MYTHREAD], 4, UPC_INT, 0, UPC_TEAM_ALL, 0, &h);
  early = R[4 * MYTHREAD + 1];
  upccoll_wait(h);
  upccoll_finalize();
  return early == 12345;
}
