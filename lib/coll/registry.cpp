#include "registry.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <atomic>
#include <mutex>
#include <string>

#include "executor.hpp"
#include "upc/coll.hpp"
#include "upc/error.hpp"
#include "upc/runtime.hpp"
#include "../runtime/size_parse.hpp"

namespace upc::coll {

using namespace algo;

const std::vector<algorithm_entry>& registry() {
  using C = collective;
  static const std::vector<algorithm_entry> table = {
      {C::broadcast, "pull", broadcast_pull, UPC_PULL, nullptr, "every rank copies the root's block"},
      {C::broadcast, "push", broadcast_push, UPC_PUSH, nullptr, "the root copies into every block"},
      {C::broadcast, "binomial", broadcast_binomial, 0, nullptr, "binomial tree from the root, forwarding through dst"},
      {C::scatter, "pull", scatter_pull, UPC_PULL, nullptr, "every rank copies its block from the root"},
      {C::scatter, "push", scatter_push, UPC_PUSH, nullptr, "the root copies every block"},
      {C::scatter, "binomial", scatter_binomial, 0, nullptr, "binomial tree from the root, subtrees' blocks via scratch"},
      {C::gather, "pull", gather_pull, UPC_PULL, nullptr, "the root copies every block"},
      {C::gather, "push", gather_push, UPC_PUSH, nullptr, "every rank copies its block to the root"},
      {C::gather, "binomial", gather_binomial, 0, nullptr, "binomial tree to the root, subtrees' blocks via scratch"},
      {C::gather_all, "pull", gather_all_pull, UPC_PULL, nullptr, "every rank copies all blocks into its row"},
      {C::gather_all, "push", gather_all_push, UPC_PUSH, nullptr, "every rank copies its block into every row"},
      {C::gather_all, "recursive_doubling", gather_all_recursive_doubling, 0, nullptr,
       "ceil(log2 T) rounds, round k pulling from rank r+2^k (any T)"},
      {C::gather_all, "ring", gather_all_ring, 0, nullptr, "T-1 steps, each pulling one block from the left neighbour"},
      {C::exchange, "pull", exchange_pull, UPC_PULL, nullptr, "every rank copies its blocks from every row"},
      {C::exchange, "push", exchange_push, UPC_PUSH, nullptr, "every rank copies its row's blocks out"},
      {C::exchange, "pairwise", exchange_pairwise, 0, nullptr, "pull, rank r reading rank r+k at step k"},
      {C::permute, "pull", permute_pull, UPC_PULL, nullptr, "every rank copies the block it receives"},
      {C::permute, "push", permute_push, UPC_PUSH, nullptr, "every rank copies its block to its target"},
      {C::reduce, "flat", reduce_flat, 0, nullptr, "per-rank partials combined at the root in rank order"},
      {C::reduce, "binomial", reduce_binomial, 0, nullptr,
       "partials climb a binomial tree as lists; the root folds in rank order"},
      {C::prefix_reduce, "flat", prefix_reduce_flat, 0, nullptr, "block totals, prefixes by rank 0, local finish"},
      {C::prefix_reduce, "binomial", prefix_reduce_binomial, 0, nullptr,
       "block totals up a binomial tree, prefixes by rank 0, back down, local finish"},
      {C::sort, "at_root", sort_at_root, 0, nullptr, "thread 0 sorts the whole array"},
      {C::allreduce, "flat", allreduce_flat, 0, nullptr, "the flat reduction to dst's thread, then every rank copies the result"},
      {C::allreduce, "binomial", allreduce_binomial, 0, nullptr,
       "the binomial reduction to dst's thread, then every rank copies the result"},
      // upccoll_*: tasks any member may run once their inputs are posted (lib/coll/coop/)
      {C::barrier, "posts", nullptr, 0, nullptr, "no tasks: done once every member has posted",
       &coop::decompositions::barrier},
      {C::member_broadcast, "pull", nullptr, 0, nullptr, "one task per member: copy the root's buffer into its own",
       &coop::decompositions::bcast_pull},
      {C::member_scatter, "pull", nullptr, 0, nullptr, "one task per member: copy its block from the root",
       &coop::decompositions::scatter_pull},
      {C::member_scatterv, "pull", nullptr, 0, nullptr, "one task per member: copy its block from the root",
       &coop::decompositions::scatterv_pull},
      {C::member_gather, "push", nullptr, 0, nullptr, "one task per member: copy its buffer into the root's",
       &coop::decompositions::gather_push},
      {C::member_gatherv, "push", nullptr, 0, nullptr, "one task per member: copy its buffer into the root's",
       &coop::decompositions::gatherv_push},
      {C::member_gather_all, "by_destination", nullptr, 0, nullptr,
       "one task per member: fill its receive buffer from every send buffer", &coop::decompositions::allgather_by_destination},
      {C::member_gather_allv, "by_destination", nullptr, 0, nullptr,
       "one task per member: fill its receive buffer from every send buffer", &coop::decompositions::allgatherv_by_destination},
      {C::member_exchange, "by_destination", nullptr, 0, nullptr,
       "one task per member: fill its receive buffer from every send buffer", &coop::decompositions::alltoall_by_destination},
      {C::member_exchangev, "by_destination", nullptr, 0, nullptr,
       "one task per member: fill its receive buffer from every send buffer", &coop::decompositions::alltoallv_by_destination},
      {C::member_reduce, "chunked", nullptr, 0, nullptr,
       "up to one task per member, each folding a chunk of the vector into the root's buffer",
       &coop::decompositions::reduce_chunked},
      {C::member_allreduce, "redundant", nullptr, 0, nullptr,
       "one task per member: fold the whole vector into its own buffer", &coop::decompositions::allreduce_redundant},
      {C::member_allreduce, "chunked", nullptr, 0, nullptr,
       "fold chunk i into member i's buffer, then copy it to every member (reduce-scatter + allgather)",
       &coop::decompositions::allreduce_chunked},
      {C::member_reduce_scatter, "by_block", nullptr, 0, nullptr, "one task per member: fold its block",
       &coop::decompositions::reduce_scatter_by_block},
      {C::member_exclusive_scan, "chunked", nullptr, 0, nullptr, "chunks of the vector, each walked through the ranks in order",
       &coop::decompositions::scan_chunked},
      {C::member_inclusive_scan, "chunked", nullptr, 0, nullptr,
       "chunks of the vector, each walked through the ranks in order", &coop::decompositions::scan_inclusive_chunked},
  };
  return table;
}

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
thread_local std::string tl_last;

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

// The registry's rows of each collective (built once: lookups run on every call).
const std::vector<const algorithm_entry*>& rows_of(collective c) {
  static const auto index = [] {
    std::vector<std::vector<const algorithm_entry*>> v(collective_count);
    for (const algorithm_entry& e : registry()) v[static_cast<int>(e.kind)].push_back(&e);
    return v;
  }();
  return index[static_cast<int>(c)];
}

const algorithm_entry* find(collective c, const char* name) {
  for (const algorithm_entry* e : rows_of(c))
    if (std::strcmp(name, e->name) == 0) return e;
  return nullptr;
}
const algorithm_entry* find(collective c, const std::string& name) { return find(c, name.c_str()); }

// The automatic policy, by collective, size (bytes per block; for reductions
// the whole array) and THREADS. Read off the 2026-11-21 run of
// tools/bench/run_coll.sh on 2 cores (docs/benchmarks.md, "auto against the
// fastest algorithm"): the algorithm that was fastest at most points of each
// (size band, THREADS) cell, both backends together. Trees lose on this machine
// (each level costs a context switch when THREADS exceed the cores), so they
// are chosen only where they won.
constexpr std::size_t small_bytes = 4096, mid_bytes = 256 * 1024;

const char* automatic(collective c, std::size_t size, int threads) {
  switch (c) {
    case collective::broadcast:
    case collective::scatter:  // many threads, small blocks: one rank copying beats T contending readers
      return (threads >= 16 && size <= small_bytes) ? "push" : "pull";
    case collective::gather: return "push";
    case collective::gather_all: return (threads >= 4 && size > small_bytes) ? "push" : "pull";
    case collective::exchange: return size <= small_bytes ? "pull" : "pairwise";
    case collective::permute: return "pull";
    case collective::reduce: return "flat";
    case collective::prefix_reduce: return (threads == 2 && size <= mid_bytes) ? "binomial" : "flat";
    case collective::sort: return "at_root";
    case collective::allreduce: return "flat";
    case collective::member_allreduce: return size <= small_bytes ? "redundant" : "chunked";
    default: break;
  }
  return rows_of(c).empty() ? "pull" : rows_of(c).front()->name;  // collectives with one algorithm
}

const char* automatic_text(collective c) {
  switch (c) {
    case collective::broadcast:
    case collective::scatter: return "push when THREADS >= 16 and nbytes <= 4 KiB, else pull";
    case collective::gather: return "push";
    case collective::gather_all: return "push when THREADS >= 4 and nbytes > 4 KiB, else pull";
    case collective::exchange: return "pull when nbytes <= 4 KiB, else pairwise";
    case collective::permute: return "pull";
    case collective::reduce: return "flat";
    case collective::prefix_reduce: return "binomial when THREADS == 2 and nelems x size <= 256 KiB, else flat";
    case collective::sort: return "at_root";
    case collective::allreduce: return "flat";
    case collective::member_allreduce: return "redundant when count x type size <= 4 KiB, else chunked";
    default: break;
  }
  for (const algorithm_entry& e : registry())
    if (e.kind == c) return e.name;
  return "";
}

[[noreturn]] void refuse(const request& rq, const std::string& why) {
  throw upc::error(rq.function, why + "; valid algorithms for " + name_of(rq.kind) + ": " + valid_names(rq.kind),
                   upc::detail::tl_mythread);
}

bool verbose_enabled() {
  static const bool verbose = [] {
    const char* v = std::getenv("UPCEMU_VERBOSE_COLL");
    return v && *v && std::string(v) != "0";
  }();
  return verbose;
}

void verbose_report(const request& rq, const algorithm_entry& e, const char* how) {
  if (!verbose_enabled() || upc::detail::tl_mythread != 0) return;
  static thread_local std::vector<const algorithm_entry*> said;
  for (const algorithm_entry* s : said)
    if (s == &e) return;
  said.push_back(&e);
  std::fprintf(stderr, "upcemu: %s runs algorithm %s (%s)\n", rq.function, e.name, how);
}

}  // namespace

