// Text pieces the end-of-run reports share (--report=traffic, traffic.cpp;
// --report=locality, locality_report.cpp): a JSON string and a byte count
// for people.
#pragma once
#include <cstdint>
#include <string>

namespace upc::detail {

// s as a JSON string: quotes and backslashes escaped, control characters dropped.
std::string json_string(const std::string& s);
// "512 B", "3.0 KiB", "1.5 MiB", "2.0 GiB".
std::string bytes_text(std::uint64_t b);

}  // namespace upc::detail
