// Finding and opening libupcemu_mpi.so (mpi_plugin.hpp).
#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "mpi_plugin.hpp"
#include "upc/error.hpp"

// Set by lib/meson.build: the module in the build tree and where `meson
// install` puts it.
#ifndef UPCEMU_MPI_PLUGIN_BUILD
#define UPCEMU_MPI_PLUGIN_BUILD ""
#endif
#ifndef UPCEMU_MPI_PLUGIN_INSTALLED
#define UPCEMU_MPI_PLUGIN_INSTALLED ""
#endif

namespace upc::detail {

const mpi_plugin_ops& load_mpi_plugin() {
  static const mpi_plugin_ops* ops = nullptr;
  if (ops) return *ops;
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("UPCEMU_MPI_PLUGIN"); env && *env) candidates.emplace_back(env);
  else
    for (const char* p : {UPCEMU_MPI_PLUGIN_BUILD, UPCEMU_MPI_PLUGIN_INSTALLED})
      if (*p) candidates.emplace_back(p);
  std::string tried;
  for (const std::string& path : candidates) {
    // RTLD_GLOBAL: Open MPI's own components resolve libmpi's symbols.
    void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (!handle) {
      const char* why = ::dlerror();
      tried += "\n  " + path + ": " + (why ? why : "cannot be opened");
      continue;
    }
    auto entry = reinterpret_cast<const mpi_plugin_ops* (*)()>(::dlsym(handle, "upcemu_mpi_plugin_ops"));
    const mpi_plugin_ops* found = entry ? entry() : nullptr;
    if (!found || found->abi != mpi_plugin_abi) {
      tried += "\n  " + path + ": not a upcemu MPI module of this version";
      continue;
    }
    ops = found;
    return *ops;
  }
  throw upc::error("upcrun",
                   "the mpi backend needs libupcemu_mpi.so, built when Open MPI is installed (apt-get install "
                   "libopenmpi-dev openmpi-bin, then rebuild; meson option mpi_backend); tried:" +
                       (tried.empty() ? std::string("\n  (no path: this upcemu was built without Open MPI)") : tried),
                   -1);
}

}  // namespace upc::detail
