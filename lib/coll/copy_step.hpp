// One copy of a collective's bytes without a plan: the counting and the copy
// of run_data_step's copy step (plan.hpp), for a task executor's small input
// staged into its slot and an immediate plan's copy. Inline: a collective of
// a few bytes is mostly such calls.
#pragma once
#include <cstddef>

#include "../runtime/copy_bytes.hpp"
#include "../runtime/traffic.hpp"

namespace upc::coll {

inline void run_copy(char* dst, const char* src, std::size_t bytes, const char* algorithm) {
  if (detail::traffic::g_active) [[unlikely]] detail::traffic::copied(dst, src, bytes, -1, algorithm);
  detail::copy_bytes(dst, src, bytes);
}

}  // namespace upc::coll
