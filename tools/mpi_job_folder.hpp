// A folder of upcrun's own for the files Open MPI makes for one mpi job: the
// shared-memory transport's backing files (btl/vader's vader_segment.*, 4 MiB
// a rank, in /dev/shm by default) and the session directory (PMIx's segments,
// in /tmp by default). Open MPI removes them only when a job ends cleanly; a
// rank ended by MPI_Abort or SIGKILL leaves its segment behind. upcrun removes
// its folder when the job ends, and a folder whose upcrun was killed is removed
// by the next upcrun: each upcrun holds a lock on its folder while it lives.
#pragma once
#include <string>

namespace upcrun {

class mpi_job_folder {
 public:
  // Makes this upcrun's folder in `base` (/dev/shm or /tmp), locked. On
  // failure path() is empty and error() says why.
  explicit mpi_job_folder(const std::string& base);
  ~mpi_job_folder();  // removes the folder and all in it
  mpi_job_folder(const mpi_job_folder&) = delete;
  mpi_job_folder& operator=(const mpi_job_folder&) = delete;

  const std::string& path() const { return path_; }
  const std::string& error() const { return error_; }

  // The folders of dead upcruns in `base`, removed; how many.
  static int remove_stale(const std::string& base);

 private:
  std::string path_, error_;
  int lock_fd_ = -1;
};

}  // namespace upcrun
