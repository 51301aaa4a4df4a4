// The mpi backend's only contact with MPI: a small table of functions in a
// loadable module (libupcemu_mpi.so, lib/mpi/), opened with dlopen when a run
// uses the mpi backend. Programs are built once, link no MPI library, and run
// on every backend; a machine without Open MPI runs the other two.
#pragma once
#include <cstdint>

namespace upc::detail {

// Bumped whenever the table changes, so that a stale module is refused.
constexpr int mpi_plugin_abi = 6;

// Where this rank is: MPI_COMM_WORLD, and the ranks that share its host
// (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)). Hosts are numbered in the order
// of their lowest rank.
struct mpi_world {
  int size = 0, rank = 0;
  int hosts = 0, host = 0;          // number of hosts, this rank's host
  int host_size = 0, host_rank = 0; // ranks on this host, this rank among them
  int thread_level = 0;             // what MPI_Init_thread provided: 0-3 for MPI_THREAD_SINGLE .. MULTIPLE
};

// What the server does for one request of another rank (remote_ops.cpp): the
// handler fills it. Before replying, the server receives `receive_bytes` of the
// requester's data (rpc_call's `data`) into `receive_into`; then it sends
// `bytes` from `from`, or from `buffer` (`capacity` bytes, the handler may
// write its reply there) when `from` is null; no reply when `bytes` is 0.
constexpr int rpc_server_only = 2;  // see rpc_call
struct mpi_rpc_reply {
  void* buffer = nullptr;
  std::uint64_t capacity = 0;
  const void* from = nullptr;
  std::uint64_t bytes = 0;
  void* receive_into = nullptr;
  std::uint64_t receive_bytes = 0;
};
using mpi_rpc_handler = void (*)(const void* request, std::uint64_t bytes, int from, mpi_rpc_reply* reply);

// Every function returns 0, or an MPI error code after writing MPI's text for
// it into the module's last_error().
struct mpi_plugin_ops {
  int abi;
  int (*init)(mpi_world* world);
  const char* (*last_error)();
  int (*bcast)(void* data, std::uint64_t bytes, int root);
  int (*allreduce_min)(std::int64_t* value);  // in place: every rank gets the minimum
  int (*barrier)();
  // MPI_Abort(MPI_COMM_WORLD, status): ends every rank, mpirun exits with status.
  void (*abort)(int status);
  int (*finalize)();
  // The collective `op` (upc::coll::mpi_op: bcast, scatter, gather,
  // allgather, alltoall) on communicator `comm` (0: MPI_COMM_WORLD, else a
  // handle from team_comm), `bytes` per piece as MPI_BYTE.
  int (*collective)(int op, const void* send, void* recv, std::uint64_t bytes, int root, std::uint64_t comm);
  // A communicator of the world ranks `ranks` (in that order), made by
  // MPI_Comm_create_group with `tag`: collective over those ranks only. Its
  // handle, > 0.
  int (*team_comm)(const int* ranks, int n, int tag, std::uint64_t* comm);

  // ---- ranks on several hosts (abi 4) ----
  // MPI_Bcast from the host's first rank to the ranks of this host.
  int (*host_bcast)(void* data, std::uint64_t bytes);
  // In place, the minimum of each of `n` values: over this host's ranks
  // (host != 0) or over every rank.
  int (*allreduce_min_n)(std::int64_t* values, int n, int host);
  // MPI_Allgather of `bytes` from each rank, over every rank.
  int (*allgather)(const void* send, void* recv, std::uint64_t bytes);
  // Requests to another rank's server (its own communicator, apart from the
  // program's collectives): rpc_call sends `request`, then `data_bytes` of
  // `data` (none: 0) that the server receives where its handler says, and
  // waits for a reply of exactly `reply_bytes`; rpc_send sends one that gets
  // no reply. `channel` keeps the replies of a rank's threads apart (0: its
  // UPC thread, 1: its main thread): each has at most one call out; plus
  // rpc_server_only for a request that only the server thread may serve (its
  // handler takes locks, which a thread of the rank waiting in rpc_call, and
  // serving other requests meanwhile, may hold). Data and
  // replies travel in pieces small enough for MPI to send at once (eagerly),
  // all of them under way together: a bulk copy streams.
  int (*rpc_call)(int rank, const void* request, std::uint64_t bytes, const void* data, std::uint64_t data_bytes,
                  void* reply, std::uint64_t reply_bytes, int channel);
  int (*rpc_send)(int rank, const void* request, std::uint64_t bytes);
  // Serves requests with `handler` until *stop is nonzero (a thread of its own).
  int (*rpc_serve)(mpi_rpc_handler handler, const volatile int* stop);
  // The synchronisation of UPC threads across hosts, on a communicator of its
  // own made afresh for each run (sync_begin; collective over every rank), so
  // that a run stopped by a failure, whose ranks left at different points,
  // leaves nothing to match the next run's calls. ibarrier and iallreduce_min_n
  // (in place, the minimum of each of `n` values) start one; test says
  // whether it completed (then the request is gone).
  int (*sync_begin)();
  int (*ibarrier)(std::uint64_t* request);
  int (*iallreduce_min_n)(std::int64_t* values, int n, std::uint64_t* request);
  int (*test)(std::uint64_t request, int* done);

  // ---- <upccoll.h> collectives handed to MPI's non-blocking ones (abi 5) ----
  // MPI_Comm_dup of `comm` (0: MPI_COMM_WORLD): collective over its ranks.
  int (*comm_dup)(std::uint64_t comm, std::uint64_t* made);
  // MPI_Comm_free of a handle from team_comm or comm_dup (pending calls on it
  // still complete, or are forgotten).
  int (*comm_free)(std::uint64_t comm);
  // The collective `op` (as for collective) started on `comm`: MPI_Ibcast,
  // MPI_Iscatter, MPI_Igather, MPI_Iallgather, MPI_Ialltoall; `request` for test.
  int (*icollective)(int op, const void* send, void* recv, std::uint64_t bytes, int root, std::uint64_t comm,
                     std::uint64_t* request);
  // The v-variants: op is 5 + upc::coll::mpi_op's scatter, gather, allgather
  // or alltoall (MPI_Iscatterv ... MPI_Ialltoallv), MPI_BYTE counts and
  // displacements; arrays a rank does not use by MPI's rules may be nullptr,
  // and a count it passes alone is element 0 of its array.
  int (*icollective_v)(int op, const void* send, const int* send_counts, const int* send_displs, void* recv,
                       const int* recv_counts, const int* recv_displs, int root, std::uint64_t comm,
                       std::uint64_t* request);
  // An agreement over `comm` (MPI_Iallreduce in place of three int64): the
  // minimum of values[0], the minimum of values[1], the sum of values[2].
  int (*iagree)(std::int64_t* values, std::uint64_t comm, std::uint64_t* request);
  // MPI_Ibarrier on `comm`.
  int (*ibarrier_on)(std::uint64_t comm, std::uint64_t* request);
};

// Opens the module (UPCEMU_MPI_PLUGIN, else the build tree's, else the
// installed one) and returns its table; throws upc::error("upcrun", ...) saying
// what was tried and why it failed.
const mpi_plugin_ops& load_mpi_plugin();

}  // namespace upc::detail

// The one symbol the module exports.
extern "C" const upc::detail::mpi_plugin_ops* upcemu_mpi_plugin_ops();
