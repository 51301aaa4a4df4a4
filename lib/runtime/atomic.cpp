// UPC 1.3 atomics (<upc_atomic.h>): a domain is a small record in the shared
// heap (type, op set, hints, and a spin lock for pointer-to-shared operations);
// each operation is one std::atomic_ref operation, or a compare-and-swap loop for
// MULT, MIN, MAX and floating-point arithmetic, straight on the target's bytes in
// the segment (same address in every process, so both backends share this code).
#include <sched.h>

#include <atomic>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>

#include "call_site.hpp"
#include "dsm.hpp"
#include "host_words.hpp"
#include "hosts.hpp"
#include "remote_ops.hpp"
#include "collective_call.hpp"
#include "control.hpp"
#include "single_valued.hpp"
#include "world_barrier.hpp"
#include "op_names.hpp"
#include "race_check.hpp"
#include "futex.hpp"
#include "upc/detail/static_object.hpp"
#include "upc/sync.hpp"
#include "upc_atomic.h"

struct upc_atomicdomain_t {
  std::uint64_t magic;
  upc_type_t type;
  upc_atomichint_t hints;
  upc_op_t ops;
  upc::shared_address self;  // where it was allocated, for the collective free
  alignas(64) std::atomic<std::uint32_t> pts_lock;  // guards UPC_PTS operations only
};

