#include "agreement.hpp"

#include <cstdint>
#include <string>

#include "../runtime/single_valued.hpp"
#include "upc.h"
#include "upc_collective_ext.h"

namespace upc::mr {

namespace {
std::string signed_text(std::uint64_t v) { return std::to_string(static_cast<long long>(v)); }
}  // namespace

rows agree(const char* function, std::initializer_list<std::pair<const char*, long long>> named,
           std::initializer_list<long long> extra) {
  std::vector<long long> mine;
  for (const auto& a : named) mine.push_back(a.second);
  mine.insert(mine.end(), extra.begin(), extra.end());
  rows r;
  r.width = static_cast<int>(mine.size());
  r.cells.assign(mine.size() * static_cast<std::size_t>(THREADS), 0);
  upc_all_gather_all_priv(r.cells.data(), mine.data(), mine.size() * sizeof(long long), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
  // The named arguments against thread 0's, through the runtime's one
  // single-valued service, in its words.
  std::vector<std::string> names;
  names.reserve(named.size());  // the service keeps pointers to them
  detail::single_valued args(function);
  std::vector<std::uint64_t> theirs;
  for (const auto& a : named) {
    names.push_back(std::string("argument ") + a.first);
    args.add(names.back().c_str(), static_cast<std::uint64_t>(a.second), signed_text);
    theirs.push_back(static_cast<std::uint64_t>(r.at(0, static_cast<int>(theirs.size()))));
  }
  if (const int i = args.first_difference(theirs.data()); i >= 0) args.fail_difference(i, theirs[std::size_t(i)], 0);
  return r;
}

}  // namespace upc::mr
