// vector_copy (Appendix A, A.2.7): nchunks chunks, each counts[k] elements
// from sdisp[k] of src to ddisp[k] of dst, both absolute indices of blocked
// arrays; a chunk stays inside one block.
#include <string>

#include "builders.hpp"
#include "chunk_builder.hpp"
#include "upc/error.hpp"
#include "upc/runtime.hpp"
#include "number_text.hpp"

namespace upc::ext {

namespace {


// Chunk k's end on one side: index a[k] of the blocked array (`blk` names its block size).
place chunk_end(const v_chunk_builder& v, const v_side& vs, const arg_array& a, int k, std::uint64_t bytes, const char* blk) {
  const call& c = v.c;
  const long long value = a.at(static_cast<std::size_t>(k));
  const auto what = [&] { return std::string(a.name) + "[" + str(k) + "] = " + str(value); };
  if (value < 0) detail::fail(c.function, what() + " is negative");
  const std::uint64_t byte = static_cast<std::uint64_t>(value) * v.unit;
  if (vs.block == 0) detail::fail(c.function, what() + ": " + blk + " is 0");
  const std::uint64_t q = byte / vs.block;
  if (q >= static_cast<std::uint64_t>(threads()))
    detail::fail(c.function, what() + " is past the end of the array (" + str(threads()) + " blocks)");
  if (byte % vs.block + bytes > vs.block)
    detail::fail(c.function, what() + ": the chunk of " + str(static_cast<long long>(bytes)) +
                                 " bytes runs past the end of its block (" + blk + " " +
                                 str(static_cast<long long>(vs.block / v.unit)) + "): a chunk must stay inside one block");
  if (vs.s.is_private) return private_at(static_cast<int>(q), byte % vs.block);
  return shared_byte(vs.s.shared, byte, vs.block);
}

}  // namespace

void vector_copy_v(v_chunk_builder& v) {
  const call& c = v.c;
  const int nchunks = c.nchunks.value_or(0);
  if (nchunks < 0) detail::fail(c.function, "nchunks is " + str(nchunks) + ", negative");
  for (int k = 0; k < nchunks; ++k) {
    const std::uint64_t bytes = count_of(c, static_cast<std::size_t>(k), v.unit);
    if (!bytes) continue;
    v.add(chunk_end(v, v.src, c.sdisp, k, bytes, v.raw ? "src_blk_raw" : "src_blk"),
          chunk_end(v, v.dst, c.ddisp, k, bytes, v.raw ? "dst_blk_raw" : "dst_blk"), bytes);
  }
}

}  // namespace upc::ext
