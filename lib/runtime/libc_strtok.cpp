// strtok with its position per OS thread, so per UPC thread on every backend:
// glibc's strtok keeps the rest of the string it is cutting once per process,
// and two UPC threads cutting their own strings would take each other's tokens.
// It replaces glibc's for the whole program (weak: a program's own strtok wins)
// and is glibc's strtok_r on a thread-local position.
#include <string.h>

#include "libc_state.hpp"

namespace upc::detail {
namespace {
thread_local char* tl_strtok_rest = nullptr;
}  // namespace

void reset_strtok_state() noexcept { tl_strtok_rest = nullptr; }

}  // namespace upc::detail

extern "C" __attribute__((weak)) char* strtok(char* __restrict s, const char* __restrict delimiters) noexcept {
  return strtok_r(s, delimiters, &upc::detail::tl_strtok_rest);
}