const algorithm_entry& select(const request& rq, int threads) {
  const upc_flag_t algo_bits = rq.flags & (UPC_PULL | UPC_PUSH | UPC_MULTICORE);
  const algorithm_entry* chosen = nullptr;
  const char* how = "auto";
  if (algo_bits) {
    if (algo_bits & (algo_bits - 1)) refuse(rq, "flags ask for more than one of UPC_PULL, UPC_PUSH, UPC_MULTICORE");
    for (const algorithm_entry& e : registry())
      if (e.kind == rq.kind && e.flag == algo_bits) chosen = &e;
    if (!chosen)
      refuse(rq, std::string(algo_bits == UPC_MULTICORE ? "UPC_MULTICORE" : algo_bits == UPC_PULL ? "UPC_PULL" : "UPC_PUSH") +
                     " has no algorithm for " + name_of(rq.kind) + " yet");
    how = "flag";
  } else {
    if (!g_rules_loaded.load(std::memory_order_acquire)) {
      std::lock_guard<std::mutex> guard(g_rules_mutex);
      if (!g_rules_loaded.load(std::memory_order_relaxed)) {
        load_environment_rules();
        g_rules_loaded.store(true, std::memory_order_release);
      }
    }
    const std::size_t size = rq.size_for_selection();
    for (const rule& r : g_rules)
      if (r.kind == rq.kind && size >= r.lo && size <= r.hi) {
        if (r.algorithm != "auto") {
          chosen = find(rq.kind, r.algorithm);
          how = "forced";
        }
        break;
      }
  }
  if (!chosen) chosen = find(rq.kind, automatic(rq.kind, rq.size_for_selection(), threads));
  if (chosen->refuses) {
    if (const char* why = chosen->refuses(rq, threads))
      refuse(rq, std::string("algorithm '") + chosen->name + "' cannot run this call: " + why);
  }
  verbose_report(rq, *chosen, how);
  return *chosen;
}

