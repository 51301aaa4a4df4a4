#include "collective_checks.hpp"

#include "../runtime/op_names.hpp"
#include "upc/error.hpp"
#include "upc/runtime.hpp"

namespace upc::coll {

using detail::fail;

namespace {
std::string str(std::uint64_t v) { return std::to_string(v); }
}  // namespace

void check_sync_flags(const char* fn, upc_flag_t flags, const char* arg) {
  const upc_flag_t known = UPC_IN_ALLSYNC | UPC_IN_MYSYNC | UPC_IN_NOSYNC | UPC_OUT_ALLSYNC | UPC_OUT_MYSYNC |
                           UPC_OUT_NOSYNC | UPC_PULL | UPC_PUSH | UPC_MULTICORE;
  const std::string a(arg);
  if (flags & ~known) fail(fn, a + " has unknown bits " + str(flags & ~known) + " (" + a + " = " + str(flags) + ")");
  auto count = [](upc_flag_t f) { return f == 0 ? 0 : (f & (f - 1)) == 0 ? 1 : 2; };  // 0, 1 or "more"
  if (count(flags & (UPC_IN_ALLSYNC | UPC_IN_MYSYNC | UPC_IN_NOSYNC)) > 1)
    fail(fn, a + " combines more than one of UPC_IN_ALLSYNC, UPC_IN_MYSYNC, UPC_IN_NOSYNC");
  if (count(flags & (UPC_OUT_ALLSYNC | UPC_OUT_MYSYNC | UPC_OUT_NOSYNC)) > 1)
    fail(fn, a + " combines more than one of UPC_OUT_ALLSYNC, UPC_OUT_MYSYNC, UPC_OUT_NOSYNC");
}

void check_shared_pointer(const char* fn, const char* arg, const shared_address& a) {
  if (a == shared_address{}) fail(fn, std::string(arg) + " is a null pointer-to-shared");
  if (a.thread >= static_cast<std::uint32_t>(threads()))
    fail(fn, std::string(arg) + " names thread " + str(a.thread) + ", but THREADS is " + str(static_cast<std::uint64_t>(threads())));
}

std::uint64_t checked_product(const char* fn, const std::string& what, std::uint64_t a, std::uint64_t b) {
  std::uint64_t r;
  if (__builtin_mul_overflow(a, b, &r)) fail(fn, what + " overflows (" + str(a) + " x " + str(b) + ")");
  return r;
}

std::string negative_hint(std::uint64_t v) {
  return v > (std::uint64_t{1} << 63) ? " (a negative value converted to size_t?)" : "";
}

void check_reduction_extent(const char* fn, std::size_t nelems, std::size_t blk_size, std::size_t elem, const char* blk_arg) {
  if (nelems == 0) fail(fn, "nelems must be > 0");
  constexpr std::uint64_t max_block = std::uint64_t{1} << 32;  // UPC_MAX_BLOCK_SIZE
  if (blk_size > max_block)
    fail(fn, std::string(blk_arg) + " " + str(blk_size) + negative_hint(blk_size) + " is larger than UPC_MAX_BLOCK_SIZE (4294967296)");
  const std::uint64_t bytes = checked_product(fn, "nelems x element size", nelems, elem);
  const std::uint64_t all = static_cast<std::uint64_t>(threads()) * detail::g_partition_bytes;
  if (bytes > all)
    fail(fn, "nelems " + str(nelems) + negative_hint(nelems) + " elements of " + str(elem) + " bytes (" + str(bytes) +
                 " bytes) do not fit in the shared heaps of all threads (" + str(all) + " bytes)");
}

void check_reduction_phase(const char* fn, const char* arg, const shared_address& a, std::size_t blk_size) {
  if (blk_size == 0 && a.phase != 0)
    fail(fn, std::string(arg) + " has phase " + str(a.phase) + " but blk_size is 0 (indefinite)");
  if (blk_size != 0 && a.phase >= blk_size)
    fail(fn, std::string(arg) + " has phase " + str(a.phase) + ", not below blk_size " + str(blk_size));
}

void check_reduction_op(const char* fn, upc_op_t op, elem_type type, const void* func) {
  switch (op) {
    case UPC_ADD: case UPC_MULT: case UPC_AND: case UPC_OR: case UPC_XOR: case UPC_LOGAND:
    case UPC_LOGOR: case UPC_MIN: case UPC_MAX: case UPC_FUNC: case UPC_NONCOMM_FUNC: break;
    default:
      fail(fn, "op " + std::to_string(op) +
                   " is not one of UPC_ADD, UPC_MULT, UPC_AND, UPC_OR, UPC_XOR, UPC_LOGAND, UPC_LOGOR, UPC_MIN, UPC_MAX, "
                   "UPC_FUNC, UPC_NONCOMM_FUNC");
  }
  if (info(type).cls != type_class::integer && (op == UPC_AND || op == UPC_OR || op == UPC_XOR))
    fail(fn, std::string("op ") + detail::op_name(op) + " is a bitwise operation and needs an integer type");
  if ((op == UPC_FUNC || op == UPC_NONCOMM_FUNC) && !func)
    fail(fn, std::string("op ") + detail::op_name(op) + " needs func, got a null pointer");
}

elem_op element_op_of(upc_op_t op) noexcept {
  switch (op) {
    case UPC_ADD: return elem_op::add;
    case UPC_MULT: return elem_op::mult;
    case UPC_AND: return elem_op::bit_and;
    case UPC_OR: return elem_op::bit_or;
    case UPC_XOR: return elem_op::bit_xor;
    case UPC_LOGAND: return elem_op::log_and;
    case UPC_LOGOR: return elem_op::log_or;
    case UPC_MIN: return elem_op::min;
    case UPC_MAX: return elem_op::max;
    default: return elem_op::value_function;  // UPC_FUNC, UPC_NONCOMM_FUNC
  }
}

}  // namespace upc::coll
