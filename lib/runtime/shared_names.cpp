#include "shared_names.hpp"

#include <cstring>
#include <mutex>

#include "control.hpp"

namespace upc::detail {

const char* shared_name(std::string_view name, const char* fallback) noexcept {
  if (!g_control || name.empty() || name.find('\0') != std::string_view::npos) return fallback;
  shared_name_table& t = g_control->names;
  std::lock_guard<futex_mutex> guard(t.lock);
  // A linear look: a program has as many such names as declarations in its
  // source, and each is interned once per allocation, not per access.
  for (std::uint32_t at = 0; at < t.used;) {
    const char* s = t.bytes + at;
    const std::size_t n = std::strlen(s);
    if (n == name.size() && std::memcmp(s, name.data(), n) == 0) return s;
    at += static_cast<std::uint32_t>(n + 1);
  }
  if (name.size() + 1 > sizeof t.bytes - t.used) return fallback;
  char* s = t.bytes + t.used;
  std::memcpy(s, name.data(), name.size());
  s[name.size()] = '\0';
  t.used += static_cast<std::uint32_t>(name.size() + 1);
  return s;
}

}  // namespace upc::detail
