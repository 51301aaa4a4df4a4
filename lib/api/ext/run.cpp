// upc::ext::run: the checks every extended collective gets (sync flags,
// pointers, sizes, roots, argument arrays), who takes part (the world or a
// thesis team), and the hand-over to the family's builder. Messages name the
// function, the argument and its value; the runtime adds the thread.
#include <optional>
#include <string>

#include "../../coll/validate.hpp"
#include "../../runtime/call_site.hpp"
#include "../../runtime/collective_call.hpp"
#include "../../runtime/control.hpp"
#include "../collective_checks.hpp"
#include "call.hpp"
#include "families.hpp"
#include "thesis_team.hpp"
#include "upc/error.hpp"
#include "upc/runtime.hpp"
#include "upc/sptr.hpp"

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

const char* family_name(family f) noexcept {
  switch (f) {
    case family::broadcast: return "broadcast";
    case family::scatter: return "scatter";
    case family::gather: return "gather";
    case family::gather_all: return "gather_all";
    case family::exchange: return "exchange";
    case family::permute: return "permute";
    case family::vector_copy: return "vector_copy";
    case family::reduce: return "reduce";
    case family::allreduce: return "allreduce";
    case family::prefix_reduce: return "prefix_reduce";
  }
  return "?";
}

namespace {

std::string str(long long v) { return std::to_string(v); }

bool computational(family f) { return f == family::reduce || f == family::allreduce || f == family::prefix_reduce; }

void check_side(const call& c, const side& s, const char* name) {
  if (!s.present) return;
  // A private end matters only on the threads whose bytes move (a scatter's
  // source on its root); it is checked there, once the chunks are known.
  if (s.is_private) return;
  if (s.shared == shared_address{}) fail(c.function, std::string(name) + " is a null pointer-to-shared");
  if (s.shared.thread >= static_cast<std::uint32_t>(threads()))
    fail(c.function, std::string(name) + " names thread " + str(s.shared.thread) + ", but THREADS is " + str(threads()));
}

}  // namespace

