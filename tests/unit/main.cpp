// The doctest main of the unit and conformance suites.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  // Under mpirun (the mpi backend's runs of a suite) every rank runs the
  // suite and every rank's checks are the same: rank 0 speaks for all. The
  // others write to a file of their own, shown only when that rank failed
  // (its exit status fails the job), so that a failure seen on another rank
  // alone is not silent.
  const char* rank = std::getenv("OMPI_COMM_WORLD_RANK");
  std::string out;
  if (rank && std::strcmp(rank, "0") != 0) {
    char path[] = "/tmp/upcemu-suite-rank-XXXXXX";
    const int fd = ::mkstemp(path);
    if (fd >= 0) {
      ::close(fd);
      out = path;
    }
    context.setOption("out", out.empty() ? "/dev/null" : out.c_str());
  }
  const int status = context.run();
  if (!out.empty()) {
    if (status != 0 && !context.shouldExit()) {
      std::ifstream in(out);
      std::cerr << "==== rank " << rank << " failed (rank 0 speaks for the others; this is rank " << rank
                << "'s own report) ====\n"
                << in.rdbuf() << "==== end of rank " << rank << " ====" << std::endl;
    }
    std::remove(out.c_str());
  }
  return status;
}
