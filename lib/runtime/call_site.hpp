// Who may call the runtime, and where the user's program called it from.
//
// Every entry point of the runtime first refuses threads that are not UPC
// threads (a std::thread the program started has no MYTHREAD, no slot, and
// would be counted as an arrival nowhere or everywhere). Entry points that know
// the user's source location remember it as the thread's last runtime call, so
// a report about threads waiting for this one can say what it last did.
#pragma once
#include <atomic>
#include <cstdint>
#include <source_location>
#include <string>

#include "control.hpp"

namespace upc::detail {

// Stops the run with a clear report: `function` was called from a thread that
// is not a UPC thread (or outside any run).
[[noreturn]] void fail_not_upc_thread(const char* function);

inline void require_upc_thread(const char* function) {
  if (tl_mythread < 0) [[unlikely]] fail_not_upc_thread(function);
}

inline void note_call(const char* function, const char* file, std::uint32_t line) noexcept {
  thread_slot& s = g_control->slots[tl_mythread];
  s.last_function.store(function, std::memory_order_relaxed);
  s.last_file.store(file, std::memory_order_relaxed);
  s.last_line.store(line, std::memory_order_relaxed);
}

// Where a C caller is: translated UPC (upcc, lib/capi) cannot hand the runtime a
// std::source_location of its own lines, so lib/capi sets this around each call
// (c_site_scope) and every report reads the site through file_of / line_of.
struct c_site {
  const char* file = nullptr;
  std::uint32_t line = 0;
};
extern thread_local c_site tl_c_site;

inline const char* file_of(const std::source_location& where) noexcept {
  return tl_c_site.file ? tl_c_site.file : where.file_name();
}
inline std::uint32_t line_of(const std::source_location& where) noexcept {
  return tl_c_site.file ? tl_c_site.line : where.line();
}

// Sets the C caller's site for the runtime calls made in its scope.
class c_site_scope {
 public:
  c_site_scope(const char* file, std::uint32_t line) noexcept : saved_(tl_c_site) { tl_c_site = {file, line}; }
  ~c_site_scope() { tl_c_site = saved_; }
  c_site_scope(const c_site_scope&) = delete;
  c_site_scope& operator=(const c_site_scope&) = delete;

 private:
  c_site saved_;
};

// The opening of an entry point that knows where it was called from.
inline void enter_runtime(const char* function, const std::source_location& where) {
  require_upc_thread(function);
  note_call(function, file_of(where), line_of(where));
}

// " at prog.cpp:12", or "" when the location is unknown.
std::string location_text(const char* file, std::uint32_t line);

}  // namespace upc::detail
