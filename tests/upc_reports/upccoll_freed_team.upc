#include <upc.h>
#include <upccoll.h>
/* a team used after upccoll_team_free: the report names where it was freed (issue 27.8) */
shared int sb[THREADS], rb[THREADS];
int main(void) {
  upccoll_team_t team;
  upccoll_initialize(NULL, NULL);
  upccoll_team_split(UPC_TEAM_ALL, 0, MYTHREAD, &team);
  upccoll_team_free(team);
  upccoll_return_t r = upccoll_bcast(&sb[MYTHREAD], 1, UPC_INT, &rb[MYTHREAD], 1, UPC_INT, 0, team, 0, NULL);
  upccoll_finalize();
  return r != UPCCOLL_SUCCESS;
}