namespace {

using namespace upc::detail;
using upc::shared_address;

constexpr std::uint64_t domain_magic = 0x41544f4d75706365ULL;  // "ATOMupce"
constexpr std::uint64_t freed_magic = 0x4441454475706365ULL;   // "DAEDupce"

constexpr upc_op_t access_ops = UPC_GET | UPC_SET | UPC_CSWAP;
constexpr upc_op_t numeric_ops = UPC_ADD | UPC_SUB | UPC_MULT | UPC_INC | UPC_DEC | UPC_MIN | UPC_MAX;
constexpr upc_op_t bitwise_ops = UPC_AND | UPC_OR | UPC_XOR;
constexpr upc_op_t all_atomic_ops = access_ops | numeric_ops | bitwise_ops;
constexpr upc_atomichint_t all_hints = UPC_ATOMIC_HINT_LATENCY | UPC_ATOMIC_HINT_THROUGHPUT;

// ---- names for messages ----------------------------------------------------

const char* type_name(upc_type_t t) {
  switch (t) {
    case UPC_CHAR: return "UPC_CHAR";
    case UPC_UCHAR: return "UPC_UCHAR";
    case UPC_SHORT: return "UPC_SHORT";
    case UPC_USHORT: return "UPC_USHORT";
    case UPC_INT: return "UPC_INT";
    case UPC_UINT: return "UPC_UINT";
    case UPC_LONG: return "UPC_LONG";
    case UPC_ULONG: return "UPC_ULONG";
    case UPC_LLONG: return "UPC_LLONG";
    case UPC_ULLONG: return "UPC_ULLONG";
    case UPC_INT8: return "UPC_INT8";
    case UPC_UINT8: return "UPC_UINT8";
    case UPC_INT16: return "UPC_INT16";
    case UPC_UINT16: return "UPC_UINT16";
    case UPC_INT32: return "UPC_INT32";
    case UPC_UINT32: return "UPC_UINT32";
    case UPC_INT64: return "UPC_INT64";
    case UPC_UINT64: return "UPC_UINT64";
    case UPC_FLOAT: return "UPC_FLOAT";
    case UPC_DOUBLE: return "UPC_DOUBLE";
    case UPC_LONG_DOUBLE: return "UPC_LONG_DOUBLE";
    case UPC_PTS: return "UPC_PTS";
    default: return nullptr;
  }
}

std::string type_text(upc_type_t t) {
  const char* n = type_name(t);
  return n ? std::string(n) : "unknown type code " + std::to_string(t);
}


// "UPC_ADD | UPC_GET", unknown bits in hex.
std::string ops_text(upc_op_t ops) {
  if (ops == 0) return "0 (no operation)";
  std::string s;
  for (upc_op_t rest = ops; rest; rest &= rest - 1) {
    const upc_op_t bit = rest & (~rest + 1);
    if (!s.empty()) s += " | ";
    if (const char* n = op_name(bit)) {
      s += n;
    } else {
      char buf[32];
      std::snprintf(buf, sizeof buf, "0x%lx", static_cast<unsigned long>(bit));
      s += buf;
    }
  }
  return s;
}

std::string pointer_text(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}

// ---- the spec's table --------------------------------------------------------

bool is_supported_type(upc_type_t t) {
  switch (t) {
    case UPC_INT: case UPC_UINT: case UPC_LONG: case UPC_ULONG: case UPC_INT32: case UPC_UINT32:
    case UPC_INT64: case UPC_UINT64: case UPC_FLOAT: case UPC_DOUBLE: case UPC_PTS:
      return true;
    default:
      return false;
  }
}

// The operations defined on a supported type.
upc_op_t ops_for_type(upc_type_t t) {
  if (t == UPC_PTS) return access_ops;
  if (t == UPC_FLOAT || t == UPC_DOUBLE) return access_ops | numeric_ops;
  return all_atomic_ops;
}

std::size_t size_of_type(upc_type_t t) {
  switch (t) {
    case UPC_INT: return sizeof(int);
    case UPC_UINT: return sizeof(unsigned);
    case UPC_LONG: return sizeof(long);
    case UPC_ULONG: return sizeof(unsigned long);
    case UPC_INT32: case UPC_UINT32: return 4;
    case UPC_INT64: case UPC_UINT64: return 8;
    case UPC_FLOAT: return sizeof(float);
    case UPC_DOUBLE: return sizeof(double);
    default: return sizeof(upc::sptr<void>);
  }
}

std::size_t align_of_type(upc_type_t t) {
  return t == UPC_PTS ? alignof(shared_address) : size_of_type(t);
}

// Type and op-set checks shared by domain allocation and upc_atomic_isfast.
void validate_type_and_ops(const char* function, upc_type_t type, upc_op_t ops) {
  if (!is_supported_type(type))
    fail(function, "type " + type_text(type) + " (" + std::to_string(type) +
                       ") is not supported by the atomics library; use one of UPC_INT, UPC_UINT, UPC_LONG, "
                       "UPC_ULONG, UPC_INT32, UPC_UINT32, UPC_INT64, UPC_UINT64, UPC_FLOAT, UPC_DOUBLE, UPC_PTS");
  if (ops == 0) fail(function, "ops is 0: name at least one atomic operation");
  if (ops & ~all_atomic_ops)
    fail(function, "ops (" + ops_text(ops) + ") contains " + ops_text(ops & ~all_atomic_ops) +
                       ", which is not an atomic operation (the atomic operations are UPC_GET, UPC_SET, UPC_CSWAP, "
                       "UPC_ADD, UPC_SUB, UPC_MULT, UPC_INC, UPC_DEC, UPC_AND, UPC_OR, UPC_XOR, UPC_MIN, UPC_MAX)");
  const upc_op_t bad = ops & ~ops_for_type(type);
  if (bad)
    fail(function, "ops (" + ops_text(ops) + ") contains " + ops_text(bad) + ", which is not defined for type " +
                       type_text(type) +
                       (type == UPC_PTS ? " (UPC_PTS allows only UPC_GET, UPC_SET and UPC_CSWAP)"
                                        : " (bitwise operations need an integer type)"));
}

void validate_domain(const char* function, const upc_atomicdomain_t* d) {
  if (!d) fail(function, "domain is a null pointer");
  const char* lo = g_partitions;
  const char* hi = g_partitions + static_cast<std::uint64_t>(g_threads) * g_partition_bytes;
  const char* p = reinterpret_cast<const char*>(d);
  if (p < lo || p + sizeof(upc_atomicdomain_t) > hi)
    fail(function, "domain " + pointer_text(d) + " is not in the shared heap (not made by upc_all_atomicdomain_alloc)");
  if (d->magic == freed_magic)
    fail(function, "domain " + pointer_text(d) + " was already freed by upc_all_atomicdomain_free");
  if (d->magic != domain_magic)
    fail(function, "domain " + pointer_text(d) + " is not an atomic domain made by upc_all_atomicdomain_alloc");
}

// ---- the operations ----------------------------------------------------------

// The ops that read operand1 (operand2 is read by UPC_CSWAP only).
bool needs_operand1(upc_op_t op) {
  return op & (UPC_SET | UPC_CSWAP | UPC_ADD | UPC_SUB | UPC_MULT | UPC_MIN | UPC_MAX | bitwise_ops);
}

// Integer arithmetic in the unsigned type, so overflow wraps instead of being UB.
template <class T>
T wrap_mul(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
}

// Replaces *target by f(old) atomically; returns old.
template <class T, class F>
T update(std::atomic_ref<T> target, std::memory_order mo, F f) {
  T old = target.load(std::memory_order_relaxed);
  while (!target.compare_exchange_weak(old, f(old), mo, std::memory_order_relaxed)) {
  }
  return old;
}

// CSWAP with value equality (== on floats: 0.0 matches -0.0, NaN never matches).
template <class T>
T compare_swap(std::atomic_ref<T> target, std::memory_order mo, T expected, T desired) {
  if constexpr (std::is_integral_v<T>) {
    target.compare_exchange_strong(expected, desired, mo, mo == std::memory_order_seq_cst ? mo : std::memory_order_relaxed);
    return expected;  // the old value, whether or not it matched
  } else {
    T old = target.load(mo);
    while (old == expected && !target.compare_exchange_weak(old, desired, mo, std::memory_order_relaxed)) {
    }
    return old;
  }
}

template <class T>
void apply(T* where, upc_op_t op, void* fetch_ptr, const void* operand1, const void* operand2, std::memory_order mo) {
  static_assert(std::atomic_ref<T>::is_always_lock_free);
  std::atomic_ref<T> target(*where);
  T a{}, b{};
  if (needs_operand1(op)) std::memcpy(&a, operand1, sizeof(T));
  if (op == UPC_CSWAP) std::memcpy(&b, operand2, sizeof(T));
  T old{};
  constexpr bool integral = std::is_integral_v<T>;
  switch (op) {
    case UPC_GET: old = target.load(mo); break;
    case UPC_SET:
      if (fetch_ptr) old = target.exchange(a, mo);
      else target.store(a, mo);
      break;
    case UPC_CSWAP: old = compare_swap(target, mo, a, b); break;
    case UPC_ADD:
      if constexpr (integral) old = target.fetch_add(a, mo);
      else old = update(target, mo, [a](T x) { return x + a; });
      break;
    case UPC_SUB:
      if constexpr (integral) old = target.fetch_sub(a, mo);
      else old = update(target, mo, [a](T x) { return x - a; });
      break;
    case UPC_INC:
      if constexpr (integral) old = target.fetch_add(1, mo);
      else old = update(target, mo, [](T x) { return x + T(1); });
      break;
    case UPC_DEC:
      if constexpr (integral) old = target.fetch_sub(1, mo);
      else old = update(target, mo, [](T x) { return x - T(1); });
      break;
    case UPC_MULT:
      if constexpr (integral) old = update(target, mo, [a](T x) { return wrap_mul(x, a); });
      else old = update(target, mo, [a](T x) { return x * a; });
      break;
    case UPC_MIN: {
      // Only a smaller operand changes the target: no write (and no CAS) otherwise.
      old = target.load(mo);
      while (a < old && !target.compare_exchange_weak(old, a, mo, std::memory_order_relaxed)) {
      }
      break;
    }
    case UPC_MAX: {
      old = target.load(mo);
      while (old < a && !target.compare_exchange_weak(old, a, mo, std::memory_order_relaxed)) {
      }
      break;
    }
    case UPC_AND:
      if constexpr (integral) old = target.fetch_and(a, mo);
      break;
    case UPC_OR:
      if constexpr (integral) old = target.fetch_or(a, mo);
      break;
    case UPC_XOR:
      if constexpr (integral) old = target.fetch_xor(a, mo);
      break;
    default: break;  // excluded by validation
  }
  if (fetch_ptr) std::memcpy(fetch_ptr, &old, sizeof(T));
}

// Pointer-to-shared values do not fit a lock-free word here: they are 16 bytes
// and may be only 8-byte aligned. A spin lock in the domain makes the domain's
// operations atomic with respect to each other, which is what the spec promises.
class pts_guard {
 public:
  explicit pts_guard(std::atomic<std::uint32_t>& word) : word_(word) {
    for (unsigned i = 0; word_.exchange(1, std::memory_order_acquire) != 0; ++i) {
      while (word_.load(std::memory_order_relaxed) != 0) {
        if (++i < 64) {
          cpu_relax();
        } else {
          sched_yield();  // the holder may be descheduled (THREADS > cores)
          check_abort();  // or dead: a failed run must not hang here
        }
      }
    }
  }
  ~pts_guard() { word_.store(0, std::memory_order_release); }
  pts_guard(const pts_guard&) = delete;
  pts_guard& operator=(const pts_guard&) = delete;

