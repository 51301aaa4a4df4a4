#include "exit_codes.hpp"

namespace upc::detail {

namespace {
std::vector<int> g_exit_codes;
int g_launcher_exit_code = 0;
}  // namespace

void reset_exit_codes(int threads) {
  g_exit_codes.assign(static_cast<std::size_t>(threads), 0);
  g_launcher_exit_code = 0;
}

void set_exit_code(int thread, int code) {
  if (thread >= 0 && thread < static_cast<int>(g_exit_codes.size())) g_exit_codes[static_cast<std::size_t>(thread)] = code;
}

const std::vector<int>& exit_codes() noexcept { return g_exit_codes; }

void set_launcher_exit_code(int code) { g_launcher_exit_code = code; }
int launcher_exit_code() { return g_launcher_exit_code; }

}  // namespace upc::detail
