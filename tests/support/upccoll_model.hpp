// A sequential reference model of the UPC Collectives 2.0 collectives
// (include/upccoll.h, seed 000 §3.5), written from the paper and the header's
// contract, not from the library.
//
// Buffers: every rank passes its own buffer, read as a contiguous area of
// count × size(type) bytes (counts and displacements in elements of the type
// they go with). The model works on the bytes of those areas, by team rank:
//   send(rank, byte offset, n, out)   the bytes of rank's send buffer before the call
//   before                             the bytes of a rank's receive window before the call
// and gives the bytes of a rank's receive window after the call.
//
// Data movement, as `piece`s (bytes copied from some rank's send buffer into this
// rank's receive buffer; ss = size(sendtype) of the sender, rs = size(recvtype) of
// the receiver, both of the rank that passes them):
//   bcast       every rank r: root.send[0, root.sendcount*ss) -> recv[0, ...)
//   scatter     rank r: root.send[r*root.sendcount*ss, +root.sendcount*ss) -> recv[0, ...)
//   scatterv    rank r: root.send[root.sdispls[r]*ss, +root.sendcnts[r]*ss) -> recv[0, ...)
//   gather      root: t.send[0, t.sendcount*ts) -> recv[t*root.recvcount*rs, ...)
//   gatherv     root: t.send[0, t.sendcount*ts) -> recv[root.rdispls[t]*rs, ...)
//   allgather   rank r: t.send[0, t.sendcount*ts) -> recv[t*r.recvcount*rs, ...)
//   allgatherv  rank r: t.send[0, t.sendcount*ts) -> recv[r.rdispls[t]*rs, ...)
//   alltoall    rank r: t.send[r*t.sendcount*ts, +t.sendcount*ts) -> recv[t*r.recvcount*rs, ...)
//   alltoallv   rank r: t.send[t.sdispls[r]*ts, +t.sendcnts[r]*ts) -> recv[r.rdispls[t]*rs, ...)
// (the byte counts of the two sides agree in a correct call; the sender's count
// is the one the model uses). Bytes of the receive window outside every piece
// keep their value; on ranks that receive nothing (non-roots of gather/v,
// reduce) the whole window keeps its bytes.
//
// In place (call::in_place: UPCCOLL_IN_PLACE, MPI_IN_PLACE's rules): the ranks
// that compute in place are every rank, or only the root for bcast, scatter(v),
// gather(v) and reduce. An in-place rank has no send buffer of its own (the
// bcast and scatter(v) root: no receive buffer); its input is the span
// in_place_input() of its receive window before the call, and send(rank, off,
// ...) reads there, from the span's start:
//   reduce (root), allreduce, scan, scan_inclusive   recv[0, count*size(dt))
//   reduce_scatter  recv[0, sum(recvcounts)*size(dt)); the result then overwrites its start
//   allgather, gather (root)   its own block recv[rank*recvcount*rs, +recvcount*rs)
//   allgatherv, gatherv (root) its own block recv[rdispls[rank]*rs, +recvcnts[rank]*rs)
//   alltoall        recv[0, size*recvcount*rs); block t goes to rank t
//   alltoallv       recv as laid out by recvcnts/rdispls: sendcnts = recvcnts,
//                   sdispls = rdispls (so the counts must be symmetric)
//   bcast, scatter(v) (root)   none: the root's part stays in sendbuf, its
//                   receive window keeps its bytes
// The send-side arguments of an in-place rank (sendcount, sendtype, sendcnts,
// sdispls) are ignored: the receive side's stand for them.
//
// Reductions (dt, op, count): element i of rank t is the dt-sized item at byte
// i*size(dt) of t's send buffer. A "fold over ranks a..b" of element i is the LEFT
// fold in ascending team rank, (((x_a op x_{a+1}) op x_{a+2}) ...), computed in
// the C type of dt, so floating-point results are reproduced bit for bit. A user
// op (upccoll_op_create) is applied as the library does: fn(in = accumulator,
// inout = a copy of the next rank's items, len, dt), the result in inout.
//   reduce          root: fold over 0..size-1 of elements [0, count)
//   allreduce       every rank: the same
//   reduce_scatter  rank r: elements [sum(recvcounts[0..r-1]), +recvcounts[r]) of
//                   the fold over 0..size-1, at recv[0, ...)
//   scan            exclusive: rank l >= 1 gets the fold over 0..l-1; rank 0 keeps its bytes
//   scan_inclusive  rank l gets the fold over 0..l
// A result's padding bytes (long double's 6 on x86, the holes of the pair
// structs) are "don't care" (window::care 0).
//
// The predefined ops (3.1.3) and the types they are defined for:
//   UPC_ADD, UPC_MULT       every type but the pairs (complex included)
//   UPC_AND, UPC_OR, UPC_XOR  the integer types and UPC_BYTE
//   UPC_LOGAND, UPC_LOGOR, UPC_LOGXOR (an extension: (a != 0) != (b != 0)),
//   UPC_MIN, UPC_MAX        the integer types (UPC_BYTE, an unsigned char,
//                           counted among them) and the real floating types
//   UPC_MINLOC, UPC_MAXLOC  the six pair types: as MPI, the min (max) value; on a
//                           tie, the lower index
// Every other (type, op) is an error (UPCCOLL_ERROR_UPC_OP).
#pragma once
#include <algorithm>
#include <cfloat>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "upccoll.h"
#include "../../lib/api/upccoll_types.hpp"  // the one table of types and ops
#include "../../lib/api/upccoll_words.hpp"  // the library's names of the kinds
#include "../../lib/coll/kinds.hpp"         // the one table of collective kinds
#include "../../lib/runtime/op_names.hpp"  // the one table of op names

