// What the four MapReduce-over-MPI peers share (and an MR-MPI user would
// write around the library): MPI start and end, the options of the UPC-MR app
// each mirrors (--size, --seed; --page for the KeyValue page size), the timer,
// the end of a run (rank 0 prints a summary and the same result line as
// apps/mapreduce, with "backend": "mpi" and the answer's digest), and main().
#pragma once
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "../../../harness/cli.hpp"
#include "../../../harness/report.hpp"

namespace mrpeer {

struct options {
  std::int64_t size = 0;
  std::int64_t seed = 2012;
  std::uint64_t page = std::uint64_t{1} << 20;  // KeyValue page bytes (MR-MPI's memsize, smaller)
};

// Parses argv on every rank (all reach the same verdict; rank 0 prints): the
// status main() returns after --help (0) or a bad option (2), or nothing.
inline std::optional<int> parse(int argc, char** argv, const char* program, const char* about, const char* size_help, options& o,
                                std::int64_t max_size) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  bench::cli cli(program, about);
  cli.add_int("size", size_help, &o.size, 0);
  cli.add_int("seed", "seed of the generated input (the UPC-MR app's generator, apps/mapreduce/mr_inputs.hpp)", &o.seed, 0);
  cli.add_size("page", "bytes of a KeyValue page", &o.page);
  if (auto status = cli.exit_status(argc, argv, rank == 0)) return status;
  if (o.size > max_size) {
    if (rank == 0)
      std::fprintf(stderr, "%s: --size=%lld: at most %lld\n", program, static_cast<long long>(o.size),
                   static_cast<long long>(max_size));
    return 2;
  }
  if (o.page < 64) {
    if (rank == 0) std::fprintf(stderr, "%s: --page=%llu: at least 64 bytes\n", program, static_cast<unsigned long long>(o.page));
    return 2;
  }
  return std::nullopt;
}

inline double now_s() { return MPI_Wtime(); }

// True on every rank when rank 0's verdict `ok` is true.
inline bool rank0_says(bool ok) {
  int v = ok ? 1 : 0;
  MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return v == 1;
}

// The end of a run: rank 0 prints the summary and the result line; the exit status.
inline int report(const char* app, const options& o, double seconds, bool verified, std::uint64_t pairs,
                  const std::string& answer, bench::record extra = {}) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (rank == 0) {
    std::printf("%s_mrmpi: %lld elements, %d ranks: %.6f s, %s\n", app, static_cast<long long>(o.size), ranks, seconds,
                verified ? "VERIFIED" : "NOT VERIFIED");
    bench::record fields{{"threads", ranks},
                         {"backend", "mpi"},
                         {"app", std::string(app)},
                         {"variant", "mrmpi"},
                         {"size", static_cast<std::int64_t>(o.size)},
                         {"seed", static_cast<std::int64_t>(o.seed)},
                         {"map", "element"},
                         {"time_s", seconds},
                         {"verified", verified},
                         {"pairs_mapped", static_cast<std::int64_t>(pairs)},
                         {"page_bytes", static_cast<std::int64_t>(o.page)}};
    fields.insert(fields.end(), extra.begin(), extra.end());
    fields.push_back({"answer", answer});
    std::printf("upcemu-result %s\n", bench::to_json(fields).c_str());
    std::fflush(stdout);
  }
  return verified ? 0 : 1;
}

// A peer's main(): MPI started, the options parsed (--size's default
// `size`), run(options) on every rank, MPI ended; the exit status.
template <class Run>
int main_of(int argc, char** argv, const char* program, const char* about, const char* size_help, std::int64_t size,
            std::int64_t max_size, Run run) {
  MPI_Init(&argc, &argv);
  options opt;
  opt.size = size;
  const auto status = parse(argc, argv, program, about, size_help, opt, max_size);
  const int code = status ? *status : run(opt);
  MPI_Finalize();
  return code;
}

}  // namespace mrpeer
