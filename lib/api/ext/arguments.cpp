// The call's argument arrays and scalars (arguments.hpp). Messages name the
// function, the argument and its value; the runtime adds the thread.
#include "arguments.hpp"

#include <string>

#include "../../coll/engine.hpp"
#include "../../runtime/call_site.hpp"
#include "../../runtime/control.hpp"
#include "../collective_checks.hpp"
#include "upc/error.hpp"
#include "upc/runtime.hpp"
#include "upc/sptr.hpp"
#include "families.hpp"
#include "number_text.hpp"

namespace upc::ext {

using detail::fail;

long long arg_array::at(std::size_t i) const noexcept {
  const void* p;
  if (is_private) {
    p = static_cast<const char*>(priv) + i * elem_size;
  } else {
    p = detail::raw_address(layout::advance(shared, static_cast<std::ptrdiff_t>(i), elem_size, 1, threads()));
  }
  if (elem_size == sizeof(int)) {
    if (is_signed) return static_cast<long long>(*static_cast<const int*>(p));
    return static_cast<long long>(*static_cast<const unsigned*>(p));
  }
  const std::uint64_t v = *static_cast<const std::uint64_t*>(p);
  return is_signed ? static_cast<long long>(v) : static_cast<long long>(v > (std::uint64_t{1} << 62) ? (std::uint64_t{1} << 62) + 1 : v);
}

void check_arg_array(const call& c, const arg_array& a, std::size_t count, bool may_be_null) {
  if (!a.present || count == 0) return;  // nothing to read
  if (a.null()) {
    if (may_be_null) return;
    fail(c.function, std::string(a.name) + " is a null pointer" + (a.is_private ? "" : "-to-shared"));
  }
  if (a.is_private) return;
  coll::check_shared_pointer(c.function, a.name, a.shared);
  // The arrays found good lately, while nothing has been freed (a loop of one
  // call checks its arrays once).
  struct good {
    shared_address at;
    std::size_t count, elem;
    std::uint64_t generation;
    const void* run;
  };
  thread_local good remembered[8];
  thread_local int next = 0;
  const std::uint64_t generation = detail::control().heap_generation.load(std::memory_order_acquire);
  for (const good& g : remembered)
    if (g.at == a.shared && g.count >= count && g.elem == a.elem_size && g.generation == generation && g.run == detail::g_control)
      return;
  for (std::size_t i = 0; i < count; ++i) {
    const shared_address e = layout::advance(a.shared, static_cast<std::ptrdiff_t>(i), a.elem_size, 1, threads());
    coll::area ar{static_cast<int>(e.thread), e.offset, e.offset + a.elem_size, false, a.name, -1};
    if (const coll::area_fault f = coll::check_placement(ar))
      fail(c.function, std::string(a.name) + " has " + str(static_cast<long long>(count)) + " elements to read, but element " +
                           str(static_cast<long long>(i)) + " is outside the shared objects (" + f.message() + ")");
  }
  remembered[next] = good{a.shared, count, a.elem_size, generation, detail::g_control};
  next = (next + 1) % 8;
}

void check_root(const call& c, int members) {
  const int root = c.root.value_or(0);
  if (root < 0 || root >= members) fail(c.function, "root is " + str(root) + ", not a thread of 0.." + str(members - 1));
}

// The in-place broadcast, scatter and gather take their root from buffer's
// thread k and count every thread's block from buffer, wrapping round: the
// blocks of threads 0..k-1 lie one row further on. Pointed at a non-zero
// thread's block of an array of one row (&A[k*N]), they fall past its end;
// the validator would refuse that in its own words, but what the user meant is
// the _rooted form, which takes the array's start and the root apart.
void check_in_place_root_block(const call& c) {
  if (!c.is(variant::in_place) || c.src.is_private || c.root.has_value() || c.is(variant::team) ||
      (c.fam != family::broadcast && c.fam != family::scatter && c.fam != family::gather))
    return;
  const shared_address p = c.src.shared;
  if (p.thread == 0) return;
  const std::uint64_t T = static_cast<std::uint64_t>(threads());
  const std::uint64_t n = c.count.value_or(0);
  const std::uint64_t blk = c.fam == family::broadcast ? n : n * T;  // checked by check_bytes
  std::uint64_t lo, hi;
  if (__builtin_add_overflow(p.offset, blk, &lo) || __builtin_add_overflow(lo, blk, &hi)) return;  // the validator says
  const coll::area_fault f = coll::check_placement(coll::area{0, lo, hi, true, "buffer", -1});
  if (!f) return;
  std::string rooted = c.function;
  const std::size_t at = rooted.find("_in_place");
  if (at != std::string::npos) rooted.insert(at, "_rooted");
  const std::string k = str(p.thread);
  const std::string before = p.thread == 1 ? "thread 0's block is" : "the blocks of threads 0.." + str(p.thread - 1) + " are";
  const std::string site = detail::location_text(detail::file_of(c.where), detail::line_of(c.where));
  fail(c.function, "buffer points to thread " + k + "'s block" + (site.empty() ? "" : " (the call" + site + ")") +
                       ", so thread " + k + " is the root and " + before +
                       " taken from the row after it, which is outside the object (" + f.message() + "); to use thread " +
                       k + "'s block of an array as the root's, pass the array's start (thread 0) and root " + k + " to " +
                       rooted + "(buffer, nbytes, " + k + ", sync_mode)");
}

int single_valued_scalars(const call& c, coll::request::named_value (&out)[8]) {
  int n = 0;
  const bool raw = c.is(variant::raw);
  auto add = [&](bool present, const char* name, std::uint64_t v) {
    if (present && n < 8) out[n++] = coll::request::named_value{name, v};
  };
  auto add_scalar = [&](const auto& scalar, const char* name) {
    add(scalar.has_value(), name, static_cast<std::uint64_t>(scalar.value_or(0)));
  };
  const bool reduction = c.fam == family::reduce || c.fam == family::allreduce || c.fam == family::prefix_reduce;
  const bool elems = reduction || (c.is(variant::v) && !raw);
  add_scalar(c.count, elems ? "argument nelems" : "argument nbytes");
  add_scalar(c.dst_blk, raw ? "argument dst_blk_raw" : "argument dst_blk");
  add_scalar(c.src_blk, raw ? "argument src_blk_raw" : "argument src_blk");
  add_scalar(c.typesize, "argument typesize");
  add(c.root.has_value(), "argument root", static_cast<std::uint64_t>(static_cast<std::int64_t>(c.root.value_or(0))));
  add(c.nchunks.has_value(), "argument nchunks", static_cast<std::uint64_t>(static_cast<std::int64_t>(c.nchunks.value_or(0))));
  add(reduction, "argument op", c.op);
  add(reduction && !c.is(variant::v), "argument blk_size", c.blk_size);
  return n;
}

}  // namespace upc::ext