const algorithm_entry& select_coop(collective kind, std::size_t bytes, int team_size) {
  if (!g_rules_loaded.load(std::memory_order_acquire)) {
    std::lock_guard<std::mutex> guard(g_rules_mutex);
    if (!g_rules_loaded.load(std::memory_order_relaxed)) {
      load_environment_rules();
      g_rules_loaded.store(true, std::memory_order_release);
    }
  }
  const algorithm_entry* chosen = nullptr;
  const char* how = "auto";
  for (const rule& r : g_rules)
    if (r.kind == kind && bytes >= r.lo && bytes <= r.hi) {
      if (r.algorithm != "auto") {
        chosen = find(kind, r.algorithm);
        how = "forced";
      }
      break;
    }
  if (!chosen) chosen = find(kind, automatic(kind, bytes, team_size));
  if (verbose_enabled()) {
    request rq{};
    rq.kind = kind;
    rq.function = name_of(kind);
    verbose_report(rq, *chosen, how);
  }
  if (tl_last != chosen->name) tl_last = chosen->name;
  return *chosen;
}

void run(const request& rq) { run(rq, team::world()); }

void run(const request& rq, team& t) {
  const algorithm_entry& e = select(rq, t.size());
  static thread_local plan p;
  p.clear();
  e.build(rq, t, p);
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
  std::vector<std::string> v;
  for (const algorithm_entry& e : registry())
    if (e.kind == c) v.push_back(e.name);
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
}

void reset_algorithms() {
  std::lock_guard<std::mutex> guard(g_rules_mutex);
  g_rules.clear();
  g_rules_loaded = false;
}

std::string last_algorithm() { return tl_last; }

void check_rules(const std::string& spec, const char* source) { (void)parse_rules(spec, source); }

std::string describe_algorithms() {
  std::string out;
  for (const kind_info& k : kinds) {
    if (!(k.traits & trait::selectable)) continue;
    const collective c = k.id;
    out += std::string(name_of(c)) + " (auto: " + automatic_text(c) + ")\n";
    for (const algorithm_entry& e : registry())
      if (e.kind == c) {
        std::string flag = e.flag == UPC_PULL ? " [UPC_PULL]" : e.flag == UPC_PUSH ? " [UPC_PUSH]" : e.flag == UPC_MULTICORE ? " [UPC_MULTICORE]" : "";
        out += "  " + std::string(e.name) + flag + ": " + e.summary + "\n";
      }
  }
  return out;
}

}  // namespace upc::coll
