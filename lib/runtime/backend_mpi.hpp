// The steps of a run that differ on the mpi backend (backend_mpi.cpp), called
// by run() in launcher.cpp at the places where the other backends do their own.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "segment.hpp"
#include "upc/runtime.hpp"

namespace upc::detail {
// Starts MPI, sets opt.threads to the number of ranks and checks what this
// backend needs; a problem stops every rank with rank 0's message, status 2.
void mpi_start(launch_options& opt);
// True where the launcher's one-time work is done: rank 0 (or not on mpi).
bool mpi_leader() noexcept;
// True where a host's control block is filled: each host's first rank.
bool mpi_host_leader() noexcept;
// The MPI module's table (after mpi_start).
struct mpi_plugin_ops;
const mpi_plugin_ops& mpi_ops() noexcept;
// Maps the host's segment at one address in every rank (replaces create_segment).
void mpi_create_segment(const segment_geometry& g);
// Runs `allocate` (the namespace-scope objects) on rank 0 and adopts its
// offsets in the other ranks; ends with every rank ready to start.
void mpi_allocate_launch_objects(const std::function<void()>& allocate);
// This rank's UPC thread, rank 0's supervision, and everyone's exit codes.
void run_mpi_backend(const launch_options& opt, const std::function<int()>& body);
// `bytes` of zeroed memory shared by the ranks (rank 0's memfd, mapped by
// each at its own address: no pointers may be kept in it), or nullptr on every
// rank when it cannot be made.
void* mpi_shared_memory(std::size_t bytes);
// Rank 0's `text` on every rank (the others' argument is ignored).
std::string mpi_rank0_text(const std::string& text);
// Every rank's `text`, in rank order, on every rank (collective).
std::vector<std::string> mpi_gather_texts(const std::string& text);
void mpi_finish() noexcept;  // the end of one run (MPI_Finalize is at exit)
// One MPI collective over MPI_COMM_WORLD for the engine's mpi algorithm family
// (lib/coll/algorithms/mpi_collectives.cpp): op is upc::coll::mpi_op, bytes
// the size of one piece. Throws upc::error when MPI fails.
void mpi_collective(int op, const char* send, char* recv, std::uint64_t bytes, int root, std::uint64_t comm);
// The communicator of a team whose members are these threads (world ranks),
// for mpi_collective: collective over the members. 0 is MPI_COMM_WORLD.
std::uint64_t mpi_team_comm(const std::vector<int>& threads);
// Whether MPI_Init_thread gave MPI_THREAD_MULTIPLE (a rank's threads may call MPI at once).
bool mpi_thread_multiple() noexcept;
// Ends every rank of the job with `status` (MPI_Abort) after a rank printed
// the failure report; ends just this process when MPI is not running.
[[noreturn]] void mpi_end_job(int status) noexcept;
}  // namespace upc::detail
