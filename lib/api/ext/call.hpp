// One call of the extended collectives library (seed 003), as the generated
// wrappers fill it in (tools/gen_extended_collectives.py): every parameter of
// every function lands in a field named for what it means, and run() turns
// the call into an engine request. One struct for 643 functions keeps the
// generated code to assignments and the semantics in one place per family.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <source_location>

#include "../../coll/engine.hpp"
#include "upc/layout.hpp"
#include "upc_types.h"

struct team;  // the thesis's team handle (teamutil.h)

namespace upc::ext {

// What a function computes; each family is one row of the family table
// (families.hpp), which names the engine kind it computes.
enum class family : std::uint8_t {
  broadcast, scatter, gather, gather_all, exchange, permute, vector_copy, reduce, allreduce, prefix_reduce
};

// The suffixes of a function's name.
namespace variant {
constexpr unsigned in_place = 1u << 0, rooted = 1u << 1, v = 1u << 2, local = 1u << 3, raw = 1u << 4,
                   privparam = 1u << 5, merge = 1u << 6, team = 1u << 7, allthr = 1u << 8, all = 1u << 9,
                   get = 1u << 10, put = 1u << 11, priv = 1u << 12;
}

// A source or destination: shared (an address) or this thread's private memory.
struct side {
  shared_address shared{};
  char* priv = nullptr;
  bool is_private = false;
  bool present = false;
};
inline side shared_side(const shared_address& a) { return side{a, nullptr, false, true}; }
inline side private_side(void* p) { return side{{}, static_cast<char*>(p), true, true}; }

// An argument array (displacements, counts, perm): shared with block size 1,
// or private to the calling thread; int or size_t elements.
struct arg_array {
  shared_address shared{};
  const void* priv = nullptr;
  const char* name = "";
  std::uint8_t elem_size = 0;
  bool is_signed = false;
  bool is_private = false;
  bool present = false;

  bool null() const noexcept { return is_private ? priv == nullptr : shared == shared_address{}; }
  // Element i (a shared array is read where it is; call after the IN synchronisation).
  long long at(std::size_t i) const noexcept;
};
inline arg_array shared_array(const shared_address& a, std::size_t elem, bool is_signed, const char* name) {
  return arg_array{a, nullptr, name, static_cast<std::uint8_t>(elem), is_signed, false, true};
}
inline arg_array private_array(const void* p, std::size_t elem, bool is_signed, const char* name) {
  return arg_array{{}, p, name, static_cast<std::uint8_t>(elem), is_signed, true, true};
}

struct call {
  call(const char* fn, const std::source_location& w, family f, unsigned v) : function(fn), where(w), fam(f), var(v) {}
  bool is(unsigned v) const noexcept { return (var & v) != 0; }

  const char* function;
  std::source_location where;
  family fam;
  unsigned var;

  side dst, src;
  arg_array ddisp, sdisp, exchange, disp, perm, counts;
  // The scalars a function may take, engaged when it takes them.
  std::optional<long long> ddisp_scalar;  // gather_all_v_privparam: this thread's destination index
  std::optional<std::size_t> count;       // nbytes or nelems
  std::optional<std::size_t> dst_blk, src_blk, typesize;
  std::optional<int> root;
  std::optional<int> nchunks;
  const ::team* thesis_team = nullptr;
  upc_flag_t flags = 0;
  // reductions
  upc_op_t op = 0;
  std::size_t blk_size = 0;
  const void* func = nullptr;
  coll::elem_type type = coll::elem_type::s_int;
  std::size_t type_size = 0;
  bool suffix = false;  // prefix_reduce from the end (xupc_all_suffix_reduceT, seed 001 Figure 6)
  // xupc's _v gathers (seed 001, Figure 9): ddisp[i] is where thread i's piece
  // goes, an offset in the root's area (gather) or in every block (gather_all),
  // not the start of a destination's row as in the thesis's gather_all_v.
  bool ddisp_per_source = false;
};

template <class T>
constexpr coll::elem_type element_type_of() noexcept {
  return coll::element_type_of<T>();
}

// Checks the call, builds the request and runs it (every family).
void run(call& c);

}  // namespace upc::ext
