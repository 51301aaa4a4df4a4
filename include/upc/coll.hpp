// The collective engine's user-visible controls: which algorithms exist for each
// collective, forcing one (tests, benchmarks, UPCEMU_COLL), and what ran last.
//
//   UPCEMU_COLL="broadcast:binomial;exchange:pairwise:0-64K"   per collective,
//   optionally for a size range only (nbytes per block for data movement;
//   nelems × element size for reductions and sort). upcrun --coll sets it.
//   UPCEMU_VERBOSE_COLL=1 prints, once per (collective, algorithm), what ran.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace upc::coll {

// The collectives of the engine, with the names used everywhere (registry, env,
// CLI, tests, bench): broadcast scatter gather gather_all exchange permute reduce
// prefix_reduce sort.
std::vector<std::string> collectives();
// Algorithms registered for a collective, in registry order ("pull", "push", ...).
std::vector<std::string> algorithms(const std::string& collective);

// Forces `algorithm` for `collective` in the calling process from now on (for every
// thread of the next runs); "auto" restores the policy. Throws upc::error naming
// the valid choices when the name is unknown. Call it outside a run.
void force_algorithm(const std::string& collective, const std::string& algorithm);
void reset_algorithms();  // everything back to auto (and UPCEMU_COLL re-read)

// The algorithm the calling thread's last collective used (for tests).
std::string last_algorithm();

// Checks an algorithm rule list (the UPCEMU_COLL / upcrun --coll syntax); throws
// upc::error naming `source` and what is wrong. Sizes take K/M/G suffixes and
// "max"; for reductions and sort the size is nelems × element size.
void check_rules(const std::string& spec, const char* source);
// Parses a chunk segment size (UPCEMU_COLL_SEGMENT, upcrun --coll-segment:
// bytes with K/M/G suffixes, at least 64); throws upc::error naming `source`.
std::size_t parse_segment(const std::string& text, const char* source);

// Every collective with its algorithms, flags and one-line summaries, and the
// automatic choice (upcrun --list-algorithms).
std::string describe_algorithms();

}  // namespace upc::coll
