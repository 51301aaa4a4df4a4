// The mpi backend's non-blocking collectives: one member's part of a
// collective handed to MPI's own non-blocking collectives (the task
// executor's `mpi` rows, lib/coll/tasks/mpi_handoff.cpp), run by one thread
// of the rank so that a member blocked elsewhere (in upc_lock, say: seed 000's
// Figure 1) still lets the others finish.
//
// A job has up to three stages, each an MPI non-blocking call on a
// communicator of its own: an agreement (MPI_Iallreduce of the minimum of key
// and ~key, and the sum of the v-variants' count balances: every member passed
// the same key and every pair's counts match, or not); where every member
// agreed, the data movement (MPI_Ibcast ... MPI_Ialltoall); and, for
// UPC_OUT_ALLSYNC, an MPI_Ibarrier once this member's data is in. MPI wants
// the collectives on a communicator started in the same order on every rank:
// agreements start in the order the calls were made, and a job's data (or
// barrier) stage starts only after every earlier job's on the same
// communicators (its team's) has (or was skipped), so each communicator sees
// the calls in call order on every rank, whatever order the stages before end
// in; jobs of other teams never hold one up.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace upc::detail {

struct mpi_job {
  // Set by the caller before mpi_jobs_submit.
  std::uint64_t agree_comm = 0, data_comm = 0, out_comm = 0;  // handles from the module
  std::uint64_t key = 0;         // equal on every member whose arguments agree
  std::uint64_t balance = 0;     // v-variants: adds up to 0 over the members when every pair agrees
  bool move = true;              // false: this member's call failed; it takes part in the agreement only
  int op = 0;                    // upc::coll::mpi_op (+ 5: its v-variant)
  const void* send = nullptr;    // a broadcast's root: its source (others: nullptr)
  void* recv = nullptr;
  std::uint64_t bytes = 0;       // one piece
  // v-variants: counts and displacements in bytes, as MPI takes them
  std::vector<int> send_counts, send_displs, recv_counts, recv_displs;
  int root = 0;
  bool root_copies = false;      // a broadcast's root copies send into recv itself (MPI_Bcast does not)
  bool out_barrier = false;      // UPC_OUT_ALLSYNC: done once every member's data is in
  // Runs once, on whichever thread finished the job, after the results below are set.
  std::function<void(mpi_job&)> on_done;

  // Results: valid once done reads true.
  std::atomic<bool> done{false};
  bool agreed = false;
  std::string error;             // MPI's words when one of its calls failed

  // The job thread's own.
  int stage = 0;
  std::uint64_t request = 0;
  std::int64_t values[3] = {0, 0, 0};
};

// Whether jobs can run: an mpi run whose MPI gives MPI_THREAD_MULTIPLE.
bool mpi_jobs_available() noexcept;
// The world's three communicators for jobs (0: agreements, 1: data, 2: out barriers), made for each run.
std::uint64_t mpi_jobs_world_comm(int which) noexcept;
// Queues a job; the rank's job thread (started on the first) runs it.
void mpi_jobs_submit(std::shared_ptr<mpi_job> job);
// One round of the jobs, unless another thread is in one: true when one moved on.
bool mpi_jobs_poll();

// A run's beginning and end (backend_mpi.cpp): the world's communicators, and
// the thread (joined at the end; jobs a failed run left are forgotten).
void mpi_jobs_begin_run();
void mpi_jobs_end_run();

}  // namespace upc::detail
