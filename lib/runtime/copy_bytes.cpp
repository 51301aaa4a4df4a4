#include "copy_bytes.hpp"

namespace upc::detail {

namespace {
// 32 bytes, loaded and stored unaligned (one AVX register, two SSE ones).
typedef char bytes32 __attribute__((vector_size(32), aligned(1), may_alias));
}  // namespace

// 128 bytes per round through registers; built for AVX2 where the CPU has it,
// SSE2 otherwise (the ifunc picks at load time).
__attribute__((target_clones("avx2", "default"))) void copy_vector_loop(char* dst, const char* src,
                                                                        std::size_t n) noexcept {
  std::size_t i = 0;
  for (; i + 128 <= n; i += 128) {
    const bytes32 a = *reinterpret_cast<const bytes32*>(src + i);
    const bytes32 b = *reinterpret_cast<const bytes32*>(src + i + 32);
    const bytes32 c = *reinterpret_cast<const bytes32*>(src + i + 64);
    const bytes32 d = *reinterpret_cast<const bytes32*>(src + i + 96);
    *reinterpret_cast<bytes32*>(dst + i) = a;
    *reinterpret_cast<bytes32*>(dst + i + 32) = b;
    *reinterpret_cast<bytes32*>(dst + i + 64) = c;
    *reinterpret_cast<bytes32*>(dst + i + 96) = d;
  }
  std::memcpy(dst + i, src + i, n - i);
}

}  // namespace upc::detail
