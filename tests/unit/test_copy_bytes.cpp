// detail::copy_bytes: memcpy's result for every size and mutual offset, the
// vector loop taken exactly where memcpy is slow (lib/runtime/copy_bytes.hpp).
#include <cstdint>
#include <cstring>
#include <vector>

#include "../../lib/runtime/copy_bytes.hpp"
#include "doctest/doctest.h"

using upc::detail::copy_bytes;
using upc::detail::copy_vector_loop;
using upc::detail::near_page_alias;

namespace {
unsigned char pattern(std::size_t i) { return static_cast<unsigned char>(i * 7 + (i >> 8) + 1); }
}  // namespace

TEST_CASE("copy_bytes: the slow case is (dst - src) mod 4096 in 1..63, from 2 KiB") {
  alignas(4096) static char area[3 * 4096];
  char* src = area;
  CHECK(near_page_alias(src + 4096 + 8, src, 2048));
  CHECK(near_page_alias(src + 8192 + 63, src, 4096));
  CHECK(near_page_alias(src + 1, src, 2048));
  CHECK_FALSE(near_page_alias(src + 4096, src, 4096));       // same page offset
  CHECK_FALSE(near_page_alias(src + 4096 + 64, src, 4096));  // far enough ahead
  CHECK_FALSE(near_page_alias(src + 4096 - 8, src, 4096));   // behind the source
  CHECK_FALSE(near_page_alias(src + 4096 + 8, src, 2047));   // small: memcpy's other paths
}

TEST_CASE("copy_bytes and the vector loop copy exactly n bytes, nothing around them") {
  std::vector<unsigned char> from(3 * 65536), to(3 * 65536 + 8192);
  for (std::size_t i = 0; i < from.size(); ++i) from[i] = pattern(i);
  for (std::size_t n : {0ul, 1ul, 63ul, 64ul, 65ul, 127ul, 128ul, 129ul, 2047ul, 2048ul, 4097ul, 65536ul + 5})
    for (std::size_t dst_off : {0ul, 1ul, 8ul, 63ul, 4096ul + 8, 4096ul + 40})
      for (int loop = 0; loop < 2; ++loop) {
        std::memset(to.data(), 0xEE, to.size());
        char* d = reinterpret_cast<char*>(to.data()) + 64 + dst_off;
        const char* s = reinterpret_cast<const char*>(from.data()) + 3;
        if (loop) copy_vector_loop(d, s, n);
        else copy_bytes(d, s, n);
        INFO("n=", n, " dst_off=", dst_off, " loop=", loop);
        CHECK(std::memcmp(d, s, n) == 0);
        CHECK(static_cast<unsigned char>(d[-1]) == 0xEE);
        CHECK(static_cast<unsigned char>(d[n]) == 0xEE);
      }
}