 private:
  std::atomic<std::uint32_t>& word_;
};

// Pointer-to-shared equality (as sptr's ==): same thread and offset.
void pts_update(char* where, upc_op_t op, void* fetch_ptr, const void* operand1, const void* operand2);

void apply_pts(upc_atomicdomain_t* d, char* where, upc_op_t op, void* fetch_ptr, const void* operand1,
               const void* operand2) {
  // The fetched value goes to a copy first: fetch_ptr may alias an operand.
  shared_address old{};
  {
    pts_guard guard(d->pts_lock);
    pts_update(where, op, &old, operand1, operand2);
  }
  if (fetch_ptr) std::memcpy(fetch_ptr, &old, sizeof old);
}

// The read-modify-write of a UPC_PTS operation at `where`, the domain's lock held.
void pts_update(char* where, upc_op_t op, void* fetch_ptr, const void* operand1, const void* operand2) {
  shared_address old{}, a{}, b{};
  if (needs_operand1(op)) std::memcpy(&a, operand1, sizeof a);
  if (op == UPC_CSWAP) std::memcpy(&b, operand2, sizeof b);
  std::memcpy(&old, where, sizeof old);
  if (op == UPC_SET) std::memcpy(where, &a, sizeof a);
  if (op == UPC_CSWAP && old.thread == a.thread && old.offset == a.offset) std::memcpy(where, &b, sizeof b);
  if (fetch_ptr) std::memcpy(fetch_ptr, &old, sizeof old);
}

// Across hosts, UPC_PTS: the domain's lock word (thread 0's host) is taken
// and given back through its owner when it is on another host, with the same
// CPU atomics that host's threads use on it, so every thread of every host
// excludes every other; the target is then updated where it lives (by its
// owner's server when on another host).
struct pts_args {
  upc_op_t op;
  shared_address a, b;
};
void pts_update_here(void* where, const void* argument, std::size_t, void* reply) {
  pts_args p;
  std::memcpy(&p, argument, sizeof p);
  pts_update(static_cast<char*>(where), p.op, reply, &p.a, &p.b);
}
const int g_pts_update_here = register_remote_function(pts_update_here);

void apply_pts_across_hosts(upc_atomicdomain_t* d, char* where, upc_op_t op, void* fetch_ptr, const void* operand1,
                            const void* operand2) {
  std::atomic<std::uint32_t>& lock = d->pts_lock;
  const bool lock_here = !remote_address(&lock);
  const int lock_owner = lock_here ? -1 : partition_owner(&lock);
  dsm_release();  // an atomic orders like a strict access
  for (int round = 0;; ++round) {
    const std::uint64_t was = lock_here ? lock.exchange(1, std::memory_order_acquire)
                                        : remote_atomic(lock_owner, remote_op::exchange32, &lock, 1);
    if (was == 0) break;
    polite_pause(round);
  }
  if (remote_address(where)) {
    pts_args p{op, {}, {}};
    if (needs_operand1(op)) std::memcpy(&p.a, operand1, sizeof p.a);
    if (op == UPC_CSWAP) std::memcpy(&p.b, operand2, sizeof p.b);
    unsigned char reply[16];
    remote_invoke(partition_owner(where), g_pts_update_here, where, &p, sizeof p, reply);
    if (fetch_ptr) std::memcpy(fetch_ptr, reply, sizeof(shared_address));
  } else {
    pts_update(where, op, fetch_ptr, operand1, operand2);
  }
  if (lock_here) lock.store(0, std::memory_order_release);
  else remote_atomic(lock_owner, remote_op::store32, &lock, 0);
  dsm_acquire();
}

// One operation on a value of `type` at `where` (every type but pointers-to-shared,
// which need the domain's lock).
void apply_typed(upc_atomicdomain_t* d, upc_type_t type, char* where, upc_op_t op, void* fetch_ptr,
                 const void* operand1, const void* operand2, std::memory_order mo) {
  switch (type) {
    case UPC_INT: apply<int>(reinterpret_cast<int*>(where), op, fetch_ptr, operand1, operand2, mo); break;
    case UPC_UINT: apply<unsigned>(reinterpret_cast<unsigned*>(where), op, fetch_ptr, operand1, operand2, mo); break;
    case UPC_LONG: apply<long>(reinterpret_cast<long*>(where), op, fetch_ptr, operand1, operand2, mo); break;
    case UPC_ULONG: apply<unsigned long>(reinterpret_cast<unsigned long*>(where), op, fetch_ptr, operand1, operand2, mo); break;
    case UPC_INT32: apply<std::int32_t>(reinterpret_cast<std::int32_t*>(where), op, fetch_ptr, operand1, operand2, mo); break;
    case UPC_UINT32: apply<std::uint32_t>(reinterpret_cast<std::uint32_t*>(where), op, fetch_ptr, operand1, operand2, mo); break;
    case UPC_INT64: apply<std::int64_t>(reinterpret_cast<std::int64_t*>(where), op, fetch_ptr, operand1, operand2, mo); break;
    case UPC_UINT64: apply<std::uint64_t>(reinterpret_cast<std::uint64_t*>(where), op, fetch_ptr, operand1, operand2, mo); break;
    case UPC_FLOAT: apply<float>(reinterpret_cast<float*>(where), op, fetch_ptr, operand1, operand2, mo); break;
    case UPC_DOUBLE: apply<double>(reinterpret_cast<double*>(where), op, fetch_ptr, operand1, operand2, mo); break;
    default: apply_pts(d, where, op, fetch_ptr, operand1, operand2); break;
  }
}

// Across hosts: the owner's server does the operation on its memory, so that
// it stays atomic against that host's own atomics (remote_ops.hpp).
struct remote_atomic_args {
  upc_type_t type;
  upc_op_t op;
  unsigned char operand1[16], operand2[16];
};
void apply_here(void* where, const void* argument, std::size_t, void* reply) {
  remote_atomic_args a;
  std::memcpy(&a, argument, sizeof a);
  apply_typed(nullptr, a.type, static_cast<char*>(where), a.op, reply, a.operand1, a.operand2, std::memory_order_seq_cst);
}
const int g_apply_here = register_remote_function(apply_here);

void apply_remote(upc_type_t type, char* where, upc_op_t op, void* fetch_ptr, const void* operand1,
                  const void* operand2) {
  remote_atomic_args a{type, op, {}, {}};
  const std::size_t size = size_of_type(type);
  if (needs_operand1(op)) std::memcpy(a.operand1, operand1, size);
  if (op == UPC_CSWAP) std::memcpy(a.operand2, operand2, size);
  unsigned char reply[16];
  dsm_release();  // an atomic orders like a strict access
  remote_invoke(partition_owner(where), g_apply_here, where, &a, sizeof a, reply);
  dsm_acquire();
  if (fetch_ptr) std::memcpy(fetch_ptr, reply, size);
}

void atomic_op(const char* function, upc_atomicdomain_t* d, void* fetch_ptr, upc_op_t op, const upc::sptr<void>& target,
               const void* operand1, const void* operand2, bool strict) {
  require_upc_thread(function);
  validate_domain(function, d);
  if (std::popcount(op) != 1)
    fail(function, "op must be exactly one operation, got " + ops_text(op));
  if (!(op & d->ops)) {
    std::string why = (op & all_atomic_ops) ? "" : ", and is not an atomic operation at all";
    if ((op & all_atomic_ops) && !(op & ops_for_type(d->type))) why = ", and is not defined for type " + type_text(d->type);
    fail(function, "op " + ops_text(op) + " is not in the operation set of this domain (" + ops_text(d->ops) + ")" + why);
  }
  const shared_address& t = target.address();
  if (target.is_null()) fail(function, "target is a null pointer-to-shared");
  const std::size_t size = size_of_type(d->type);
  if (t.thread >= static_cast<std::uint32_t>(g_threads) || t.offset > g_partition_bytes ||
      size > g_partition_bytes - t.offset)
    fail(function, "target (thread " + std::to_string(t.thread) + ", offset " + std::to_string(t.offset) +
                       ") is not inside the shared heap of a thread (THREADS is " + std::to_string(g_threads) + ")");
  char* where = raw_address(t);
  const std::size_t align = align_of_type(d->type);
  if (reinterpret_cast<std::uintptr_t>(where) % align != 0)
    fail(function, "target (thread " + std::to_string(t.thread) + ", offset " + std::to_string(t.offset) +
                       ") is not aligned to " + std::to_string(align) + " bytes, as a " + type_text(d->type) +
                       " must be for atomic access");
  if (op == UPC_GET && !fetch_ptr) fail(function, "fetch_ptr is a null pointer, but UPC_GET needs somewhere to store the value");
  if (needs_operand1(op) && !operand1) fail(function, "operand1 is a null pointer, but " + ops_text(op) + " needs it");
  if (op == UPC_CSWAP && !operand2) fail(function, "operand2 is a null pointer, but UPC_CSWAP needs it (the new value)");

  const std::memory_order mo = strict ? std::memory_order_seq_cst : std::memory_order_relaxed;
  // To the race check an atomic operation is never a data access; a strict one
  // synchronises as a strict read and write of its target do.
  if (strict && g_races) race_check_access(where, size, access_read | access_write | access_strict, access_site{});
  if (strict) std::atomic_thread_fence(std::memory_order_seq_cst);
  if (d->type == UPC_PTS && several_hosts()) {
    apply_pts_across_hosts(d, where, op, fetch_ptr, operand1, operand2);
  } else if (remote_address(where)) {
    apply_remote(d->type, where, op, fetch_ptr, operand1, operand2);
  } else {
    apply_typed(d, d->type, where, op, fetch_ptr, operand1, operand2, mo);
  }
  if (strict) std::atomic_thread_fence(std::memory_order_seq_cst);
}

}  // namespace

