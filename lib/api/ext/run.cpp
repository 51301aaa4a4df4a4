// upc::ext::run: the checks every extended collective gets (sync flags,
// pointers, sizes, roots, argument arrays), who takes part (the world or a
// thesis team), and the hand-over to the family's half (families.hpp).
// Messages name the function, the argument and its value; the runtime adds
// the thread.
#include <initializer_list>
#include <optional>
#include <string>

#include "../../runtime/call_site.hpp"
#include "../../runtime/collective_call.hpp"
#include "../../runtime/control.hpp"
#include "../collective_checks.hpp"
#include "arguments.hpp"
#include "call.hpp"
#include "families.hpp"
#include "thesis_team.hpp"
#include "upc/error.hpp"
#include "upc/runtime.hpp"
#include "number_text.hpp"

namespace upc::ext {

using detail::fail;

namespace {


void check_side(const call& c, const side& s, const char* name) {
  if (!s.present) return;
  // A private end matters only on the threads whose bytes move (a scatter's
  // source on its root); it is checked there, once the chunks are known.
  if (s.is_private) return;
  coll::check_shared_pointer(c.function, name, s.shared);
}

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

// The root's rank of the fixed-size rooted forms.
int fixed_root(const call& c, const members_view& m) {
  const int P = static_cast<int>(m.threads.size());
  auto rank_of_thread = [&](int thread, const char* arg) {
    for (int r = 0; r < P; ++r)
      if (m.threads[static_cast<std::size_t>(r)] == thread) return r;
    fail(c.function, std::string(arg) + " has affinity to thread " + str(thread) + ", which is not a member of the team");
  };
  if (c.root.has_value()) {
    check_root(c, P);
    return *c.root;
  }
  if (c.is(variant::in_place)) return c.src.is_private ? 0 : rank_of_thread(static_cast<int>(c.src.shared.thread), "buffer");
  const side& s = c.fam == family::gather ? c.dst : c.src;
  if (c.fam == family::broadcast || c.fam == family::scatter || c.fam == family::gather)
    return s.is_private ? 0 : rank_of_thread(static_cast<int>(s.shared.thread), c.fam == family::gather ? "dst" : "src");
  return 0;
}

// The argument arrays a v-variant (or vector_copy) reads, each `count` elements.
void check_arrays(const call& c, std::initializer_list<const arg_array*> arrays, std::size_t count) {
  for (const arg_array* a : arrays) check_arg_array(c, *a, count);
}

void check_vector_form(const call& c, std::size_t T) {
  if (!c.is(variant::raw) && c.typesize.has_value() && *c.typesize == 0) fail(c.function, "typesize must be > 0");
  if (c.root.has_value()) check_root(c, static_cast<int>(T));
  switch (c.fam) {
    case family::broadcast: check_arrays(c, {&c.ddisp}, T); break;
    case family::scatter: check_arrays(c, {&c.ddisp, &c.counts}, T); break;
    case family::gather:
      check_arrays(c, {&c.sdisp, &c.counts}, T);
      if (c.ddisp_per_source) check_arg_array(c, c.ddisp, T);
      break;
    case family::gather_all: check_arrays(c, {&c.ddisp, &c.sdisp, &c.counts}, T); break;
    case family::exchange:
      check_arrays(c, {&c.exchange, &c.counts}, T * T);
      check_arg_array(c, c.disp, T, true);
      break;
    case family::permute: check_arrays(c, {&c.perm, &c.disp, &c.counts}, T); break;
    case family::vector_copy: {
      const int nchunks = c.nchunks.value_or(0);
      if (nchunks < 0) fail(c.function, "nchunks is " + str(nchunks) + ", negative");
      check_arrays(c, {&c.sdisp, &c.ddisp, &c.counts}, static_cast<std::size_t>(nchunks));
      break;
    }
    default: break;
  }
}

void check_fixed_form(const call& c, std::uint64_t T) {
  const bool in_place = c.is(variant::in_place);
  const bool row = c.fam != family::broadcast && c.fam != family::permute;
  check_bytes(c, c.count.value_or(0), row ? T : 1, "nbytes");
  if (in_place && !c.src.is_private && !c.root.has_value() &&
      (c.fam == family::gather_all || c.fam == family::exchange || c.fam == family::permute) && c.src.shared.thread != 0)
    fail(c.function, "buffer has affinity to thread " + str(c.src.shared.thread) + "; it must point to thread 0's block");
  check_in_place_root_block(c);
  if (in_place && !c.src.is_private && c.root.has_value() && c.src.shared.thread != 0)
    fail(c.function, "buffer has affinity to thread " + str(c.src.shared.thread) +
                         "; the rooted forms take the array's start (thread 0) and the root apart");
  if (c.fam == family::permute) check_arg_array(c, c.perm, static_cast<std::size_t>(T));
}

void check_movement(const call& c, const members_view& m) {
  const bool in_place = c.is(variant::in_place);
  check_side(c, c.dst, in_place ? "buffer" : "dst");
  if (!in_place) check_side(c, c.src, "src");
  if (c.is(variant::v) || c.fam == family::vector_copy) {
    check_vector_form(c, m.threads.size());
  } else {
    check_fixed_form(c, m.threads.size());
  }
}

}  // namespace

void run(call& c) {
  const bool on_team = c.is(variant::team);
  // The call's record (compared across threads where the call synchronises);
  // a team collective is called by its members only, so it is not recorded.
  std::optional<detail::collective_call> record;
  if (!on_team)
    record.emplace(c.function, c.where,
                   std::initializer_list<detail::collective_arg>{
                       {c.is(variant::v) && !c.is(variant::raw) ? "nelems" : "nbytes", c.count.value_or(0)},
                       {"root", static_cast<std::uint64_t>(c.root.value_or(0))},
                       {"flags", static_cast<std::uint64_t>(c.flags)}});
  coll::check_sync_flags(c.function, c.flags, "sync_mode");
  members_view m;
  if (on_team) {
    m = thesis_members(c);
  } else {
    m.threads.resize(static_cast<std::size_t>(threads()));
    for (int t = 0; t < threads(); ++t) m.threads[static_cast<std::size_t>(t)] = t;
  }
  // --check=races: the whole call as one collective with the caller's flags,
  // however many data movements it is made of (lib/coll/race_model.hpp).
  const detail::access_site site{detail::file_of(c.where), detail::line_of(c.where), nullptr, c.function};
  coll::race_call races(m.engine_team ? *m.engine_team : coll::team::world(), c.flags, c.function, &site);
  if (computational(c.fam)) {
    run_reduction(c, m);
  } else {
    check_movement(c, m);
    if (!c.is(variant::v) && c.fam != family::vector_copy) m.root = fixed_root(c, m);
    run_movement(c, m);
  }
  races.finish();
}

}  // namespace upc::ext
