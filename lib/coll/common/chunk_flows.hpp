// Chunk lists moved along a tree of holders (the node-aware chunk algorithms:
// lib/coll/algorithms/chunks_node_aware.cpp): the data movement of the
// extended collectives (request::chunks) described as *flows* — which member
// keeps which source runs in its scratch, filled from whom — and turned into
// one plan by one builder, so that the flat-over-nodes, binomial and
// binomial-flat trees of seed 003 §3.3 (Figures 3.8–3.10) differ only in who
// holds what.
//
//   run      distinct source bytes (a place and a length): chunks that read the
//            same bytes (a broadcast_v) share one run, which crosses a tree
//            edge once
//   buffer   a member's scratch: runs packed in the order it fills them, each
//            copied from a holder — another member's buffer, or the run's
//            source itself (from = -1)
//   delivery each chunk is finally copied into its destination by the
//            destination's owner, from a holder (or its source)
//
// The builder resolves what only the backend knows: a private source another
// member must read is staged by its owner into its own buffer (processes), or
// read in place through the address its owner publishes (threads); a chunk
// within one thread is always copied by that thread from its source.
//
// Segmentation (§3.3's "segmentation of large-sized internode
// communications"): a buffer is published in segments of segment_bytes(), one
// ready stage each, so a child copies segment k while its parent fills k + 1;
// a segment also ends wherever the holder changes, and the algorithms list a
// buffer's runs read from sources before those from others, so a member
// publishes what it read from sources before it waits for anyone (no cycles
// when node roots swap runs both ways).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "../plan.hpp"
#include "../request.hpp"
#include "../team.hpp"

namespace upc::coll {

// UPCEMU_COLL_SEGMENT (bytes, K/M suffixes; default 128 KiB): the unit in
// which staged and forwarded chunk data is published.
std::size_t segment_bytes();

// The distinct source runs of a chunk list. A chunk within one thread (source
// and destination on the same thread) has no run (-1): its owner copies it.
struct chunk_runs {
  std::vector<place> src;              // per run: its first byte
  std::vector<std::uint64_t> bytes;    // per run: its length
  std::vector<int> of_chunk;           // per chunk: its run, or -1
  int size() const noexcept { return static_cast<int>(src.size()); }
};
chunk_runs distinct_runs(const std::vector<chunk>& chunks);

struct chunk_flows {
  struct entry {
    int run;
    int from;  // team rank whose buffer holds the run, or -1: the run's source
  };
  std::vector<std::vector<entry>> buffer;  // per team rank, in the order it fills it (from sources first)
  std::vector<int> deliver_from;           // per chunk: holder rank or -1 (chunks without a run: ignored)
};

// Builds the calling member's plan for moving rq's chunks as `flows` says.
void build_chunk_flows(const request& rq, team& t, plan& p, const chunk_runs& runs, chunk_flows flows);

}  // namespace upc::coll
