// The doctest main of the unit and conformance suites.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  // Under mpirun (the mpi backend's runs of a suite) every rank runs the
  // suite and every rank's checks are the same: rank 0 speaks for all. The
  // others write to a file of their own, shown only when that rank failed
  // (its exit status fails the job), so that a failure seen on another rank
  // alone is not silent. The file has no name (unlinked at once, reached
  // through /proc): a rank ended by force leaves nothing in /tmp.
  const char* rank = std::getenv("OMPI_COMM_WORLD_RANK");
  int fd = -1;
  std::string out;
  if (rank && std::strcmp(rank, "0") != 0) {
    char path[] = "/tmp/upcemu-suite-rank-XXXXXX";
    fd = ::mkstemp(path);
    if (fd >= 0) {
      ::unlink(path);
      out = "/proc/self/fd/" + std::to_string(fd);
    }
    context.setOption("out", fd >= 0 ? out.c_str() : "/dev/null");
  }
  const int status = context.run();
  if (fd >= 0) {
    if (status != 0 && !context.shouldExit()) {
      std::fprintf(stderr, "==== rank %s failed (rank 0 speaks for the others; this is rank %s's own report) ====\n",
                   rank, rank);
      char buf[4096];
      ::lseek(fd, 0, SEEK_SET);
      for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) std::fwrite(buf, 1, static_cast<std::size_t>(n), stderr);
      std::fprintf(stderr, "==== end of rank %s ====\n", rank);
    }
    ::close(fd);
  }
  return status;
}
