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
  const detail::upc_op_row* row = detail::find_op(op);
  if (!row || !row->accepted_by(detail::op_library::upc_collectives)) {
    std::string accepted;
    for (const detail::upc_op_row& r : detail::upc_ops)
      if (r.accepted_by(detail::op_library::upc_collectives)) accepted += (accepted.empty() ? "" : ", ") + std::string(r.name);
    fail(fn, "op " + std::to_string(op) + " is not one of " + accepted);
  }
  if (info(type).cls != type_class::integer && (op == UPC_AND || op == UPC_OR || op == UPC_XOR))
    fail(fn, std::string("op ") + row->name + " is a bitwise operation and needs an integer type");
  if ((op == UPC_FUNC || op == UPC_NONCOMM_FUNC) && !func) fail(fn, std::string("op ") + row->name + " needs func, got a null pointer");
}

namespace {

// The element column of the op table, as the engine's ops (row i of
// detail::upc_ops is row i here: both expand UPCEMU_UPC_OPS).
namespace element_column {
using enum elem_op;
constexpr std::nullopt_t none = std::nullopt;
}  // namespace element_column

constexpr std::optional<elem_op> op_elements[] = {
#define UPCEMU_OP_ELEMENT(bit, element, collectives, upccoll, atomics) element_column::element,
    UPCEMU_UPC_OPS(UPCEMU_OP_ELEMENT)
#undef UPCEMU_OP_ELEMENT
};
static_assert(sizeof op_elements / sizeof op_elements[0] == detail::upc_op_count);

}  // namespace

std::optional<elem_op> element_op_for(upc_op_t op, unsigned library) noexcept {
  const detail::upc_op_row* row = detail::find_op(op);
  if (!row || !row->accepted_by(library)) return std::nullopt;
  return op_elements[row - detail::upc_ops];
}

elem_op element_op_of(upc_op_t op) noexcept {
  return element_op_for(op, detail::op_library::upc_collectives).value_or(elem_op::value_function);
}

}  // namespace upc::coll
