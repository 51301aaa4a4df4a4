// "64M", "1G", "4096" → bytes, bytes → "16 TiB", and the limits (THREADS, heap,
// segment) shared by the runtime and upcrun.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

namespace upc::detail {

constexpr int max_threads = 4096;
constexpr std::size_t min_heap_bytes = 64 * 1024;
// The whole segment (--heap × THREADS plus the control block) is one mapping; half
// of x86-64's 128 TiB user address space is as much as we ask for.
constexpr std::uint64_t max_segment_bytes = 1ULL << 46;
constexpr std::uint64_t page_bytes = 4096;

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

// 16 TiB, 1.5 GiB, 65536 bytes: exact when a unit divides it, else one decimal.
inline std::string describe_bytes(std::uint64_t bytes) {
  static const char* const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int unit = 0;
  std::uint64_t exact = bytes;
  while (unit < 6 && exact >= 1024 && exact % 1024 == 0) exact /= 1024, ++unit;
  if (exact < 1024 || unit == 6) return std::to_string(exact) + " " + units[unit];
  double value = static_cast<double>(bytes);
  unit = 0;
  while (unit < 6 && value >= 1024) value /= 1024, ++unit;
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
  return text;
}

// x rounded up to a multiple of `to`, or nothing when that overflows.
inline std::optional<std::uint64_t> round_up_checked(std::uint64_t x, std::uint64_t to) {
  std::uint64_t sum = 0;
  if (__builtin_add_overflow(x, to - 1, &sum)) return std::nullopt;
  return sum / to * to;
}

// The bytes of THREADS partitions of `heap` bytes each (each rounded up to whole
// pages), or a message saying why that is too much; `heap_text` is the heap as the
// user wrote it. Used by upcrun and by upc::run, so both say the same.
struct partitions_size {
  std::uint64_t partition_bytes = 0, total_bytes = 0;
  std::string error;  // empty: fits
};
inline partitions_size size_partitions(std::uint64_t heap, int threads, const std::string& heap_text) {
  partitions_size out;
  std::optional<std::uint64_t> partition = round_up_checked(heap, page_bytes);
  std::uint64_t total = 0;
  const bool wraps = !partition || __builtin_mul_overflow(*partition, static_cast<std::uint64_t>(threads), &total);
  if (wraps || total > max_segment_bytes) {
    out.error = "--heap " + heap_text + " × THREADS " + std::to_string(threads) + " = " +
                (wraps ? std::string("more than 16 EiB") : describe_bytes(total)) +
                " exceeds the largest shared segment upcemu maps (" + describe_bytes(max_segment_bytes) +
                "): use a smaller --heap or fewer threads";
    return out;
  }
  out.partition_bytes = *partition;
  out.total_bytes = total;
  return out;
}

}  // namespace upc::detail
