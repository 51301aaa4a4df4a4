#include <upc.h>
#include <upc_collective_ext.h>
/* thread 1's block of a one-row array broadcast in place: the _rooted form was meant (issue 27.10) */
#define N 4
shared [N] int A[N * THREADS];
int main(void) {
  upc_all_broadcast_in_place(&A[1 * N], N * sizeof(int), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  return 0;
}
