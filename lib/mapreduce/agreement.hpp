// What ApplyMap and ApplyReduce learn from every thread at their start: each
// thread's row of numbers, exchanged with one extended collective
// (upc_all_gather_all_priv), of which the first `single_valued` columns are
// arguments that must be the same on every thread.
#pragma once
#include <initializer_list>
#include <utility>
#include <vector>

namespace upc::mr {

struct rows {
  int width = 0;
  std::vector<long long> cells;  // THREADS rows of `width` cells
  long long at(int thread, int column) const { return cells[static_cast<std::size_t>(thread * width + column)]; }
};

// Every thread's values (`named` first, then `extra`); stops the run when a
// named argument differs from thread 0's, in the words of every library's
// single-valued checks (lib/runtime/single_valued.hpp): "ApplyReduce: argument
// gathFlag must be single-valued (the same on every thread): this thread
// passed 1, thread 0 passed 0".
rows agree(const char* function, std::initializer_list<std::pair<const char*, long long>> named,
           std::initializer_list<long long> extra = {});

}  // namespace upc::mr
