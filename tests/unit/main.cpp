// The doctest main of the unit and conformance suites.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  // Under mpirun (the mpi backend's runs of a suite) every rank runs the
  // suite and every rank's checks are the same: rank 0 speaks for all.
  const char* rank = std::getenv("OMPI_COMM_WORLD_RANK");
  if (rank && std::strcmp(rank, "0") != 0) context.setOption("out", "/dev/null");
  return context.run();
}
