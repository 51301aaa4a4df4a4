// upcrun's folder for Open MPI's files of one job (mpi_job_folder.hpp).
#include "mpi_job_folder.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

namespace upcrun {

namespace {
// A live folder is named upcrun-mpi.XXXXXX and locked by its upcrun. It is made
// under another name and locked before it takes that one, so that no other
// upcrun ever sees it unlocked while its own is alive. (Not upcemu-*: that is
// what a leaked segment of the runtime would be called, which tests look for.)
constexpr const char* live_prefix = "upcrun-mpi.";
constexpr const char* new_prefix = "upcrun-mpi-new.";

int open_folder(const std::string& path) { return ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC); }
}  // namespace

int mpi_job_folder::remove_stale(const std::string& base) {
  std::vector<std::string> names;
  if (DIR* d = ::opendir(base.c_str())) {
    while (dirent* e = ::readdir(d))
      if (std::strncmp(e->d_name, live_prefix, std::strlen(live_prefix)) == 0) names.emplace_back(e->d_name);
    ::closedir(d);
  }
  int removed = 0;
  for (const std::string& name : names) {
    const std::string path = base + "/" + name;
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid()) continue;
    const int fd = open_folder(path);
    if (fd < 0) continue;
    // The lock is free only when the upcrun that made the folder is gone.
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
      if (!ec) ++removed;
    }
    ::close(fd);
  }
  return removed;
}

mpi_job_folder::mpi_job_folder(const std::string& base) {
  std::string made = base + "/" + new_prefix + "XXXXXX";
  if (!::mkdtemp(made.data())) {
    error_ = "cannot make a folder in " + base + ": " + std::strerror(errno);
    return;
  }
  lock_fd_ = open_folder(made);
  const std::string named = base + "/" + live_prefix + made.substr(made.size() - 6);
  if (lock_fd_ < 0 || ::flock(lock_fd_, LOCK_EX) != 0 || ::rename(made.c_str(), named.c_str()) != 0) {
    error_ = "cannot prepare the folder " + made + ": " + std::strerror(errno);
    std::error_code ec;
    std::filesystem::remove_all(made, ec);
    return;
  }
  path_ = named;
}

mpi_job_folder::~mpi_job_folder() {
  if (!path_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

}  // namespace upcrun
