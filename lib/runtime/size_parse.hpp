// "64M", "1G", "4096" → bytes. Shared by the runtime and upcrun.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace upc::detail {

constexpr int max_threads = 4096;
constexpr std::size_t min_heap_bytes = 64 * 1024;

inline std::optional<std::size_t> parse_size(std::string_view s) {
  if (s.empty()) return std::nullopt;
  std::uint64_t value = 0;
  std::size_t i = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
    if (value > (UINT64_MAX - 9) / 10) return std::nullopt;
    value = value * 10 + static_cast<unsigned>(s[i] - '0');
  }
  if (i == 0) return std::nullopt;
  std::uint64_t scale = 1;
  if (i < s.size()) {
    switch (s[i]) {
      case 'k': case 'K': scale = 1ULL << 10; break;
      case 'm': case 'M': scale = 1ULL << 20; break;
      case 'g': case 'G': scale = 1ULL << 30; break;
      default: return std::nullopt;
    }
    ++i;
    if (i < s.size() && (s[i] == 'i' || s[i] == 'I')) ++i;
    if (i < s.size() && (s[i] == 'b' || s[i] == 'B')) ++i;
  }
  if (i != s.size()) return std::nullopt;
  if (value > UINT64_MAX / scale) return std::nullopt;
  return static_cast<std::size_t>(value * scale);
}

}  // namespace upc::detail
