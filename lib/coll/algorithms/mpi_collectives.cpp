// The mpi family: on the mpi backend, a team's broadcast, scatter, gather,
// gather_all and exchange handed to the MPI collective with the same meaning
// (MPI_Bcast, MPI_Scatter, MPI_Gather, MPI_Allgather, MPI_Alltoall) on the
// team's communicator (MPI_COMM_WORLD, or one made by the members), one
// MPI_BYTE piece per member, each passing its own blocks of the UPC arrays as
// MPI's buffers (docs/backends.md). Reductions are not handed over:
// MPI may combine in any order, and the engine's answers are the same bits on
// every backend.
//
// Steps: one MPI call (a broadcast's root also copies its source into its own
// block, while MPI sends it). Served: any team of an mpi run whose pieces are
// in member order (registry row: feature off_mpi); selected automatically on
// a team whose members are on several hosts (policy rows across_hosts), else
// when forced (UPCEMU_COLL, force_algorithm).
#include "../../runtime/mpi_session.hpp"
#include "../common/touch.hpp"
#include "algorithms.hpp"

namespace upc::coll::algo {

namespace {
// A team's communicator, made by its members at their first mpi call (only
// they take part: MPI_Comm_create_group) and kept with the member's handle.
struct team_communicator final : team_attachment {
  bool made = false;
  std::uint64_t comm = 0;
};
std::uint64_t comm_of(team& t) {
  if (t.is_world()) return 0;
  team_communicator& c = t.attached<team_communicator>();
  if (!c.made) {
    std::vector<int> threads(static_cast<std::size_t>(t.size()));
    for (int r = 0; r < t.size(); ++r) threads[static_cast<std::size_t>(r)] = t.thread_of(r);
    c.comm = detail::mpi_team_comm(threads);
    c.made = true;
  }
  return c.comm;
}

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
  // The root sends from its source and fills its own block meanwhile (lib/mpi).
  p.mpi_collective(mpi_op::bcast, mine, me == root ? rq.src.area() : mine, rq.nbytes, root, comm_of(t));
  touches_rooted(me, root, t.size(), p);
}

void scatter_mpi(const request& rq, team& t, plan& p) {
  const int me = t.rank(), root = rq.root;
  p.mpi_collective(mpi_op::scatter, rq.dst.block_of(t.thread_of(me)), me == root ? rq.src.area() : nullptr,
                   rq.nbytes, root, comm_of(t));
  touches_rooted(me, root, t.size(), p);
}

void gather_mpi(const request& rq, team& t, plan& p) {
  const int me = t.rank(), root = rq.root;
  p.mpi_collective(mpi_op::gather, me == root ? rq.dst.area() : nullptr, rq.src.block_of(t.thread_of(me)),
                   rq.nbytes, root, comm_of(t));
  touches_rooted(me, root, t.size(), p);
}

namespace {
// gather_all and exchange: every member sends from its block and receives
// into its row, and touches every other member's data.
void all_members(mpi_op op, const request& rq, team& t, plan& p) {
  const int me = t.rank(), thread = t.thread_of(me);
  p.mpi_collective(op, rq.dst.block_of(thread), rq.src.block_of(thread), rq.nbytes, 0, comm_of(t));
  touch_all_but(p.touches, me, t.size());
  touch_all_but(p.touchers, me, t.size());
}
}  // namespace

void gather_all_mpi(const request& rq, team& t, plan& p) { all_members(mpi_op::allgather, rq, t, p); }
void exchange_mpi(const request& rq, team& t, plan& p) { all_members(mpi_op::alltoall, rq, t, p); }

}  // namespace upc::coll::algo
