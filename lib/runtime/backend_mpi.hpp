// The steps of a run that differ on the mpi backend (backend_mpi.cpp), called
// by run() in launcher.cpp at the places where the other backends do their own.
// MPI itself, started by mpi_start, and the services the rest of the runtime
// uses across ranks are mpi_session.hpp's, below this.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "segment.hpp"
#include "upc/runtime.hpp"

namespace upc::detail {
// Maps the host's segment at one address in every rank (replaces create_segment).
void mpi_create_segment(const segment_geometry& g);
// Runs `allocate` (the namespace-scope objects) on rank 0 and adopts its
// offsets in the other ranks; ends with every rank ready to start.
void mpi_allocate_launch_objects(const std::function<void()>& allocate);
// This rank's UPC thread, rank 0's supervision, and everyone's exit codes.
void run_mpi_backend(const launch_options& opt, const std::function<int()>& body);
void mpi_finish() noexcept;  // the end of one run (MPI_Finalize is at exit)
}  // namespace upc::detail