upc_atomicdomain_t* upc_all_atomicdomain_alloc(upc_type_t type, upc_op_t ops, upc_atomichint_t hints,
                                               const std::source_location& where) {
  const char* function = "upc_all_atomicdomain_alloc";
  // type, ops and hints are compared below, by name, against thread 0's domain.
  collective_call call(function, where);
  validate_type_and_ops(function, type, ops);
  if (hints & ~all_hints)
    fail(function, "hints (" + std::to_string(hints) +
                       ") is not a combination of UPC_ATOMIC_HINT_DEFAULT, UPC_ATOMIC_HINT_LATENCY and "
                       "UPC_ATOMIC_HINT_THROUGHPUT");
  const std::uint64_t off = collective_symmetric_alloc(sizeof(upc_atomicdomain_t), function);
  const shared_address a{off, 0, 0};
  auto* d = reinterpret_cast<upc_atomicdomain_t*>(raw_address(a));
  if (upc::mythread() == 0) {
    d->type = type;
    d->hints = hints;
    d->ops = ops;
    d->self = a;
    d->pts_lock.store(0, std::memory_order_relaxed);
    d->magic = domain_magic;
  }
  world_barrier(function);
  // The arguments are single-valued: compare with what thread 0 recorded.
  single_valued args(function);
  args.add("argument type", static_cast<std::uint64_t>(type), [](std::uint64_t v) { return type_text(static_cast<upc_type_t>(v)); })
      .add("argument ops", ops, [](std::uint64_t v) { return ops_text(static_cast<upc_op_t>(v)); })
      .add("argument hints", static_cast<std::uint64_t>(hints));
  const std::uint64_t first[] = {static_cast<std::uint64_t>(d->type), d->ops, static_cast<std::uint64_t>(d->hints)};
  if (const int i = args.first_difference(first); i >= 0) args.fail_difference(i, first[i], 0);
  return d;
}

