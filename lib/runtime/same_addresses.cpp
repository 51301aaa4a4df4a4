// The mpi backend's ranks are separate programs started by mpirun, not forks of
// one launcher; yet the runtime, as on the processes backend, keeps addresses of
// the program's static data in the shared segment (the names of declared
// objects, call sites, a user's reduction function) for the other threads to
// read. So every rank must load the program and its libraries at the same
// addresses: before main, a rank with address-space randomisation on turns it
// off for itself (personality ADDR_NO_RANDOMIZE, as `setarch -R` does) and
// executes itself again, keeping its pid, arguments and environment.
// mpi_session.cpp checks the result and says so when the system forbids it.
#include <sys/personality.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace {

bool mpi_backend_chosen() {
  const char* b = std::getenv("UPCEMU_BACKEND");
  if (b && *b) return std::strcmp(b, "mpi") == 0;
  const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
  return size && *size;
}

// glibc passes (argc, argv, envp) to the functions of .init_array.
void same_addresses_in_every_rank(int /*argc*/, char** argv, char** /*envp*/) {
  if (!argv || !mpi_backend_chosen()) return;
  const int current = ::personality(0xffffffff);
  if (current == -1 || (current & ADDR_NO_RANDOMIZE)) return;
  if (std::getenv("UPCEMU_MPI_REEXEC")) return;  // tried once already: let mpi_session.cpp report
  if (::personality(static_cast<unsigned long>(current) | ADDR_NO_RANDOMIZE) == -1) return;
  ::setenv("UPCEMU_MPI_REEXEC", "1", 1);
  ::execv("/proc/self/exe", argv);
  ::personality(static_cast<unsigned long>(current));  // exec failed: go on as we are
}

[[gnu::used, gnu::section(".init_array")]] void (*const g_same_addresses)(int, char**, char**) =
    same_addresses_in_every_rank;

}  // namespace

namespace upc::detail {
// Referenced by mpi_session.cpp, which also keeps this file (and so the
// function above) in every program linked from the static library.
bool randomization_off() noexcept {
  const int current = ::personality(0xffffffff);
  return current != -1 && (current & ADDR_NO_RANDOMIZE);
}
}  // namespace upc::detail
