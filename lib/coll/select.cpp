// Selection (registry.hpp): flag bits, forced rules (force_algorithm,
// UPCEMU_COLL), the automatic policy rows, and the rows' declared
// restrictions; the verbose report; the public controls of upc/coll.hpp;
// and run(), which keeps the plans of the last few calls of each team member
// (plan_cache.hpp) so that a loop of identical collectives builds its plan once.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "../runtime/hosts.hpp"
#include "../runtime/size_parse.hpp"
#include "executor.hpp"
#include "plan_cache.hpp"
#include "registry.hpp"
#include "upc/coll.hpp"
#include "upc/error.hpp"
#include "upc/runtime.hpp"

namespace upc::coll {

namespace {

// A forced choice: an algorithm for a collective, optionally for a size range.
struct rule {
  collective kind;
  std::string algorithm;
  std::size_t lo = 0, hi = SIZE_MAX;
};

// force_algorithm, then UPCEMU_COLL. Changed only outside runs (force/reset) or
// once, under the mutex, by the first collective; read without locking after.
std::mutex g_rules_mutex;
std::vector<rule> g_rules;
std::atomic<bool> g_rules_loaded{false};
thread_local const char* tl_last = "";
// Bumped whenever the rules change, so the choices remembered below expire.
std::atomic<std::uint32_t> g_rules_generation{1};

std::string valid_names(collective c) {
  std::string s;
  for (const algorithm_entry& e : registry())
    if (e.kind == c) s += (s.empty() ? "" : ", ") + std::string(e.name);
  return s;
}

std::string all_collectives() {
  std::string s;
  for (const kind_info& k : kinds)
    if (k.traits & trait::selectable) s += (s.empty() ? "" : ", ") + std::string(k.name);
  return s;
}

bool known(collective c, const std::string& algo) {
  for (const algorithm_entry& e : registry())
    if (e.kind == c && algo == e.name) return true;
  return false;
}

// One number of a size range: digits with an optional K/M/G suffix, or "max".
bool parse_bound(const std::string& text, std::size_t& out) {
  if (text == "max") {
    out = SIZE_MAX;
    return true;
  }
  auto v = upc::detail::parse_size(text);
  if (!v) return false;
  out = *v;
  return true;
}

// "broadcast:push;exchange:pairwise:0-64K" → rules; throws upc::error naming
// `source` (UPCEMU_COLL or upcrun --coll) and what is wrong.
std::vector<rule> parse_rules(const std::string& spec, const char* source) {
  std::vector<rule> rules;
  std::size_t pos = 0;
  auto bad = [&](const std::string& why) -> upc::error { return upc::error(source, why, -1); };
  while (pos <= spec.size()) {
    std::size_t end = spec.find(';', pos);
    if (end == std::string::npos) end = spec.size();
    std::string item = spec.substr(pos, end - pos);
    pos = end + 1;
    if (item.empty()) continue;
    std::size_t c1 = item.find(':');
    if (c1 == std::string::npos) throw bad("'" + item + "' is not collective:algorithm[:lo-hi]");
    rule r;
    std::string cname = item.substr(0, c1);
    if (!parse_collective(cname, r.kind)) throw bad("unknown collective '" + cname + "'; valid: " + all_collectives());
    std::size_t c2 = item.find(':', c1 + 1);
    r.algorithm = item.substr(c1 + 1, c2 == std::string::npos ? std::string::npos : c2 - c1 - 1);
    if (r.algorithm != "auto" && !known(r.kind, r.algorithm))
      throw bad("unknown algorithm '" + r.algorithm + "' for " + cname + "; valid: " + valid_names(r.kind) + ", auto");
    if (c2 != std::string::npos) {
      std::string range = item.substr(c2 + 1);
      std::size_t dash = range.find('-');
      if (dash == std::string::npos || !parse_bound(range.substr(0, dash), r.lo) ||
          !parse_bound(range.substr(dash + 1), r.hi))
        throw bad("size range '" + range + "' in '" + item + "' is not lo-hi (bytes, K/M/G suffixes, 'max')");
      if (r.lo > r.hi) throw bad("size range '" + range + "' in '" + item + "' is empty (lo > hi)");
    }
    rules.push_back(r);
  }
  return rules;
}

void load_environment_rules() {
  const char* env = std::getenv("UPCEMU_COLL");
  if (!env || !*env) return;
  for (const rule& r : parse_rules(env, "UPCEMU_COLL")) g_rules.push_back(r);
}

void ensure_rules_loaded() {
  if (g_rules_loaded.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> guard(g_rules_mutex);
  if (!g_rules_loaded.load(std::memory_order_relaxed)) {
    load_environment_rules();
    g_rules_loaded.store(true, std::memory_order_release);
  }
}

// The registry's rows and policy rows of each collective (built once: lookups
// run on every call).
struct index {
  std::vector<const algorithm_entry*> rows[collective_count];
  std::vector<const policy_row*> policy[collective_count];
};
const index& rows() {
  static const index ix = [] {
    index i;
    for (const algorithm_entry& e : registry()) i.rows[static_cast<int>(e.kind)].push_back(&e);
    for (const policy_row& r : policy()) i.policy[static_cast<int>(r.kind)].push_back(&r);
    return i;
  }();
  return ix;
}

const algorithm_entry* find(collective c, const char* name) {
  for (const algorithm_entry* e : rows().rows[static_cast<int>(c)])
    if (std::strcmp(name, e->name) == 0) return e;
  return nullptr;
}

bool holds(const policy_row& r, const selection& s) {
  return s.size >= r.lo && s.size <= r.hi && s.team_size >= r.min_threads && s.team_size <= r.max_threads &&
         (!r.one_run || s.one_run) && (!r.across_hosts || s.across_hosts);
}

const algorithm_entry* automatic(const selection& s) {
  // A team whose members are on several hosts (mpi backend): the rows for it
  // first (MPI's own collectives), where the row's algorithm serves the call:
  // the engine's plans would see every flag and team barrier through its
  // owner's server, one round trip per look. Hosts are also nodes, so these
  // come before the node rows.
  if (s.across_hosts)
    for (const policy_row* r : rows().policy[static_cast<int>(s.kind)])
      if (r->across_hosts && holds(*r, s))
        if (const algorithm_entry* e = find(s.kind, r->algorithm); e && !(e->cannot & s.features)) return e;
  // A team spread over several emulated nodes: the node rows (measured:
  // tools/bench/run_node_policy.sh), else the node-aware algorithm where the
  // collective has one that serves the call (docs/topology.md); flat ones
  // would send a copy between nodes per thread.
  if (s.nodes > 1) {
    for (const policy_row* r : rows().policy[static_cast<int>(s.kind)])
      if (r->min_nodes > 1 && s.nodes >= r->min_nodes && holds(*r, s))
        if (const algorithm_entry* e = find(s.kind, r->algorithm); e && !(e->cannot & s.features)) return e;
    for (const algorithm_entry* e : rows().rows[static_cast<int>(s.kind)])
      if (e->flag == UPC_MULTICORE && !(e->cannot & s.features)) return e;
  }
  for (const policy_row* r : rows().policy[static_cast<int>(s.kind)])
    if (r->min_nodes <= 1 && !r->across_hosts && holds(*r, s)) return find(s.kind, r->algorithm);
  const auto& all = rows().rows[static_cast<int>(s.kind)];
  return all.empty() ? nullptr : all.front();
}

[[noreturn]] void refuse(const selection& s, const std::string& why) {
  throw upc::error(s.function, why + "; valid algorithms for " + name_of(s.kind) + ": " + valid_names(s.kind),
                   upc::detail::tl_mythread);
}

bool verbose_enabled() {
  static const bool verbose = [] {
    const char* v = std::getenv("UPCEMU_VERBOSE_COLL");
    return v && *v && std::string(v) != "0";
  }();
  return verbose;
}

void verbose_report(const selection& s, const algorithm_entry& e, const char* how) {
  if (!verbose_enabled() || upc::detail::tl_mythread != 0) return;
  static thread_local std::vector<const algorithm_entry*> said;
  for (const algorithm_entry* x : said)
    if (x == &e) return;
  said.push_back(&e);
  std::fprintf(stderr, "upcemu: %s runs algorithm %s (%s)\n", s.function, e.name, how);
}

std::string cannot_text(unsigned cannot) {
  std::string no;
  for (unsigned bit = 1; bit <= feature::all; bit <<= 1)
    if (cannot & bit) no += (no.empty() ? "" : ", ") + std::string(feature_text(bit));
  return no;
}

const char* flag_name(upc_flag_t bits) {
  return bits == UPC_MULTICORE ? "UPC_MULTICORE" : bits == UPC_PULL ? "UPC_PULL" : "UPC_PUSH";
}

}  // namespace

namespace {
// The last choice of this thread for each collective, with what it was made for.
struct remembered_choice {
  std::uint32_t generation = 0;
  std::size_t size = 0;
  int team_size = 0;
  int nodes = 0;
  bool one_run = false;
  bool across_hosts = false;
  upc_flag_t flags = 0;
  unsigned features = 0;
  const algorithm_entry* entry = nullptr;
};
thread_local remembered_choice tl_choice[collective_count];

const algorithm_entry& select_uncached(const selection& s);
}  // namespace

const algorithm_entry& select(const selection& s) {
  remembered_choice& c = tl_choice[static_cast<int>(s.kind)];
  const std::uint32_t gen = g_rules_generation.load(std::memory_order_acquire);
  if (c.entry && c.generation == gen && c.size == s.size && c.team_size == s.team_size && c.nodes == s.nodes && c.one_run == s.one_run && c.across_hosts == s.across_hosts && c.flags == s.flags &&
      c.features == s.features && !verbose_enabled())
    return *c.entry;
  const algorithm_entry& e = select_uncached(s);
  c = remembered_choice{gen, s.size, s.team_size, s.nodes, s.one_run, s.across_hosts, s.flags, s.features, &e};
  return e;
}

namespace {
const algorithm_entry& select_uncached(const selection& s) {
  const upc_flag_t algo_bits = s.flags & (UPC_PULL | UPC_PUSH | UPC_MULTICORE);
  const algorithm_entry* chosen = nullptr;
  const char* how = "auto";
  if (algo_bits) {
    if (algo_bits & (algo_bits - 1)) refuse(s, "flags ask for more than one of UPC_PULL, UPC_PUSH, UPC_MULTICORE");
    for (const algorithm_entry* e : rows().rows[static_cast<int>(s.kind)])
      if (e->flag == algo_bits) chosen = e;
    if (!chosen) refuse(s, std::string(flag_name(algo_bits)) + " has no algorithm for " + name_of(s.kind) + " yet");
    how = "flag";
  } else {
    ensure_rules_loaded();
    for (const rule& r : g_rules)
      if (r.kind == s.kind && s.size >= r.lo && s.size <= r.hi) {
        if (r.algorithm != "auto") {
          chosen = find(s.kind, r.algorithm.c_str());
          how = "forced";
        }
        break;
      }
  }
  if (!chosen) {
    chosen = automatic(s);
    // The policy may name an algorithm that cannot serve this call: the first
    // row that can, then.
    if (chosen && (chosen->cannot & s.features))
      for (const algorithm_entry* e : rows().rows[static_cast<int>(s.kind)])
        if (!(e->cannot & s.features)) {
          chosen = e;
          break;
        }
  }
  if (!chosen) refuse(s, std::string("no algorithm is registered for ") + name_of(s.kind));
  if (const unsigned missing = chosen->cannot & s.features) {
    const unsigned bit = missing & (~missing + 1);
    refuse(s, std::string("algorithm '") + chosen->name + "' cannot run this call: it does not serve " + feature_text(bit) +
                  " (registry row: not for " + cannot_text(chosen->cannot) + ")");
  }
  verbose_report(s, *chosen, how);
  return *chosen;
}
}  // namespace

void run(const request& rq) { run(rq, team::world()); }

namespace {
// The team's members are on several hosts (the mpi backend across hosts).
bool spans_hosts(team& t) {
  if (!upc::detail::several_hosts()) return false;
  if (t.is_world()) return true;
  for (int r = 0; r < t.size(); ++r)
    if (!upc::detail::on_my_host(t.thread_of(r))) return true;
  return false;
}
}  // namespace

void run(const request& rq, team& t) {
  selection s{rq.kind, rq.function, rq.size_for_selection(), t.size(), rq.flags, features_of(rq), t.node_count()};
  s.one_run = s.nodes > 1 && rq.one_run();  // only the node rows look at it
  s.across_hosts = spans_hosts(t);
  const algorithm_entry& e = select(s);
  plan& p = plan_cache::of(t).build(rq, e, t);
  p.algorithm = e.name;  // kept with the plan: a cached call is counted under it too
  tl_last = e.name;
  execute(rq, t, p);
}

// ---- public controls (upc/coll.hpp) ---------------------------------------------

std::vector<std::string> collectives() {
  std::vector<std::string> v;
  for (const kind_info& k : kinds)
    if (k.traits & trait::selectable) v.push_back(k.name);
  return v;
}

std::vector<std::string> algorithms(const std::string& name) {
  collective c;
  if (!parse_collective(name, c))
    throw upc::error("upc::coll::algorithms", "unknown collective '" + name + "'; valid: " + all_collectives(), -1);
  // The mpi family only where it can run: in a program started by mpirun.
  const char* ranks = std::getenv("OMPI_COMM_WORLD_SIZE");
  const bool mpi = upc::current_backend() == backend_kind::mpi || (ranks && *ranks);
  std::vector<std::string> v;
  for (const algorithm_entry* e : rows().rows[static_cast<int>(c)])
    if (mpi || !(e->cannot & feature::off_mpi)) v.push_back(e->name);
  return v;
}

void force_algorithm(const std::string& name, const std::string& algorithm) {
  collective c;
  if (!parse_collective(name, c))
    throw upc::error("upc::coll::force_algorithm", "unknown collective '" + name + "'; valid: " + all_collectives(), -1);
  if (algorithm != "auto" && !known(c, algorithm))
    throw upc::error("upc::coll::force_algorithm",
                     "unknown algorithm '" + algorithm + "' for " + name + "; valid: " + valid_names(c) + ", auto", -1);
  std::lock_guard<std::mutex> guard(g_rules_mutex);
  if (!g_rules_loaded.load()) {
    load_environment_rules();
    g_rules_loaded.store(true);
  }
  g_rules.insert(g_rules.begin(), rule{c, algorithm, 0, SIZE_MAX});
  g_rules_generation.fetch_add(1);
}

void reset_algorithms() {
  std::lock_guard<std::mutex> guard(g_rules_mutex);
  g_rules.clear();
  g_rules_loaded = false;
  g_rules_generation.fetch_add(1);
}

std::string last_algorithm() { return tl_last; }
std::uint32_t rules_generation() noexcept { return g_rules_generation.load(std::memory_order_acquire); }
bool choices_printed() noexcept { return verbose_enabled(); }
void note_last_algorithm(const char* name) { tl_last = name; }
const char* last_algorithm_name() noexcept { return tl_last; }

void check_rules(const std::string& spec, const char* source) { (void)parse_rules(spec, source); }

std::string describe_algorithms() {
  std::string out;
  for (const kind_info& k : kinds) {
    if (!(k.traits & trait::selectable)) continue;
    out += std::string(k.name) + " (auto: " + policy_text(k.id) + ")\n";
    for (const algorithm_entry* e : rows().rows[static_cast<int>(k.id)]) {
      const std::string flag = e->flag ? std::string(" [") + flag_name(e->flag) + "]" : "";
      out += "  " + std::string(e->name) + flag + ": " + e->summary;
      if (e->cannot) out += " [not for: " + cannot_text(e->cannot) + "]";
      out += "\n";
    }
  }
  return out;
}

}  // namespace upc::coll
