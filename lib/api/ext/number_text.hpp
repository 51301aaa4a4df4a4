// A number in a message of the extended collectives' argument checks.
#pragma once
#include <string>

namespace upc::ext {
inline std::string str(long long v) { return std::to_string(v); }
}  // namespace upc::ext