namespace upccoll_model {

using bytes = std::vector<std::uint8_t>;

// ---------------------------------------------------------------------------
// Collectives

enum class collective {
  barrier, bcast, scatter, scatterv, gather, gatherv, allgather, allgatherv, alltoall, alltoallv,
  reduce, allreduce, reduce_scatter, scan, scan_inclusive
};

constexpr collective all_collectives[] = {
    collective::barrier,   collective::bcast,          collective::scatter,   collective::scatterv,
    collective::gather,    collective::gatherv,        collective::allgather, collective::allgatherv,
    collective::alltoall,  collective::alltoallv,      collective::reduce,    collective::allreduce,
    collective::reduce_scatter, collective::scan,      collective::scan_inclusive};

// The engine's kind of each: traits come from the engine's one table
// (lib/coll/kinds.hpp).
inline upc::coll::collective engine_kind(collective c) {
  using C = upc::coll::collective;
  switch (c) {
    case collective::barrier: return C::barrier;
    case collective::bcast: return C::member_broadcast;
    case collective::scatter: return C::member_scatter;
    case collective::scatterv: return C::member_scatterv;
    case collective::gather: return C::member_gather;
    case collective::gatherv: return C::member_gatherv;
    case collective::allgather: return C::member_gather_all;
    case collective::allgatherv: return C::member_gather_allv;
    case collective::alltoall: return C::member_exchange;
    case collective::alltoallv: return C::member_exchangev;
    case collective::reduce: return C::member_reduce;
    case collective::allreduce: return C::member_allreduce;
    case collective::reduce_scatter: return C::member_reduce_scatter;
    case collective::scan: return C::member_exclusive_scan;
    case collective::scan_inclusive: return C::member_inclusive_scan;
  }
  return C::barrier;
}

// The function's name ("upccoll_bcast", the library's table), and the kind's
// name in the algorithm registry ("ibroadcast": upc::coll::algorithms,
// force_algorithm, UPCEMU_COLL, which also take the function's name).
inline const char* name(collective c) { return upccoll_front::function_name(engine_kind(c)); }
inline const char* registry_name(collective c) { return upc::coll::name_of(engine_kind(c)); }

inline bool is_reduction(collective c) { return upc::coll::is_reduction(engine_kind(c)); }
inline bool is_rooted(collective c) { return upc::coll::is_rooted(engine_kind(c)); }
inline bool is_v(collective c) { return upc::coll::is_vector(engine_kind(c)); }

// ---------------------------------------------------------------------------
// Data types

enum class type_class { byte, signed_int, unsigned_int, real, complex, pair };

struct type_info {
  upccoll_dtype_t dt;
  const char* name;
  std::size_t size;
  type_class cls;
};

template <class T>
struct cplx {
  T re, im;
};

// The 23 types of 3.1.5: names and sizes from the library's one table
// (lib/api/upccoll_types.hpp, over the engine's element types); the class,
// which the model's arithmetic and value generators need, from the C type.
inline const std::vector<type_info>& types() {
  static const std::vector<type_info> v = [] {
    std::vector<type_info> out;
    for (auto* t = upc::coll::upccoll_types::dtypes_begin(); t != upc::coll::upccoll_types::dtypes_end(); ++t) {
      type_class cls;
      switch (upc::coll::info(t->type).cls) {
        case upc::coll::type_class::integer:
          cls = t->value == UPC_BYTE ? type_class::byte
                : (t->type == upc::coll::elem_type::p_char ? std::is_signed_v<char>
                   : t->type == upc::coll::elem_type::s_char || t->type == upc::coll::elem_type::s_short ||
                         t->type == upc::coll::elem_type::s_int || t->type == upc::coll::elem_type::s_long ||
                         t->type == upc::coll::elem_type::s_llong)
                      ? type_class::signed_int
                      : type_class::unsigned_int;
          break;
        case upc::coll::type_class::real: cls = type_class::real; break;
        case upc::coll::type_class::complex: cls = type_class::complex; break;
        default: cls = type_class::pair; break;
      }
      out.push_back({t->value, t->name, t->size, cls});
    }
    return out;
  }();
  return v;
}

inline const type_info* find_type(upccoll_dtype_t dt) {
  for (const type_info& t : types())
    if (t.dt == dt) return &t;
  return nullptr;
}
inline const type_info& type_of(upccoll_dtype_t dt) {
  const type_info* t = find_type(dt);
  if (!t) throw std::invalid_argument("upccoll_model: unknown data type " + std::to_string(dt));
  return *t;
}
inline std::size_t size_of(upccoll_dtype_t dt) { return type_of(dt).size; }
inline const char* type_name(upccoll_dtype_t dt) {
  const type_info* t = find_type(dt);
  return t ? t->name : "(not a type)";
}

// Calls f(T{}) with the C type of dt (complex: cplx<T>; pairs: the header's structs).
template <class F>
decltype(auto) with_type(upccoll_dtype_t dt, F&& f) {
  switch (dt) {
    case UPC_BYTE: return f(static_cast<unsigned char>(0));
    case UPC_CHAR: return f(char{});
    case UPC_UCHAR: return f(static_cast<unsigned char>(0));
    case UPC_SHORT: return f(short{});
    case UPC_USHORT: return f(static_cast<unsigned short>(0));
    case UPC_INT: return f(int{});
    case UPC_UINT: return f(unsigned{});
    case UPC_LONG: return f(long{});
    case UPC_ULONG: return f(static_cast<unsigned long>(0));
    case UPC_LONGLONG: return f(static_cast<long long>(0));
    case UPC_ULONGLONG: return f(static_cast<unsigned long long>(0));
    case UPC_FLOAT: return f(float{});
    case UPC_DOUBLE: return f(double{});
    case UPC_LONGDOUBLE: return f(static_cast<long double>(0));
    case UPC_CPLX: return f(cplx<float>{});
    case UPC_DBLCPLX: return f(cplx<double>{});
    case UPC_LONGDBLCPLX: return f(cplx<long double>{});
    case UPC_FLOAT_INT: return f(upccoll_float_int_t{});
    case UPC_DOUBLE_INT: return f(upccoll_double_int_t{});
    case UPC_LONG_INT: return f(upccoll_long_int_t{});
    case UPC_2INT: return f(upccoll_2int_t{});
    case UPC_SHORT_INT: return f(upccoll_short_int_t{});
    case UPC_LONG_DOUBLE_INT: return f(upccoll_long_double_int_t{});
    default: break;
  }
  throw std::invalid_argument("upccoll_model: unknown data type " + std::to_string(dt));
}

template <class T>
struct is_cplx : std::false_type {};
template <class T>
struct is_cplx<cplx<T>> : std::true_type {};
template <class T>
constexpr bool is_pair_v = std::is_same_v<T, upccoll_float_int_t> || std::is_same_v<T, upccoll_double_int_t> ||
                           std::is_same_v<T, upccoll_long_int_t> || std::is_same_v<T, upccoll_2int_t> ||
                           std::is_same_v<T, upccoll_short_int_t> || std::is_same_v<T, upccoll_long_double_int_t>;

// Bytes of a scalar that carry its value (x86 long double: 10 of 16).
template <class T>
constexpr std::size_t value_bytes() {
  if constexpr (std::is_same_v<T, long double> && LDBL_MANT_DIG == 64) return 10;
  return sizeof(T);
}

// Which bytes of one item of dt carry its value (the rest is padding).
inline std::vector<std::uint8_t> value_mask(upccoll_dtype_t dt) {
  return with_type(dt, [](auto x) {
    using T = decltype(x);
    std::vector<std::uint8_t> m(sizeof(T), 0);
    if constexpr (is_cplx<T>::value) {
      using R = decltype(x.re);
      std::fill(m.begin(), m.begin() + value_bytes<R>(), 1);
      std::fill(m.begin() + sizeof(R), m.begin() + sizeof(R) + value_bytes<R>(), 1);
    } else if constexpr (is_pair_v<T>) {
      using V = decltype(x.value);
      std::fill(m.begin() + offsetof(T, value), m.begin() + offsetof(T, value) + value_bytes<V>(), 1);
      std::fill(m.begin() + offsetof(T, index), m.begin() + offsetof(T, index) + sizeof(int), 1);
    } else {
      std::fill(m.begin(), m.begin() + value_bytes<T>(), 1);
    }
    return m;
  });
}

// ---------------------------------------------------------------------------
// Operations

// The paper's eleven and the extension UPC_LOGXOR (MPI_LXOR).
constexpr upccoll_op_t predefined_ops[] = {UPC_ADD,    UPC_MULT,  UPC_AND, UPC_OR,  UPC_XOR,    UPC_LOGAND,
                                           UPC_LOGOR,  UPC_LOGXOR, UPC_MIN, UPC_MAX, UPC_MINLOC, UPC_MAXLOC};

inline const char* op_name(upccoll_op_t op) {
  if (op == UPC_LOGXOR) return "UPC_LOGXOR";
  if (const char* name = upc::detail::op_name(op)) return name;
  return op >= UPCCOLL_USER_OP_BASE ? "(user op)" : "(not an op)";
}

// Whether the predefined op is defined for dt: the engine's one table decides
// (the header's table above says the same).
inline bool op_valid(upccoll_dtype_t dt, upccoll_op_t op) {
  const auto* t = upc::coll::upccoll_types::find_dtype(dt);
  return t && upc::coll::upccoll_types::predefined_op(op, *t).valid();
}

// The integer arithmetic of the fold, without the undefined behaviour of signed
// overflow or of unsigned short promoted to int: in 64-bit unsigned arithmetic,
// converted back to T (modular, as every two's-complement machine does it).
template <class T>
T wrap_add(T a, T b) {
  return static_cast<T>(static_cast<std::uint64_t>(static_cast<std::int64_t>(a)) +
                        static_cast<std::uint64_t>(static_cast<std::int64_t>(b)));
}
template <class T>
T wrap_mul(T a, T b) {
  return static_cast<T>(static_cast<std::uint64_t>(static_cast<std::int64_t>(a)) *
                        static_cast<std::uint64_t>(static_cast<std::int64_t>(b)));
}

// a op b for one item (a: the lower ranks' accumulated value).
template <class T>
T combine(upccoll_op_t op, const T& a, const T& b) {
  if constexpr (is_pair_v<T>) {
    if (op == UPC_MINLOC || op == UPC_MAXLOC) {
      const bool a_wins = op == UPC_MINLOC ? a.value < b.value : a.value > b.value;
      const bool b_wins = op == UPC_MINLOC ? b.value < a.value : b.value > a.value;
      if (a_wins) return a;
      if (b_wins) return b;
      T r = a;
      r.index = std::min(a.index, b.index);
      return r;
    }
  } else if constexpr (is_cplx<T>::value) {
    if (op == UPC_ADD) return T{a.re + b.re, a.im + b.im};
    if (op == UPC_MULT) return T{a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  } else if constexpr (std::is_integral_v<T>) {
    switch (op) {
      case UPC_ADD: return wrap_add(a, b);
      case UPC_MULT: return wrap_mul(a, b);
      case UPC_AND: return static_cast<T>(a & b);
      case UPC_OR: return static_cast<T>(a | b);
      case UPC_XOR: return static_cast<T>(a ^ b);
      case UPC_LOGAND: return static_cast<T>(a && b);
      case UPC_LOGOR: return static_cast<T>(a || b);
      case UPC_LOGXOR: return static_cast<T>((a != 0) != (b != 0));
      case UPC_MIN: return a < b ? a : b;
      case UPC_MAX: return a > b ? a : b;
      default: break;
    }
  } else {  // real floating
    switch (op) {
      case UPC_ADD: return static_cast<T>(a + b);
      case UPC_MULT: return static_cast<T>(a * b);
      case UPC_LOGAND: return static_cast<T>(a != 0 && b != 0);
      case UPC_LOGOR: return static_cast<T>(a != 0 || b != 0);
      case UPC_LOGXOR: return static_cast<T>((a != 0) != (b != 0));
      case UPC_MIN: return a < b ? a : b;
      case UPC_MAX: return a > b ? a : b;
      default: break;
    }
  }
  throw std::invalid_argument(std::string("upccoll_model: ") + op_name(op) + " is not defined for this type");
}

// A reduction's operation: a predefined op, or a user function (fn != nullptr).
struct reduction {
  upccoll_dtype_t dt = UPC_INT;
  upccoll_op_t op = UPC_ADD;
  upccoll_user_fun* fn = nullptr;
};

// acc[i] = acc[i] op x[i] for n items (acc and x: n items of dt each).
inline void combine_items(const reduction& r, bytes& acc, bytes& x, std::size_t n) {
  if (r.fn) {  // the library's call: fn(in = accumulator, inout = copy of x), result in inout
    if (n > 0) r.fn(acc.data(), x.data(), n, r.dt);
    acc.swap(x);
    return;
  }
  with_type(r.dt, [&](auto tag) {
    using T = decltype(tag);
    for (std::size_t i = 0; i < n; ++i) {
      T a, b;
      std::memcpy(static_cast<void*>(&a), acc.data() + i * sizeof(T), sizeof(T));
      std::memcpy(static_cast<void*>(&b), x.data() + i * sizeof(T), sizeof(T));
      const T c = combine<T>(r.op, a, b);
      std::memcpy(acc.data() + i * sizeof(T), static_cast<const void*>(&c), sizeof(T));
    }
    return 0;
  });
}

// Reads n bytes at byte `offset` of `rank`'s send buffer.
using send_source = std::function<void(int rank, std::size_t offset, std::size_t n, std::uint8_t* out)>;

// The left fold over ranks first..last (ascending) of items [e0, e0+n).
inline bytes fold(const reduction& r, const send_source& send, int first, int last, std::size_t e0, std::size_t n) {
  const std::size_t E = size_of(r.dt);
  bytes acc(n * E), x(n * E);
  if (n == 0) return acc;
  send(first, e0 * E, n * E, acc.data());
  for (int t = first + 1; t <= last; ++t) {
    x.resize(n * E);
    send(t, e0 * E, n * E, x.data());
    combine_items(r, acc, x, n);
  }
  return acc;
}

// ---------------------------------------------------------------------------
// Calls

// One rank's arguments (counts and displacements in elements of their type).
struct rank_args {
  std::size_t sendcount = 0, recvcount = 0;  // sendcnt/recvcnt (v variants: the scalar one)
  upccoll_dtype_t sendtype = UPC_BYTE, recvtype = UPC_BYTE;
  std::vector<std::size_t> sendcnts, sdispls, recvcnts, rdispls;
};

struct call {
  collective kind = collective::barrier;
  int size = 1;  // team size
  int root = 0;
  bool in_place = false;  // UPCCOLL_IN_PLACE where the collective takes it
  std::vector<rank_args> ranks;  // data movement, by team rank
  // reductions
  reduction red;
  std::size_t count = 0;                 // reduce, allreduce, scan
  std::vector<std::size_t> recvcounts;   // reduce_scatter (the same on every rank)
};

// What a rank's receive buffer gets from one send buffer.
struct piece {
  std::size_t dst;  // byte offset in the receiver's recvbuf
  int src_rank;
  std::size_t src;  // byte offset in the sender's sendbuf
  std::size_t bytes;
};

// Whether `rank` computes in place in c.
inline bool in_place_rank(const call& c, int rank) {
  if (!c.in_place || c.kind == collective::barrier) return false;
  return is_rooted(c.kind) ? rank == c.root : true;
}

// The pieces of data movement that land in `rank`'s receive buffer.
inline std::vector<piece> pieces(const call& c, int rank) {
  std::vector<piece> v;
  const int n = c.size;
  auto rs = [&](int t) { return size_of(c.ranks.at(t).recvtype); };
  // The send side of rank t; an in-place rank's comes from its receive side.
  auto ss = [&](int t) { return in_place_rank(c, t) ? rs(t) : size_of(c.ranks.at(t).sendtype); };
  auto sendcount = [&](int t) {
    const rank_args& a = c.ranks.at(t);
    if (!in_place_rank(c, t)) return a.sendcount;
    return is_v(c.kind) ? a.recvcnts.at(t) : a.recvcount;
  };
  auto sendcnts = [&](int t, int to) {
    const rank_args& a = c.ranks.at(t);
    return in_place_rank(c, t) ? a.recvcnts.at(to) : a.sendcnts.at(to);
  };
  auto sdispls = [&](int t, int to) {
    const rank_args& a = c.ranks.at(t);
    return in_place_rank(c, t) ? a.rdispls.at(to) : a.sdispls.at(to);
  };
  const rank_args* me = c.kind == collective::barrier || is_reduction(c.kind) ? nullptr : &c.ranks.at(rank);
  const bool root_keeps = (c.kind == collective::bcast || c.kind == collective::scatter ||
                           c.kind == collective::scatterv) && in_place_rank(c, rank);  // its part stays in sendbuf
  switch (root_keeps ? collective::barrier : c.kind) {
    case collective::bcast: {
      const rank_args& root = c.ranks.at(c.root);
      v.push_back({0, c.root, 0, root.sendcount * size_of(root.sendtype)});
      break;
    }
    case collective::scatter: {
      const rank_args& root = c.ranks.at(c.root);
      const std::size_t b = root.sendcount * size_of(root.sendtype);
      v.push_back({0, c.root, static_cast<std::size_t>(rank) * b, b});
      break;
    }
    case collective::scatterv: {
      const rank_args& root = c.ranks.at(c.root);
      v.push_back({0, c.root, root.sdispls.at(rank) * size_of(root.sendtype),
                   root.sendcnts.at(rank) * size_of(root.sendtype)});
      break;
    }
    case collective::gather:
      if (rank == c.root)
        for (int t = 0; t < n; ++t) v.push_back({t * me->recvcount * rs(rank), t, 0, sendcount(t) * ss(t)});
      break;
    case collective::gatherv:
      if (rank == c.root)
        for (int t = 0; t < n; ++t) v.push_back({me->rdispls.at(t) * rs(rank), t, 0, sendcount(t) * ss(t)});
      break;
    case collective::allgather:
      for (int t = 0; t < n; ++t) v.push_back({t * me->recvcount * rs(rank), t, 0, sendcount(t) * ss(t)});
      break;
    case collective::allgatherv:
      for (int t = 0; t < n; ++t) v.push_back({me->rdispls.at(t) * rs(rank), t, 0, sendcount(t) * ss(t)});
      break;
    case collective::alltoall:
      for (int t = 0; t < n; ++t) {
        const std::size_t b = sendcount(t) * ss(t);
        v.push_back({t * me->recvcount * rs(rank), t, static_cast<std::size_t>(rank) * b, b});
      }
      break;
    case collective::alltoallv:
      for (int t = 0; t < n; ++t)
        v.push_back({me->rdispls.at(t) * rs(rank), t, sdispls(t, rank) * ss(t), sendcnts(t, rank) * ss(t)});
      break;
    default: break;
  }
  return v;
}

// Where an in-place rank's input sits in its receive buffer: (byte offset,
// bytes); {0, 0} for a rank that is not in place, or a bcast / scatter(v) root.
struct span {
  std::size_t at = 0, n = 0;
};
inline std::size_t total_count(const call& c) {
  std::size_t n = 0;
  for (std::size_t k : c.recvcounts) n += k;
  return n;
}
inline span in_place_input(const call& c, int rank) {
  if (!in_place_rank(c, rank)) return {};
  if (is_reduction(c.kind))
    return {0, (c.kind == collective::reduce_scatter ? total_count(c) : c.count) * size_of(c.red.dt)};
  const rank_args& a = c.ranks.at(rank);
  const std::size_t rs = size_of(a.recvtype);
  switch (c.kind) {
    case collective::allgather:
    case collective::gather: return {static_cast<std::size_t>(rank) * a.recvcount * rs, a.recvcount * rs};
    case collective::allgatherv:
    case collective::gatherv: return {a.rdispls.at(rank) * rs, a.recvcnts.at(rank) * rs};
    case collective::alltoall: return {0, static_cast<std::size_t>(c.size) * a.recvcount * rs};
    case collective::alltoallv: {
      std::size_t e = 0;
      for (int t = 0; t < c.size; ++t)
        if (a.recvcnts.at(t)) e = std::max(e, (a.rdispls.at(t) + a.recvcnts.at(t)) * rs);
      return {0, e};
    }
    default: return {};
  }
}

// A rank's receive window after the call, and which bytes of it must match.
struct window {
  bytes data;
  std::vector<std::uint8_t> care;
};

// The reduction result `rank` gets: (byte offset in recvbuf, items), or nothing.
struct result_span {
  bool any = false;
  int first = 0, last = 0;     // ranks folded
  std::size_t e0 = 0, n = 0;   // items of the fold
};
inline result_span reduction_span(const call& c, int rank) {
  result_span s;
  switch (c.kind) {
    case collective::reduce:
      if (rank != c.root) return s;
      s = {true, 0, c.size - 1, 0, c.count};
      break;
    case collective::allreduce: s = {true, 0, c.size - 1, 0, c.count}; break;
    case collective::reduce_scatter: {
      std::size_t e0 = 0;
      for (int t = 0; t < rank; ++t) e0 += c.recvcounts.at(t);
      s = {true, 0, c.size - 1, e0, c.recvcounts.at(rank)};
      break;
    }
    case collective::scan:
      if (rank == 0) return s;
      s = {true, 0, rank - 1, 0, c.count};
      break;
    case collective::scan_inclusive: s = {true, 0, rank, 0, c.count}; break;
    default: break;
  }
  return s;
}

// `before`: rank's receive window (from its recvbuf) before the call.
inline window expected_recv(const call& c, int rank, const bytes& before, const send_source& send) {
  window w{before, std::vector<std::uint8_t>(before.size(), 1)};
  auto room = [&](std::size_t at, std::size_t n) {
    if (at + n > w.data.size())
      throw std::invalid_argument("upccoll_model: the receive window of rank " + std::to_string(rank) +
                                  " is too small (" + std::to_string(w.data.size()) + " bytes, the call writes up to " +
                                  std::to_string(at + n) + ")");
  };
  if (is_reduction(c.kind)) {
    const result_span s = reduction_span(c, rank);
    if (!s.any || s.n == 0) return w;
    const std::size_t E = size_of(c.red.dt);
    room(0, s.n * E);
    const bytes r = fold(c.red, send, s.first, s.last, s.e0, s.n);
    const std::vector<std::uint8_t> mask = value_mask(c.red.dt);
    for (std::size_t i = 0; i < s.n * E; ++i) {
      w.data[i] = r[i];
      w.care[i] = mask[i % E];
    }
    return w;
  }
  for (const piece& p : pieces(c, rank)) {
    if (p.bytes == 0) continue;
    room(p.dst, p.bytes);
    send(p.src_rank, p.src, p.bytes, w.data.data() + p.dst);
  }
  return w;
}

// Every rank's window at once, from every rank's send buffer and receive window
// (an in-place rank's input: its receive window at in_place_input; its entry
// of `sends` is not read).
inline std::vector<window> expected_all(const call& c, const std::vector<bytes>& sends, const std::vector<bytes>& befores) {
  const send_source send = [&](int t, std::size_t off, std::size_t n, std::uint8_t* out) {
    const bool inside = in_place_rank(c, t) && c.kind != collective::bcast && c.kind != collective::scatter &&
                        c.kind != collective::scatterv;  // those roots send from their send buffer
    const bytes& s = inside ? befores.at(t) : sends.at(t);
    const span in = in_place_input(c, t);
    if (inside && off + n > in.n)
      throw std::invalid_argument("upccoll_model: the call reads past the in-place input of rank " + std::to_string(t));
    if (inside) off += in.at;
    if (off + n > s.size())
      throw std::invalid_argument("upccoll_model: the call reads past the send buffer of rank " + std::to_string(t));
    std::memcpy(out, s.data() + off, n);
  };
  std::vector<window> out;
  for (int r = 0; r < c.size; ++r) out.push_back(expected_recv(c, r, befores.at(r), send));
  return out;
}

// Bytes of `rank`'s send and receive buffers a correct call touches (the extents
// a test must allocate, before guards). An in-place rank has no send buffer,
// but for bcast and scatter(v), whose root keeps its send buffer.
inline std::size_t send_extent(const call& c, int rank) {
  if (c.kind == collective::barrier) return 0;
  if (in_place_rank(c, rank) && c.kind != collective::bcast && c.kind != collective::scatter &&
      c.kind != collective::scatterv)
    return 0;
  if (is_reduction(c.kind)) {
    std::size_t n = c.count;
    if (c.kind == collective::reduce_scatter) {
      n = 0;
      for (std::size_t k : c.recvcounts) n += k;
    }
    return n * size_of(c.red.dt);
  }
  const rank_args& a = c.ranks.at(rank);
  const bool is_root = rank == c.root;
  switch (c.kind) {
    case collective::bcast: return is_root ? a.sendcount * size_of(a.sendtype) : 0;
    case collective::scatter: return is_root ? c.size * a.sendcount * size_of(a.sendtype) : 0;
    case collective::scatterv: {
      if (!is_root) return 0;
      std::size_t e = 0;
      for (int t = 0; t < c.size; ++t) e = std::max(e, a.sdispls.at(t) + a.sendcnts.at(t));
      return e * size_of(a.sendtype);
    }
    case collective::alltoall: return c.size * a.sendcount * size_of(a.sendtype);
    case collective::alltoallv: {
      std::size_t e = 0;
      for (int t = 0; t < c.size; ++t) e = std::max(e, a.sdispls.at(t) + a.sendcnts.at(t));
      return e * size_of(a.sendtype);
    }
    default: return a.sendcount * size_of(a.sendtype);  // gather(v), allgather(v)
  }
}

inline std::size_t recv_extent(const call& c, int rank) {
  if (c.kind == collective::barrier) return 0;
  const span in = in_place_input(c, rank);
  std::size_t e = in.at + in.n;  // in place: the input is there too
  if (is_reduction(c.kind)) {
    const result_span s = reduction_span(c, rank);
    if (c.kind == collective::scan && rank == 0) return c.count * size_of(c.red.dt);  // passed, left as it was
    return std::max(e, s.any ? s.n * size_of(c.red.dt) : 0);
  }
  for (const piece& p : pieces(c, rank)) e = std::max(e, p.dst + p.bytes);
  return e;
}

}  // namespace upccoll_model
