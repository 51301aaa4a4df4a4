// libupcemu_mpi.so: the MPI calls of the mpi backend (lib/runtime/backend_mpi.cpp),
// behind the table of lib/runtime/mpi_plugin.hpp.
#include <mpi.h>

#include <climits>
#include <cstring>
#include <string>
#include <vector>

#include "../runtime/mpi_plugin.hpp"

namespace {
using upc::detail::mpi_world;

std::string g_error;
MPI_Comm g_host = MPI_COMM_NULL;

int note(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return 0;
  char text[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  MPI_Error_string(rc, text, &len);
  g_error = std::string(call) + ": " + text;
  return rc;
}

int init(mpi_world* w) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    // MULTIPLE: the monitor thread of rank 0 may call MPI_Abort while the UPC
    // thread is inside MPI.
    if (int rc = note(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &w->thread_level), "MPI_Init_thread"))
      return rc;
  } else {
    MPI_Query_thread(&w->thread_level);
  }
  // Errors come back as codes and are reported by the runtime in its words.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_size(MPI_COMM_WORLD, &w->size);
  MPI_Comm_rank(MPI_COMM_WORLD, &w->rank);
  if (int rc = note(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, w->rank, MPI_INFO_NULL, &g_host),
                    "MPI_Comm_split_type"))
    return rc;
  MPI_Comm_size(g_host, &w->host_size);
  MPI_Comm_rank(g_host, &w->host_rank);
  // Hosts numbered by their lowest rank: a host's leader is its host rank 0,
  // which is also its lowest world rank (the split keeps world order).
  int leader = w->host_rank == 0 ? 1 : 0, before = 0;
  if (int rc = note(MPI_Exscan(&leader, &before, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), "MPI_Exscan")) return rc;
  if (w->rank == 0) before = 0;  // MPI_Exscan leaves rank 0's result undefined
  int host = leader ? before : 0;
  if (int rc = note(MPI_Bcast(&host, 1, MPI_INT, 0, g_host), "MPI_Bcast")) return rc;
  w->host = host;
  return note(MPI_Allreduce(&leader, &w->hosts, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
}

const char* last_error() { return g_error.c_str(); }

int bcast(void* data, std::uint64_t bytes, int root) {
  auto* p = static_cast<char*>(data);
  while (bytes > 0) {  // MPI counts are int
    const int n = bytes > static_cast<std::uint64_t>(INT_MAX) ? INT_MAX : static_cast<int>(bytes);
    if (int rc = note(MPI_Bcast(p, n, MPI_BYTE, root, MPI_COMM_WORLD), "MPI_Bcast")) return rc;
    p += n;
    bytes -= static_cast<std::uint64_t>(n);
  }
  return 0;
}

int allreduce_min(std::int64_t* value) {
  return note(MPI_Allreduce(MPI_IN_PLACE, value, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
}

int barrier() { return note(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier"); }

void abort_all(int status) { MPI_Abort(MPI_COMM_WORLD, status); }

int finalize() {
  if (g_host != MPI_COMM_NULL) MPI_Comm_free(&g_host);
  return note(MPI_Finalize(), "MPI_Finalize");
}

// The same order as upc::coll::mpi_op.
enum { op_bcast, op_scatter, op_gather, op_allgather, op_alltoall };

// The teams' communicators; a handle is an index + 1 (0: MPI_COMM_WORLD).
// They live until MPI_Finalize, as the teams' blocks live until the run ends.
std::vector<MPI_Comm> g_comms;

int team_comm(const int* ranks, int n, std::uint64_t* comm) {
  MPI_Group world, group;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  if (int rc = note(MPI_Group_incl(world, n, ranks, &group), "MPI_Group_incl")) return rc;
  MPI_Comm made = MPI_COMM_NULL;
  // One tag for all: a rank takes part in one creation at a time, in the
  // order of its team's first mpi call, as every collective call is ordered.
  const int rc = note(MPI_Comm_create_group(MPI_COMM_WORLD, group, 0, &made), "MPI_Comm_create_group");
  MPI_Group_free(&group);
  MPI_Group_free(&world);
  if (rc) return rc;
  MPI_Comm_set_errhandler(made, MPI_ERRORS_RETURN);
  g_comms.push_back(made);
  *comm = g_comms.size();
  return 0;
}

int collective(int op, const void* send, void* recv, std::uint64_t bytes, int root, std::uint64_t handle) {
  const MPI_Comm comm = handle == 0 ? MPI_COMM_WORLD : g_comms.at(handle - 1);
  if (bytes > static_cast<std::uint64_t>(INT_MAX)) {
    g_error = "a piece of " + std::to_string(bytes) + " bytes is more than an MPI count of bytes holds (2 GiB)";
    return MPI_ERR_COUNT;
  }
  const int n = static_cast<int>(bytes);
  void* s = const_cast<void*>(send);
  switch (op) {
    case op_bcast: {
      // UPC's root also fills its own block, which MPI_Bcast does not. Small
      // pieces: that copy, then MPI_Bcast from the block. From 32 KiB on the
      // root sends from its source with MPI_Ibcast and copies meanwhile (the
      // choice depends on `bytes` only, so every rank makes the same one: a
      // blocking collective never matches a non-blocking one). The 32 KiB: measured on the 2-vCPU VM
      // (docs/benchmarks.md, "The mpi backend").
      int rank = 0;
      MPI_Comm_rank(comm, &rank);
      const bool copy = rank == root && send != recv;
      if (bytes < (32u << 10)) {
        if (copy) std::memcpy(recv, send, bytes);
        return note(MPI_Bcast(recv, n, MPI_BYTE, root, comm), "MPI_Bcast");
      }
      MPI_Request rq;
      if (int rc = note(MPI_Ibcast(copy ? s : recv, n, MPI_BYTE, root, comm, &rq), "MPI_Ibcast")) return rc;
      if (copy) std::memcpy(recv, send, bytes);
      return note(MPI_Wait(&rq, MPI_STATUS_IGNORE), "MPI_Wait");
    }
    case op_scatter: return note(MPI_Scatter(s, n, MPI_BYTE, recv, n, MPI_BYTE, root, comm), "MPI_Scatter");
    case op_gather: return note(MPI_Gather(s, n, MPI_BYTE, recv, n, MPI_BYTE, root, comm), "MPI_Gather");
    case op_allgather: return note(MPI_Allgather(s, n, MPI_BYTE, recv, n, MPI_BYTE, comm), "MPI_Allgather");
    case op_alltoall: return note(MPI_Alltoall(s, n, MPI_BYTE, recv, n, MPI_BYTE, comm), "MPI_Alltoall");
    default: g_error = "unknown collective " + std::to_string(op); return MPI_ERR_OP;
  }
}

const upc::detail::mpi_plugin_ops g_ops{upc::detail::mpi_plugin_abi, init, last_error, bcast, allreduce_min,
                                        barrier, abort_all, finalize, collective, team_comm};
}  // namespace

extern "C" const upc::detail::mpi_plugin_ops* upcemu_mpi_plugin_ops() { return &g_ops; }
