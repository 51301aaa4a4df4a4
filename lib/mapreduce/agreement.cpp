#include "agreement.hpp"

#include <string>

#include "upc/error.hpp"
#include "upc.h"
#include "upc_collective_ext.h"

namespace upc::mr {

rows agree(const char* function, std::initializer_list<std::pair<const char*, long long>> named,
           std::initializer_list<long long> extra) {
  std::vector<long long> mine;
  for (const auto& a : named) mine.push_back(a.second);
  mine.insert(mine.end(), extra.begin(), extra.end());
  rows r;
  r.width = static_cast<int>(mine.size());
  r.cells.assign(mine.size() * static_cast<std::size_t>(THREADS), 0);
  upc_all_gather_all_priv(r.cells.data(), mine.data(), mine.size() * sizeof(long long), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  int column = 0;
  for (const auto& a : named) {
    const long long theirs = r.at(0, column), ours = a.second;
    if (ours != theirs)
      detail::fail(function, std::string("argument ") + a.first + " must be the same on every thread: this thread passed " +
                                 std::to_string(ours) + ", thread 0 passed " + std::to_string(theirs));
    ++column;
  }
  return r;
}

}  // namespace upc::mr
