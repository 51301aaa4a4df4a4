// The mpi family: on the mpi backend, the world team's broadcast, scatter,
// gather, gather_all and exchange handed to the MPI collective with the same
// meaning (MPI_Bcast, MPI_Scatter, MPI_Gather, MPI_Allgather, MPI_Alltoall),
// one MPI_BYTE piece per rank, each rank passing its own blocks of the UPC
// arrays as MPI's buffers (docs/backends.md). Reductions are not handed over:
// MPI may combine in any order, and the engine's answers are the same bits on
// every backend.
//
// Steps: one MPI call (a broadcast's root first copies its source into its own
// block). Served: the world team of an mpi run only (registry row: feature
// off_mpi_world); selected when forced (UPCEMU_COLL, force_algorithm).
#include "../common/touch.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

namespace {
// MPI's own synchronisation covers every other rank's buffers; the touch lists
// say whose data the call reads or writes, for the executor's MYSYNC.
void touches_rooted(int me, int root, int T, plan& p) {
  if (me == root) {
    touch_all_but(p.touches, me, T);
    touch_all_but(p.touchers, me, T);
  } else {
    p.touches.push_back(root);
    p.touchers.push_back(root);
  }
}
}  // namespace

void broadcast_mpi(const request& rq, team& t, plan& p) {
  const int me = t.rank(), root = rq.root;
  char* mine = rq.dst.block_of(t.thread_of(me));
  if (me == root) p.copy(mine, rq.src.area(), rq.nbytes);
  p.mpi_collective(mpi_op::bcast, mine, mine, rq.nbytes, root);
  touches_rooted(me, root, t.size(), p);
}

void scatter_mpi(const request& rq, team& t, plan& p) {
  const int me = t.rank(), root = rq.root;
  p.mpi_collective(mpi_op::scatter, rq.dst.block_of(t.thread_of(me)), me == root ? rq.src.area() : nullptr,
                   rq.nbytes, root);
  touches_rooted(me, root, t.size(), p);
}

void gather_mpi(const request& rq, team& t, plan& p) {
  const int me = t.rank(), root = rq.root;
  p.mpi_collective(mpi_op::gather, me == root ? rq.dst.area() : nullptr, rq.src.block_of(t.thread_of(me)),
                   rq.nbytes, root);
  touches_rooted(me, root, t.size(), p);
}

void gather_all_mpi(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size();
  const int thread = t.thread_of(me);
  p.mpi_collective(mpi_op::allgather, rq.dst.block_of(thread), rq.src.block_of(thread), rq.nbytes, 0);
  touch_all_but(p.touches, me, T);
  touch_all_but(p.touchers, me, T);
}

void exchange_mpi(const request& rq, team& t, plan& p) {
  const int me = t.rank(), T = t.size();
  const int thread = t.thread_of(me);
  p.mpi_collective(mpi_op::alltoall, rq.dst.block_of(thread), rq.src.block_of(thread), rq.nbytes, 0);
  touch_all_but(p.touches, me, T);
  touch_all_but(p.touchers, me, T);
}

}  // namespace upc::coll::algo
