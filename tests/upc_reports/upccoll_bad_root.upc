#include <upc.h>
#include <upccoll.h>
/* upccoll_bcast with a root that is not a member of the team */
shared [4] int sb[4 * THREADS];
shared [4] int rb[4 * THREADS];
int main(void) {
  upccoll_initialize(NULL, NULL);
  upccoll_return_t r = upccoll_bcast(sb, 4, UPC_INT, rb, 4, UPC_INT, THREADS + 3, UPC_TEAM_ALL, 0, NULL);
  upccoll_finalize();
  return r != UPCCOLL_SUCCESS;
}
