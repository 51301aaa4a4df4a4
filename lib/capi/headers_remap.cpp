// The C side of <upc_remap.h> for upcc (tools/upcc/include/upc_remap.h,
// docs/remap.md "From UPC programs"): the remap operator on UPC shared arrays
// given as pointer-to-shared, block size and dimensions. Each array becomes
// the operator's type-erased view of a blocked shared array (what
// upc::remap::shared_view<T> is, with the element size known at run time
// only); a gather from (a scatter into) an array of several dimensions turns
// its k maps into one map of row-major indices first, in a temporary array of
// the walked array's layout, checking every value against its dimension.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "at_c_site.hpp"
#include "upcemu_c.h"
#include "upc.h"
#include "upc/remap.hpp"
#include "upc_types.h"

namespace {

using namespace upc::remap;
using upc::detail::fail;
using upc::sptr;

std::string str(std::uint64_t v) { return std::to_string(v); }

// A blocked shared array of n elements of elem bytes, shared [block] from
// thread 0, phase 0 (block 0: indefinite, all on thread 0).
struct view {
  layout lay;
  sptr<void> storage;
  std::size_t elem;
  versions version;  // collective: every thread makes the views in the same order
  std::uint64_t id;
  std::string name;
  view(const char* fn, std::string what, upcemu_sptr p, std::uint64_t n, std::size_t block, std::size_t elem_size)
      : lay(layout::blocked(n, block == 0 ? n : block, upc::threads())),
        storage(upc::shared_address{p.offset, p.thread, p.phase}),
        elem(elem_size),
        id(next_array_id()),
        name(std::move(what)) {
    if (storage.is_null()) fail(fn, name + " is a null pointer-to-shared");
    if (p.thread != 0 || p.phase != 0)
      fail(fn, name + " starts on thread " + str(p.thread) + " at phase " + str(p.phase) +
                   ": the operator takes arrays from element 0 (thread 0, phase 0)");
  }
  array_ref ref() const { return array_ref{&lay, storage, elem, &version, id, name.c_str(), false}; }
  // The local address of element i (on its owner's thread).
  char* at(std::uint64_t i) const {
    const std::uint64_t b = lay.cyclic_block(), T = static_cast<std::uint64_t>(upc::threads());
    const std::uint64_t owner = (i / b) % T, local = (i / (b * T)) * b + i % b;
    upc::shared_address a = storage.address();
    a.thread = static_cast<std::uint32_t>(owner);
    a.offset += local * elem;
    return upc::detail::raw_address(a);
  }
  int owner(std::uint64_t i) const {
    return static_cast<int>((i / lay.cyclic_block()) % static_cast<std::uint64_t>(upc::threads()));
  }
};

struct shape {
  std::vector<std::size_t> dims;
  std::uint64_t count = 1;
};

shape shape_of(const char* fn, const char* which, int ndims, const size_t* dims) {
  if (ndims < 1 || ndims > max_rank)
    fail(fn, std::string(which) + "_ndims is " + std::to_string(ndims) + ": the operator takes 1 to " +
                 std::to_string(max_rank) + " dimensions");
  if (!dims) fail(fn, std::string(which) + "_dims is a null pointer");
  shape s;
  for (int d = 0; d < ndims; ++d) {
    if (dims[d] == 0) fail(fn, std::string(which) + "_dims[" + std::to_string(d) + "] is 0");
    if (__builtin_mul_overflow(s.count, static_cast<std::uint64_t>(dims[d]), &s.count))
      fail(fn, std::string(which) + "_dims multiply to more elements than memory holds");
    s.dims.push_back(dims[d]);
  }
  return s;
}

void check_common(const char* fn, std::size_t elemsize, std::size_t dst_block, std::size_t src_block,
                  const upcemu_sptr* maps) {
  if (elemsize == 0) fail(fn, "elemsize is 0");
  for (std::size_t b : {dst_block, src_block})
    if (b > UPC_MAX_BLOCK_SIZE) fail(fn, "a block size of " + str(b) + " is larger than UPC_MAX_BLOCK_SIZE");
  if (!maps) fail(fn, "maps is a null pointer");
}

// The maps over the walked array (n elements, block) as one map of row-major
// indices into `other` (its shape): the maps themselves when there is one, a
// temporary array otherwise (freed by the caller, collectively).
struct linear_map {
  std::vector<std::unique_ptr<view>> views;  // the maps as given
  std::unique_ptr<view> combined;            // k > 1: the row-major index array
  sptr<void> temp;
  // The operator's map: an index array on the walked array's layout.
  upc::remap::map as_map() const {
    upc::remap::map m = upc::remap::map::index_of(0);
    m.k = upc::remap::map::kind::array;
    m.array = (combined ? *combined : *views[0]).ref();
    return m;
  }
  ~linear_map() {
    if (std::uncaught_exceptions() == 0 && combined) {
      combined.reset();
      upc_all_free(temp);
    }
  }
};

void make_linear(const char* fn, linear_map& out, const upcemu_sptr* maps, const shape& other, std::uint64_t n,
                 std::size_t block) {
  const std::size_t k = other.dims.size();
  for (std::size_t j = 0; j < k; ++j)
    out.views.push_back(std::make_unique<view>(fn, "map " + std::to_string(j + 1), maps[j], n, block, sizeof(long)));
  if (k == 1) return;
  const std::uint64_t b = block == 0 ? n : block;
  // (The allocation meets the other threads: the maps they wrote are complete.)
  out.temp = upc_all_alloc(static_cast<size_t>((n + b - 1) / b), static_cast<size_t>(b * sizeof(long)));
  const upc::shared_address t = out.temp.address();
  out.combined = std::make_unique<view>(fn, "the maps' row-major indices", upcemu_sptr{t.offset, t.thread, t.phase}, n, block,
                                        sizeof(long));
  const int me = upc::mythread();
  for (std::uint64_t i = 0; i < n; ++i) {
    if (out.combined->owner(i) != me) continue;
    long lin = 0;
    for (std::size_t j = 0; j < k; ++j) {
      long v;
      std::memcpy(&v, out.views[j]->at(i), sizeof v);
      if (v < 0 || static_cast<std::uint64_t>(v) >= other.dims[j])
        fail(fn, "map " + std::to_string(j + 1) + " gives " + std::to_string(v) + " at element " + str(i) +
                     ": outside dimension " + std::to_string(j + 1) + " (0.." + str(other.dims[j] - 1) + ")");
      lin = lin * static_cast<long>(other.dims[j]) + v;
    }
    std::memcpy(out.combined->at(i), &lin, sizeof lin);
  }
}

// ---- a scatter's combining rule from a UPC op and type ----

template <class T>
combine rule(upc_op_t op) {
  switch (op) {
    case UPC_ADD: return plus_for<T>();
    case UPC_MIN: return min_for<T>();
    case UPC_MAX: return max_for<T>();
    case UPC_MULT:
      return {[](void* d, const void* v, const void*) { *static_cast<T*>(d) *= *static_cast<const T*>(v); }, nullptr, false};
    default: break;
  }
  if constexpr (std::is_integral_v<T>) {
    switch (op) {
      case UPC_AND:
        return {[](void* d, const void* v, const void*) { *static_cast<T*>(d) &= *static_cast<const T*>(v); }, nullptr, false};
      case UPC_OR:
        return {[](void* d, const void* v, const void*) { *static_cast<T*>(d) |= *static_cast<const T*>(v); }, nullptr, false};
      case UPC_XOR:
        return {[](void* d, const void* v, const void*) { *static_cast<T*>(d) ^= *static_cast<const T*>(v); }, nullptr, false};
      default: break;
    }
  }
  return combine{nullptr, nullptr, true};  // "none": refused by the caller
}

template <class T>
combine checked_rule(const char* fn, upc_op_t op, std::size_t elemsize, const char* type_name) {
  if (elemsize != sizeof(T))
    fail(fn, "type " + std::string(type_name) + " has " + str(sizeof(T)) + " bytes, but elemsize is " + str(elemsize));
  const combine c = rule<T>(op);
  if (!c.apply)
    fail(fn, "op " + str(op) + " is not one of UPC_ADD, UPC_MULT, UPC_MIN, UPC_MAX" +
                 (std::is_integral_v<T> ? ", UPC_AND, UPC_OR, UPC_XOR" : " (the bitwise ops need an integer type)") +
                 " for " + type_name);
  return c;
}

combine rule_of(const char* fn, upc_op_t op, upc_type_t type, std::size_t elemsize) {
  if (op == 0) return assign;
  switch (type) {
#define UPCEMU_RULE(CODE, T) \
  case CODE: return checked_rule<T>(fn, op, elemsize, #CODE);
    UPCEMU_RULE(UPC_CHAR, signed char)
    UPCEMU_RULE(UPC_UCHAR, unsigned char)
    UPCEMU_RULE(UPC_SHORT, short)
    UPCEMU_RULE(UPC_USHORT, unsigned short)
    UPCEMU_RULE(UPC_INT, int)
    UPCEMU_RULE(UPC_UINT, unsigned int)
    UPCEMU_RULE(UPC_LONG, long)
    UPCEMU_RULE(UPC_ULONG, unsigned long)
    UPCEMU_RULE(UPC_LLONG, long long)
    UPCEMU_RULE(UPC_ULLONG, unsigned long long)
    UPCEMU_RULE(UPC_INT8, std::int8_t)
    UPCEMU_RULE(UPC_UINT8, std::uint8_t)
    UPCEMU_RULE(UPC_INT16, std::int16_t)
    UPCEMU_RULE(UPC_UINT16, std::uint16_t)
    UPCEMU_RULE(UPC_INT32, std::int32_t)
    UPCEMU_RULE(UPC_UINT32, std::uint32_t)
    UPCEMU_RULE(UPC_INT64, std::int64_t)
    UPCEMU_RULE(UPC_UINT64, std::uint64_t)
    UPCEMU_RULE(UPC_FLOAT, float)
    UPCEMU_RULE(UPC_DOUBLE, double)
    UPCEMU_RULE(UPC_LONG_DOUBLE, long double)
#undef UPCEMU_RULE
    default:
      fail(fn, "type " + std::to_string(type) + " is not an arithmetic UPC_* type code of <upc_types.h>");
  }
}

}  // namespace

extern "C" {

void upc_all_remap_gather(upcemu_sptr dst, size_t dst_block, size_t dst_nelems, upcemu_sptr src, size_t src_block,
                          int src_ndims, const size_t* src_dims, const upcemu_sptr* maps, size_t elemsize) {
  upc::capi::at_c_site([&] {  // reports end with "; called at prog.upc:N"
    const char* F = "upc_all_remap_gather";
    check_common(F, elemsize, dst_block, src_block, maps);
    const shape s = shape_of(F, "src", src_ndims, src_dims);
    if (dst_nelems == 0) return;  // nothing to walk (single-valued: every thread returns)
    view D(F, "dst", dst, dst_nelems, dst_block, elemsize);
    view S(F, "src", src, s.count, src_block, elemsize);
    linear_map m;
    make_linear(F, m, maps, s, dst_nelems, dst_block);
    gather(D.ref(), S.ref(), {m.as_map()}, options{}, F);
  });
}

void upc_all_remap_scatter(upcemu_sptr dst, size_t dst_block, int dst_ndims, const size_t* dst_dims, upcemu_sptr src,
                           size_t src_block, size_t src_nelems, const upcemu_sptr* maps, size_t elemsize, upc_op_t op,
                           upc_type_t type) {
  upc::capi::at_c_site([&] {
    const char* F = "upc_all_remap_scatter";
    check_common(F, elemsize, dst_block, src_block, maps);
    const shape d = shape_of(F, "dst", dst_ndims, dst_dims);
    const combine c = rule_of(F, op, type, elemsize);
    if (src_nelems == 0) return;
    view D(F, "dst", dst, d.count, dst_block, elemsize);
    view S(F, "src", src, src_nelems, src_block, elemsize);
    linear_map m;
    make_linear(F, m, maps, d, src_nelems, src_block);
    scatter(D.ref(), {m.as_map()}, S.ref(), c, options{}, F);
  });
}

}  // extern "C"
