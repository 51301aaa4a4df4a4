// MPI in this process, for the mpi backend and the runtime's parts that work
// across ranks: started once by the first run (MPI_Finalize at exit), the
// module's table (mpi_plugin.hpp), this rank's place in the world, and the
// job-wide services below the backend: a text shared or gathered, memory the
// ranks of a host share, one MPI collective, the end of the job. The backend's
// run (backend_mpi.cpp) is built on it; nothing here runs a UPC thread.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "upc/runtime.hpp"

namespace upc::detail {

struct mpi_plugin_ops;
struct mpi_world;

// Starts MPI, sets opt.threads to the number of ranks and checks what this
// backend needs; a problem stops every rank with rank 0's message, status 2.
void mpi_start(launch_options& opt);
// True where the launcher's one-time work is done: rank 0 (or not on mpi).
bool mpi_leader() noexcept;
// True where a host's control block is filled: each host's first rank.
bool mpi_host_leader() noexcept;
// Whether MPI_Init_thread gave MPI_THREAD_MULTIPLE (a rank's threads may call MPI at once).
bool mpi_thread_multiple() noexcept;
// The MPI module's table (after mpi_start).
const mpi_plugin_ops& mpi_ops() noexcept;
// This rank's place: rank, size, hosts (after mpi_start).
const mpi_world& mpi_this_rank() noexcept;

// Every rank stops alike, before a run starts: rank 0 says why, all end with status 2.
[[noreturn]] void mpi_stop_start(const std::string& why);
// mpi_stop_start with MPI's error text when rc is not 0.
void mpi_check(int rc, const char* what);

// Memory the ranks of the host share: rank 0 makes a memfd of `bytes`; the
// others open it through /proc (a memfd has no name, so nothing is ever left
// in /dev/shm). Every rank gets its own descriptor (close it once mapped), or
// a negative errno, alike on every rank: rank 0's failure to make it is
// everyone's.
struct shared_file {
  int fd = -1;
  int error = 0;  // errno of the first failure: rank 0's, else the worst rank's open
};
shared_file mpi_share_memfd(std::uint64_t bytes, const char* name, const char* what);
// `bytes` of zeroed memory shared by the ranks (rank 0's memfd, mapped by
// each at its own address: no pointers may be kept in it), or nullptr on every
// rank when it cannot be made.
void* mpi_shared_memory(std::size_t bytes);
// Rank 0's `text` on every rank (the others' argument is ignored).
std::string mpi_rank0_text(const std::string& text);
// Every rank's `text`, in rank order, on every rank (collective).
std::vector<std::string> mpi_gather_texts(const std::string& text);
// One MPI collective over MPI_COMM_WORLD for the engine's mpi algorithm family
// (lib/coll/algorithms/mpi_collectives.cpp): op is upc::coll::mpi_op, bytes
// the size of one piece. Throws upc::error when MPI fails.
void mpi_collective(int op, const char* send, char* recv, std::uint64_t bytes, int root, std::uint64_t comm);
// The communicator of a team whose members are these threads (world ranks),
// for mpi_collective: collective over the members. 0 is MPI_COMM_WORLD.
std::uint64_t mpi_team_comm(const std::vector<int>& threads);
// Ends every rank of the job with `status` (MPI_Abort) after a rank printed
// the failure report; ends just this process when MPI is not running.
[[noreturn]] void mpi_end_job(int status) noexcept;

}  // namespace upc::detail