void upc_all_atomicdomain_free(upc_atomicdomain_t* domain, const std::source_location& where) {
  const char* function = "upc_all_atomicdomain_free";
  collective_call call(function, where, {{"domain", static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(domain))}});
  if (!domain) return;
  validate_domain(function, domain);
  const shared_address a = domain->self;
  world_barrier(function);  // nobody still uses it, and nobody has marked it freed yet
  if (upc::mythread() == 0) domain->magic = freed_magic;
  collective_free(a, function);  // barrier, then thread 0 frees
}

void upc_atomic_strict(upc_atomicdomain_t* domain, void* fetch_ptr, upc_op_t op, upc::sptr<void> target,
                       const void* operand1, const void* operand2) {
  atomic_op("upc_atomic_strict", domain, fetch_ptr, op, target, operand1, operand2, true);
}

void upc_atomic_relaxed(upc_atomicdomain_t* domain, void* fetch_ptr, upc_op_t op, upc::sptr<void> target,
                        const void* operand1, const void* operand2) {
  atomic_op("upc_atomic_relaxed", domain, fetch_ptr, op, target, operand1, operand2, false);
}

int upc_atomic_isfast(upc_type_t type, upc_op_t ops, upc::sptr<void> addr) {
  validate_type_and_ops("upc_atomic_isfast", type, ops);
  if (type == UPC_PTS) return 0;  // spin lock in the domain, see apply_pts
  if (addr.is_null()) return 1;
  const shared_address& a = addr.address();
  if (a.thread >= static_cast<std::uint32_t>(g_threads)) return 0;
  return reinterpret_cast<std::uintptr_t>(raw_address(a)) % align_of_type(type) == 0 ? 1 : 0;
}
