#include "call_site.hpp"

#include <string>

#include "upc/error.hpp"
#include "failure.hpp"

namespace upc::detail {

thread_local c_site tl_c_site;

void fail_not_upc_thread(const char* function) {
  if (!g_control)
    throw upc::error(function, "called outside a UPC program: call it from upc_main (or a body run by upc::run)", -1);
  const std::string why =
      "called from a thread that is not a UPC thread (a std::thread the program started?): only the UPC threads "
      "may call the UPC runtime; give the work to a UPC thread or join the helper thread first";
  // Recorded before throwing: the helper thread has nobody to report for it, and
  // its exception will most likely end in std::terminate.
  record_failure(-1, ("upcemu: " + std::string(function) + ": " + why + "\n").c_str());
  throw upc::error(function, why, -1);
}

std::string location_text(const char* file, std::uint32_t line) {
  if (!file || !*file) return "";
  return std::string(" at ") + file + ":" + std::to_string(line);
}

}  // namespace upc::detail
