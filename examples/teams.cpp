// UPC Collectives 2.0 in a few lines: split the threads into an "even" and an
// "odd" team, sum within each team (with separate buffers and in place), scan,
// then overlap a non-blocking allreduce over everyone with a critical section
// (Figure 1, EX2, of the paper: it must not deadlock). Every thread checks its answers; the exit status says if all agree.
#include <cstdio>

#include "upc.h"
#include "upccoll.h"

int upc_main(int argc, char** argv) {
  if (upccoll_initialize(&argc, &argv) != UPCCOLL_SUCCESS) return 1;
  int wrong = 0;

  // Teams: color = parity, key = position among the threads of that parity.
  upccoll_team_t half;
  upccoll_team_split(UPC_TEAM_ALL, MYTHREAD % 2, MYTHREAD / 2, &half);
  int rank, size;
  upccoll_team_rank(half, &rank);
  upccoll_team_size(half, &size);

  // Buffers are pointers-to-shared with affinity to the calling thread.
  upc::sptr<long> mine = upc::sptr<long>(upc_alloc(sizeof(long)));
  upc::sptr<long> sum = upc::sptr<long>(upc_alloc(sizeof(long)));
  *mine = MYTHREAD;
  upccoll_allreduce(mine, sum, 1, UPC_LONG, UPC_ADD, half, 0, nullptr);
  long expect = 0;
  for (int t = MYTHREAD % 2; t < THREADS; t += 2) expect += t;
  if (*sum != expect) ++wrong;
  std::printf("thread %d: rank %d of %d in the %s team, team sum %ld\n", MYTHREAD, rank, size,
              MYTHREAD % 2 ? "odd" : "even", static_cast<long>(*sum));

  // The same sum in place (MPI_IN_PLACE): the input is recvbuf, and the result
  // replaces it. (Passing `sum` as both buffers is an error, not a wrong answer.)
  *sum = MYTHREAD;
  upccoll_allreduce(UPCCOLL_IN_PLACE, sum, 1, UPC_LONG, UPC_ADD, half, 0, nullptr);
  if (*sum != expect) ++wrong;

  // An exclusive scan of 1s gives each member its rank (rank 0's result is left
  // as it was). upccoll_exscan is the paper's upccoll_scan under MPI's name;
  // MPI_Scan, the inclusive one, is upccoll_scan_inclusive.
  *mine = 1;
  *sum = 0;
  upccoll_exscan(mine, sum, 1, UPC_LONG, UPC_ADD, half, 0, nullptr);
  if (*sum != rank) ++wrong;
  *mine = MYTHREAD;

  // EX2: start, take a lock, complete inside the critical section.
  upc_lock_t* lock = upc_all_lock_alloc();
  upccoll_handle_t h;
  upccoll_allreduce(mine, sum, 1, UPC_LONG, UPC_ADD, UPC_TEAM_ALL, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC, &h);
  upc_lock(lock);
  upccoll_wait(h);
  upc_unlock(lock);
  if (*sum != static_cast<long>(THREADS) * (THREADS - 1) / 2) ++wrong;

  upccoll_team_free(half);
  upc_barrier;
  if (MYTHREAD == 0) upc_lock_free(lock);
  upc_free(mine);
  upc_free(sum);
  upccoll_finalize();
  if (wrong) std::printf("thread %d: WRONG answer\n", MYTHREAD);
  return wrong ? 1 : 0;
}
