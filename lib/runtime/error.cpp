// upc::error, the one exception type of user mistakes, and detail::fail, which
// throws it for the calling UPC thread (include/upc/error.hpp). The lowest layer
// of the runtime's failure handling: it records nothing and stops nobody (the
// thread that catches it does, upc_thread.cpp).
#include <string>
#include <vector>

#include "backtrace.hpp"
#include "upc/error.hpp"
#include "upc/runtime.hpp"

namespace upc {

namespace {
// Only addresses here: many errors are caught by the program, and reading the
// symbols waits until a report needs them (error::backtrace, upc_thread.cpp).
__attribute__((noinline)) std::vector<void*> capture_error_frames() {
  if (detail::backtrace_setting() == backtrace_detail::off) return {};
  void* pcs[detail::max_backtrace_frames];
  const int n = detail::capture_frames(pcs, detail::max_backtrace_frames, 1);  // from error::error on
  return std::vector<void*>(pcs, pcs + n);
}

std::string format(const std::string& function, const std::string& message, int thread) {
  std::string s = function + ": " + message;
  if (thread >= 0) s += " (thread " + std::to_string(thread) + ")";
  return s;
}
}  // namespace

error::error(std::string function, std::string message, int thread)
    : std::runtime_error(format(function, message, thread)),
      function_(std::move(function)),
      message_(std::move(message)),
      frames_(capture_error_frames()),
      thread_(thread) {}

std::string error::backtrace() const { return detail::describe_frames(frames_.data(), static_cast<int>(frames_.size())); }

namespace detail {

void fail(const char* function, const std::string& message) {
  throw upc::error(function, message, tl_mythread);
}

}  // namespace detail
}  // namespace upc
