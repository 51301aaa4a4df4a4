#include "mpi_handoff.hpp"

#include <algorithm>
#include <climits>
#include <vector>

#include "../../runtime/mpi_session.hpp"
#include "../../runtime/hosts.hpp"
#include "../../runtime/mpi_jobs.hpp"
#include "../../runtime/mpi_plugin.hpp"
#include "../../runtime/traffic.hpp"
#include "../plan.hpp"
#include "agreement.hpp"
#include "decomposition.hpp"
#include "upc/error.hpp"
#include "upc/runtime.hpp"
#include "upc_types.h"

namespace upc::coll::tasks {

namespace decompositions {
namespace {
task_needs nothing(const operation&, int) { return {}; }
bool own_part(const operation&, int task, int rank) { return task == rank; }
// Never run: advance() hands these collectives to MPI instead of running tasks.
status no_plan(const operation&, int, plan&) { return status::failed; }
constexpr int as_int(mpi_op o) { return static_cast<int>(o); }
}  // namespace

// Not in place: an in-place member's input is staged when it posts, so MPI
// never sees a send buffer inside the receive buffer.
const decomposition bcast_mpi{"mpi", per_member, nothing, own_part, own_part, no_plan, false, as_int(mpi_op::bcast)};
const decomposition scatter_mpi{"mpi", per_member, nothing, own_part, own_part, no_plan, false, as_int(mpi_op::scatter)};
const decomposition gather_mpi{"mpi", per_member, nothing, own_part, own_part, no_plan, false, as_int(mpi_op::gather)};
const decomposition allgather_mpi{"mpi", per_member, nothing, own_part, own_part, no_plan, false,
                                  as_int(mpi_op::allgather)};
const decomposition alltoall_mpi{"mpi", per_member, nothing, own_part, own_part, no_plan, false,
                                 as_int(mpi_op::alltoall)};
// The v-variants: 5 + the fixed one's op (MPI_Iscatterv ... MPI_Ialltoallv).
const decomposition scatterv_mpi{"mpi", per_member, nothing, own_part, own_part, no_plan, false,
                                 5 + as_int(mpi_op::scatter)};
const decomposition gatherv_mpi{"mpi", per_member, nothing, own_part, own_part, no_plan, false,
                                5 + as_int(mpi_op::gather)};
const decomposition allgatherv_mpi{"mpi", per_member, nothing, own_part, own_part, no_plan, false,
                                   5 + as_int(mpi_op::allgather)};
const decomposition alltoallv_mpi{"mpi", per_member, nothing, own_part, own_part, no_plan, false,
                                  5 + as_int(mpi_op::alltoall)};
}  // namespace decompositions

namespace handoff {

namespace {

// A team's three communicators (agreements, data, out barriers), made by
// upccoll_team_split and freed with the team.
struct team_comms final : team_attachment {
  std::uint64_t comm[3] = {0, 0, 0};
  bool across_hosts = false;
  ~team_comms() override {
    for (std::uint64_t c : comm)
      if (c && detail::mpi_jobs_available()) detail::mpi_ops().comm_free(c);
  }
};

void comms_of(team& t, std::uint64_t (&comm)[3]) {
  for (int i = 0; i < 3; ++i)
    comm[i] = t.is_world() ? detail::mpi_jobs_world_comm(i) : t.attached<team_comms>().comm[i];
}

// Where the root's (or, all-to-all, any member's) own send and receive sizes
// differ, the tasks would fail the call with bad_count; here that member's
// key differs, so MPI's agreement fails everywhere, and failure() finds why.
bool own_sizes_differ(const post_data& p, int rank) {
  switch (p.kind) {
    case collective::member_broadcast:
    case collective::member_scatter:
    case collective::member_gather: return rank == p.root && p.send_bytes != p.recv_bytes;
    case collective::member_gather_all:
    case collective::member_exchange: return p.send_bytes != p.recv_bytes;
    default: return false;
  }
}

// MPI's counts and displacements are int: `n` values of the staged meta from
// `first` on, or one value; false when one does not fit.
bool ints(std::vector<int>& out, const std::uint64_t* meta, std::size_t first, int n) {
  out.resize(static_cast<std::size_t>(n));
  bool fit = true;
  for (int i = 0; i < n; ++i) {
    const std::uint64_t v = meta ? meta[first + std::size_t(i)] : 0;
    fit &= v <= static_cast<std::uint64_t>(INT_MAX);
    out[std::size_t(i)] = static_cast<int>(std::min<std::uint64_t>(v, INT_MAX));
  }
  return fit;
}
bool one_int(std::vector<int>& out, std::uint64_t v) {
  out.assign(1, static_cast<int>(std::min<std::uint64_t>(v, INT_MAX)));
  return v <= static_cast<std::uint64_t>(INT_MAX);
}

// The v-variants' counts and displacements as MPI takes them; false when one
// does not fit in an int.
bool vector_arguments(detail::mpi_job& j, const post_data& m, int me, int P) {
  const std::size_t n = static_cast<std::size_t>(P);
  const bool at_root = m.root == me;
  bool fit = true;
  switch (m.kind) {
    case collective::member_scatterv:
      if (at_root) fit &= ints(j.send_counts, m.meta, 0, P) && ints(j.send_displs, m.meta, n, P);
      fit &= one_int(j.recv_counts, m.recv_bytes);
      break;
    case collective::member_gatherv:
      fit &= one_int(j.send_counts, m.send_bytes);
      if (at_root) fit &= ints(j.recv_counts, m.meta, 0, P) && ints(j.recv_displs, m.meta, n, P);
      break;
    case collective::member_gather_allv:
      fit &= one_int(j.send_counts, m.send_bytes);
      fit &= ints(j.recv_counts, m.meta, 0, P) && ints(j.recv_displs, m.meta, n, P);
      break;
    default:  // alltoallv
      fit &= ints(j.send_counts, m.meta, 0, P) && ints(j.send_displs, m.meta, n, P);
      fit &= ints(j.recv_counts, m.meta, 2 * n, P) && ints(j.recv_displs, m.meta, 3 * n, P);
      break;
  }
  return fit;
}

}  // namespace

bool possible(team& t) {
  if (upc::current_backend() != backend_kind::mpi || !detail::mpi_jobs_available()) return false;
  std::uint64_t comm[3];
  comms_of(t, comm);
  return comm[2] != 0;
}

bool spans_hosts(team& t) {
  if (!detail::several_hosts()) return false;
  return t.is_world() || t.attached<team_comms>().across_hosts;
}

void team_made(team& t, const char* function) {
  if (upc::current_backend() != backend_kind::mpi || !detail::mpi_jobs_available()) return;
  std::vector<int> ranks(static_cast<std::size_t>(t.size()));
  for (int r = 0; r < t.size(); ++r) ranks[static_cast<std::size_t>(r)] = t.thread_of(r);
  team_comms& c = t.attached<team_comms>();
  const detail::mpi_plugin_ops& m = detail::mpi_ops();
  // Tag 1: apart from the mpi family's creations (tag 0) at a team's first call.
  auto check = [&](int rc) {
    if (rc)
      detail::fail(function, std::string("the new team's MPI communicator: ") + m.last_error() + " (code " + std::to_string(rc) + ")");
  };
  check(m.team_comm(ranks.data(), t.size(), 1, &c.comm[0]));
  check(m.comm_dup(c.comm[0], &c.comm[1]));
  check(m.comm_dup(c.comm[0], &c.comm[2]));
  for (int r = 0; r < t.size(); ++r) c.across_hosts |= !detail::on_my_host(t.thread_of(r));
}

void submit(operation& op, const decomposition& dec) {
  auto j = std::make_shared<detail::mpi_job>();
  std::uint64_t comm[3];
  comms_of(op.t->members(), comm);
  j->agree_comm = comm[0];
  j->data_comm = comm[1];
  j->out_comm = comm[2];
  j->out_barrier = (op.flags & UPC_OUT_ALLSYNC) != 0;
  const post_data& m = op.mine;
  const int me = op.t->rank();
  const bool at_root = m.root == me;
  j->key = m.key ^ (own_sizes_differ(m, me) ? 2 : 0);
  j->move = op.dec == &dec && m.status == 0;
  j->op = dec.mpi_op;
  j->root = m.root;
  j->recv = m.recv;
  j->balance = m.pair_balance;
  switch (m.kind) {
    case collective::member_scatterv:
    case collective::member_gatherv:
    case collective::member_gather_allv:
    case collective::member_exchangev:
      j->send = m.kind == collective::member_scatterv && !at_root ? nullptr : m.send;
      j->recv = m.kind == collective::member_gatherv && !at_root ? nullptr : m.recv;
      // A count over 2 GiB (MPI's int) on this member: its key differs, so
      // nobody's call moves anything, and failure() says why.
      if (j->move && !vector_arguments(*j, m, me, op.t->size())) j->key ^= 4;
      break;
    case collective::member_broadcast:
      j->send = at_root ? m.send : nullptr;
      j->bytes = at_root ? m.send_bytes : m.recv_bytes;
      j->root_copies = at_root;
      break;
    case collective::member_scatter:
      j->send = at_root ? m.send : nullptr;
      j->bytes = at_root ? m.send_bytes : m.recv_bytes;
      break;
    case collective::member_gather:
      j->send = m.send;
      j->recv = at_root ? m.recv : nullptr;
      j->bytes = at_root ? m.recv_bytes : m.send_bytes;
      break;
    default:  // allgather, alltoall
      j->send = m.send;
      j->bytes = m.send_bytes;
      break;
  }
  // Member r's part is task r, in r's own area: a plain word of this rank.
  team_view* view = op.t;
  const std::uint32_t seq = op.seq;
  j->on_done = [view, seq, me](detail::mpi_job&) {
    task_word& w = view->task(me, seq);
    std::uint32_t cur = w.done.load(std::memory_order_relaxed);
    while (!reached(cur, seq) && !w.done.compare_exchange_weak(cur, seq, std::memory_order_acq_rel)) {
    }
    view->notify();
  };
  op.handoff = j;
  // The slot is free again once this member's part is over: only its own MPI
  // reads what it staged there.
  op.t->slot[op.seq % slots].handoff = j;
  detail::mpi_jobs_submit(std::move(j));
}

bool finished_job(const detail::mpi_job& j) { return j.done.load(std::memory_order_acquire); }
bool finished(const operation& op) { return !op.handoff || finished_job(*op.handoff); }

bool clean(const operation& op) {
  const detail::mpi_job& j = *op.handoff;
  return j.agreed && j.error.empty() && op.mine.status == 0;
}

failure outcome(const operation& op) {
  const detail::mpi_job& j = *op.handoff;
  if (!j.error.empty()) return failure{status::failed, {}, j.error};
  if (j.agreed) return failure{status::ok, {}, {}};
  // The posts agree (else the failure is recorded already): a member's own sizes.
  for (int r = 0; r < op.t->size(); ++r) {
    post_data d;
    if (snapshot(op, r, d) && own_sizes_differ(d, r))
      return failure{status::bad_count,
                     {difference::field::own_bytes, d.send_bytes, d.recv_bytes, op.t->thread_of(r), op.t->thread_of(r)},
                     {}};
  }
  return failure{status::failed, {},
                 is_vector(op.kind) ? "the members' arguments disagree, or a count or displacement is over 2 GiB "
                                      "(MPI's int) on some member"
                                    : "the members' arguments disagree"};
}

void note_traffic(const operation& op) {
  if (!detail::traffic::g_active || !op.handoff) return;
  const detail::mpi_job& j = *op.handoff;
  if (!j.move || !j.recv) return;
  detail::traffic::task_scope counted(op.function, op.algorithm);
  const int P = op.t->size();
  char* recv = static_cast<char*>(j.recv);
  auto got = [&](int from, std::uint64_t at, std::uint64_t n) {
    detail::traffic::copied(recv + at, nullptr, n, op.t->thread_of(from), op.algorithm, nullptr);
  };
  auto from_each = [&](bool by_counts) {
    for (int s = 0; s < P; ++s)
      if (by_counts) got(s, std::uint64_t(j.recv_displs[std::size_t(s)]), std::uint64_t(j.recv_counts[std::size_t(s)]));
      else got(s, std::uint64_t(s) * j.bytes, j.bytes);
  };
  switch (j.op) {
    case static_cast<int>(mpi_op::bcast):
    case static_cast<int>(mpi_op::scatter): got(j.root, 0, j.bytes); break;
    case 5 + static_cast<int>(mpi_op::scatter): got(j.root, 0, std::uint64_t(j.recv_counts[0])); break;
    case static_cast<int>(mpi_op::gather):
    case static_cast<int>(mpi_op::allgather):
    case static_cast<int>(mpi_op::alltoall): from_each(false); break;
    default: from_each(true); break;  // gatherv (at the root), allgatherv, alltoallv
  }
}

bool poll() { return detail::mpi_jobs_poll(); }

}  // namespace handoff
}  // namespace upc::coll::tasks
