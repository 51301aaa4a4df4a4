// upc::error — the one exception type the runtime throws for user mistakes.
// Its text always names the function, the argument or cause, and the thread.
#pragma once
#include <stdexcept>
#include <string>
#include <source_location>
#include <vector>

namespace upc {

class error : public std::runtime_error {
 public:
  error(std::string function, std::string message, int thread);
  const std::string& function() const noexcept { return function_; }
  const std::string& message() const noexcept { return message_; }
  int thread() const noexcept { return thread_; }
  // Where the error was raised, one frame per line: the program's frames,
  // demangled, with file:line where it has debug information (all frames with
  // launch_options::backtrace = full, UPCEMU_BACKTRACE=full; "" with off).
  // Read from the program's symbols on each call (lib/runtime/backtrace.cpp).
  std::string backtrace() const;
  // The return addresses it is read from, innermost first.
  const std::vector<void*>& frames() const noexcept { return frames_; }

 private:
  std::string function_, message_;
  std::vector<void*> frames_;
  int thread_;
};

namespace detail {
// Throws upc::error("function: message (thread N)") for the calling UPC thread.
[[noreturn]] void fail(const char* function, const std::string& message);
// Thrown into threads that must stop because another thread failed or called
// upc_global_exit; the launcher catches it silently.
struct stop_unwind {
  int status;
};
}  // namespace detail
}  // namespace upc