// Every element of a shared argument array inside the heap and one object; a
// private one non-null.
void check_arg_array(const call& c, const arg_array& a, std::size_t count, bool may_be_null) {
  if (!a.present || count == 0) return;  // nothing to read
  if (a.null()) {
    if (may_be_null) return;
    fail(c.function, std::string(a.name) + " is a null pointer" + (a.is_private ? "" : "-to-shared"));
  }
  if (a.is_private || count == 0) return;
  if (a.shared.thread >= static_cast<std::uint32_t>(threads()))
    fail(c.function, std::string(a.name) + " names thread " + str(a.shared.thread) + ", but THREADS is " + str(threads()));
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

namespace {

void check_bytes(const call& c, std::uint64_t n, std::uint64_t per_thread, const char* what) {
  const std::uint64_t P = detail::g_partition_bytes;
  if (n == 0) fail(c.function, std::string(what) + " must be > 0");
  std::uint64_t total;
  if (__builtin_mul_overflow(n, per_thread, &total) || total > P)
    fail(c.function, std::string(what) + " " + str(static_cast<long long>(n)) +
                         (n > (std::uint64_t{1} << 62) ? " (a negative value converted to size_t?)" : "") +
                         (per_thread > 1 ? " x " + str(static_cast<long long>(per_thread)) : std::string()) +
                         " bytes is more than a thread's whole shared heap (" + str(static_cast<long long>(P)) + " bytes)");
}

// The in-place broadcast, scatter and gather take their root from buffer's
// thread k and count every thread's block from buffer, wrapping round: the
// blocks of threads 0..k-1 lie one row further on. Pointed at a non-zero
// thread's block of an array of one row (&A[k*N]), they fall past its end;
// the validator would refuse that in its own words, but what the user meant is
// the _rooted form, which takes the array's start and the root apart.
void check_in_place_root_block(const call& c) {
  if (!c.is(variant::in_place) || c.src.is_private || c.has_root || c.is(variant::team) ||
      (c.fam != family::broadcast && c.fam != family::scatter && c.fam != family::gather))
    return;
  const shared_address p = c.src.shared;
  if (p.thread == 0) return;
  const std::uint64_t T = static_cast<std::uint64_t>(threads());
  const std::uint64_t blk = c.fam == family::broadcast ? c.count : c.count * T;  // checked by check_bytes
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

// The root's rank of the fixed-size rooted forms.
int fixed_root(const call& c, const members_view& m) {
  const int P = static_cast<int>(m.threads.size());
  auto rank_of_thread = [&](int thread, const char* arg) {
    for (int r = 0; r < P; ++r)
      if (m.threads[static_cast<std::size_t>(r)] == thread) return r;
    fail(c.function, std::string(arg) + " has affinity to thread " + str(thread) + ", which is not a member of the team");
  };
  if (c.has_root) {
    if (c.root < 0 || c.root >= P)
      fail(c.function, "root is " + str(c.root) + ", not a thread of 0.." + str(P - 1));
    return c.root;
  }
  if (c.is(variant::in_place)) return c.src.is_private ? 0 : rank_of_thread(static_cast<int>(c.src.shared.thread), "buffer");
  const side& s = c.fam == family::gather ? c.dst : c.src;
  if (c.fam == family::broadcast || c.fam == family::scatter || c.fam == family::gather)
    return s.is_private ? 0 : rank_of_thread(static_cast<int>(s.shared.thread), c.fam == family::gather ? "dst" : "src");
  return 0;
}

void check_movement(const call& c, const members_view& m) {
  const bool in_place = c.is(variant::in_place);
  const std::uint64_t T = m.threads.size();
  check_side(c, c.dst, in_place ? "buffer" : "dst");
  if (!in_place) check_side(c, c.src, "src");
  if (c.is(variant::v) || c.fam == family::vector_copy) {
    const bool raw = c.is(variant::raw);
    if (!raw && c.has_typesize && c.typesize == 0) fail(c.function, "typesize must be > 0");
    if (c.has_root && (c.root < 0 || c.root >= static_cast<int>(T)))
      fail(c.function, "root is " + str(c.root) + ", not a thread of 0.." + str(static_cast<long long>(T) - 1));
    const std::size_t per_thread = static_cast<std::size_t>(T);
    switch (c.fam) {
      case family::broadcast: check_arg_array(c, c.ddisp, per_thread); break;
      case family::scatter: check_arg_array(c, c.ddisp, per_thread); check_arg_array(c, c.counts, per_thread); break;
      case family::gather:
        check_arg_array(c, c.sdisp, per_thread);
        check_arg_array(c, c.counts, per_thread);
        if (c.ddisp_per_source) check_arg_array(c, c.ddisp, per_thread);
        break;
      case family::gather_all:
        check_arg_array(c, c.ddisp, per_thread);
        check_arg_array(c, c.sdisp, per_thread);
        check_arg_array(c, c.counts, per_thread);
        break;
      case family::exchange:
        check_arg_array(c, c.exchange, per_thread * per_thread);
        check_arg_array(c, c.counts, per_thread * per_thread);
        check_arg_array(c, c.disp, per_thread, true);
        break;
      case family::permute:
        check_arg_array(c, c.perm, per_thread);
        check_arg_array(c, c.disp, per_thread);
        check_arg_array(c, c.counts, per_thread);
        break;
      case family::vector_copy:
        if (c.nchunks < 0) fail(c.function, "nchunks is " + str(c.nchunks) + ", negative");
        check_arg_array(c, c.sdisp, static_cast<std::size_t>(c.nchunks));
        check_arg_array(c, c.ddisp, static_cast<std::size_t>(c.nchunks));
        check_arg_array(c, c.counts, static_cast<std::size_t>(c.nchunks));
        break;
      default: break;
    }
    return;
  }
  // fixed-size forms
  const bool row = c.fam != family::broadcast && c.fam != family::permute;
  check_bytes(c, c.count, row ? T : 1, "nbytes");
  if (in_place && !c.src.is_private && !c.has_root &&
      (c.fam == family::gather_all || c.fam == family::exchange || c.fam == family::permute) && c.src.shared.thread != 0)
    fail(c.function, "buffer has affinity to thread " + str(c.src.shared.thread) + "; it must point to thread 0's block");
  check_in_place_root_block(c);
  if (in_place && !c.src.is_private && c.has_root && c.src.shared.thread != 0)
    fail(c.function, "buffer has affinity to thread " + str(c.src.shared.thread) +
                         "; the rooted forms take the array's start (thread 0) and the root apart");
  if (c.fam == family::permute) check_arg_array(c, c.perm, static_cast<std::size_t>(T));
}

}  // namespace

int single_valued_scalars(const call& c, coll::request::named_value (&out)[8]) {
  int n = 0;
  const bool raw = c.is(variant::raw);
  auto add = [&](bool present, const char* name, std::uint64_t v) {
    if (present && n < 8) out[n++] = coll::request::named_value{name, v};
  };
  const bool elems = c.fam == family::reduce || c.fam == family::allreduce || c.fam == family::prefix_reduce ||
                     (c.is(variant::v) && !raw);
  add(c.has_count, elems ? "argument nelems" : "argument nbytes", c.count);
  add(c.has_dst_blk, raw ? "argument dst_blk_raw" : "argument dst_blk", c.dst_blk);
  add(c.has_src_blk, raw ? "argument src_blk_raw" : "argument src_blk", c.src_blk);
  add(c.has_typesize, "argument typesize", c.typesize);
  add(c.has_root, "argument root", static_cast<std::uint64_t>(static_cast<std::int64_t>(c.root)));
  add(c.has_nchunks, "argument nchunks", static_cast<std::uint64_t>(static_cast<std::int64_t>(c.nchunks)));
  const bool reduction = c.fam == family::reduce || c.fam == family::allreduce || c.fam == family::prefix_reduce;
  add(reduction, "argument op", c.op);
  add(reduction && !c.is(variant::v), "argument blk_size", c.blk_size);
  return n;
}

void run(call& c) {
  const bool on_team = c.is(variant::team);
  // The call's record (compared across threads where the call synchronises);
  // a team collective is called by its members only, so it is not recorded.
  std::optional<detail::collective_call> record;
  if (!on_team)
    record.emplace(c.function, c.where,
                   std::initializer_list<detail::collective_arg>{
                       {c.is(variant::v) && !c.is(variant::raw) ? "nelems" : "nbytes", c.has_count ? c.count : 0},
                       {"root", static_cast<std::uint64_t>(c.has_root ? c.root : 0)},
                       {"flags", static_cast<std::uint64_t>(c.flags)}});
  coll::check_sync_flags(c.function, c.flags, "sync_mode");
  members_view m;
  if (on_team) {
    m = thesis_members(c);
  } else {
    m.threads.resize(static_cast<std::size_t>(threads()));
    for (int t = 0; t < threads(); ++t) m.threads[static_cast<std::size_t>(t)] = t;
  }
  if (computational(c.fam)) {
    run_reduction(c, m);
    return;
  }
  check_movement(c, m);
  if (!c.is(variant::v) && c.fam != family::vector_copy) m.root = fixed_root(c, m);
  run_movement(c, m);
}

}  // namespace upc::ext
