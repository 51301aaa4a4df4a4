#include "shared_names.hpp"

#include <cstring>
#include <mutex>

#include "control.hpp"

namespace upc::detail {

namespace {
// The name among the first `used` bytes of the table, or null.
const char* find_name(const shared_name_table& t, std::uint32_t used, std::string_view name) noexcept {
  // A linear look: a program has as many such names as declarations in its
  // source, and each is interned once per allocation, not per access.
  for (std::uint32_t at = 0; at < used;) {
    const char* s = t.bytes + at;
    const std::size_t n = std::strlen(s);
    if (n == name.size() && std::memcmp(s, name.data(), n) == 0) return s;
    at += static_cast<std::uint32_t>(n + 1);
  }
  return nullptr;
}
}  // namespace

const char* shared_name(std::string_view name, const char* fallback) noexcept {
  if (!g_control || name.empty() || name.find('\0') != std::string_view::npos) return fallback;
  shared_name_table& t = g_control->names;
  // Every thread interns the same names (each declaration is collective): all
  // but the first find theirs without the lock. Taking it every time made 4096
  // processes queue on one futex at start-up, each waiting its turn for a core.
  if (const char* s = find_name(t, t.used.load(std::memory_order_acquire), name)) return s;
  std::lock_guard<futex_mutex> guard(t.lock);
  const std::uint32_t used = t.used.load(std::memory_order_relaxed);
  if (const char* s = find_name(t, used, name)) return s;
  if (name.size() + 1 > sizeof t.bytes - used) return fallback;
  char* s = t.bytes + used;
  std::memcpy(s, name.data(), name.size());
  s[name.size()] = '\0';
  t.used.store(used + static_cast<std::uint32_t>(name.size() + 1), std::memory_order_release);
  return s;
}

}  // namespace upc::detail
