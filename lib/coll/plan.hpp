// A plan: the calling rank's ordered steps for one collective, plus the ranks
// whose user data it touches and the ranks that touch its user data (the
// executor derives IN/OUT_MYSYNC from these two lists).
#pragma once
#include <cstddef>
#include <functional>
#include <vector>

namespace upc::coll {

struct step {
  enum kind_t { copy, wait_ready, publish_ready, wait_ready2, publish_ready2, ack, wait_acks, compute } kind;
  int peer = -1;
  char* dst = nullptr;
  const char* src = nullptr;
  std::size_t bytes = 0;
  std::function<void()> work;   // compute steps (reductions, sorting)
  int stage = 0;                // wait_ready / publish_ready: which of the plan's stages
};

class plan {
 public:
  void clear() {
    steps.clear();
    touches.clear();
    touchers.clear();
    ack_from.clear();
    stages = 1;
  }
  // Step builders, named for what they do.
  void copy(char* dst, const char* src, std::size_t bytes) {
    if (bytes) steps.push_back({step::copy, -1, dst, src, bytes, {}});
  }
  // Ready flags may be staged (multi-round algorithms: ring, recursive doubling):
  // publish_ready(s) says "my data of stage s is there", wait_ready(r, s) waits
  // for rank r's stage s (or later). Stages are < `stages`.
  void wait_ready(int rank, int stage = 0) {
    steps.push_back({step::wait_ready, rank, nullptr, nullptr, 0, {}, stage});
  }
  void publish_ready(int stage = 0) { steps.push_back({step::publish_ready, -1, nullptr, nullptr, 0, {}, stage}); }
  void wait_ready2(int rank) { steps.push_back({step::wait_ready2, rank, nullptr, nullptr, 0, {}}); }
  void publish_ready2() { steps.push_back({step::publish_ready2, -1, nullptr, nullptr, 0, {}}); }
  // Tell `owner` that this rank no longer reads its internal buffers.
  void ack(int owner) { steps.push_back({step::ack, owner, nullptr, nullptr, 0, {}}); }
  // Wait for the acks of every rank in ack_from.
  void wait_acks() { steps.push_back({step::wait_acks, -1, nullptr, nullptr, 0, {}}); }
  void compute(std::function<void()> f) { steps.push_back({step::compute, -1, nullptr, nullptr, 0, std::move(f)}); }

  std::vector<step> steps;
  std::vector<int> touches;   // ranks (not me) whose user data my steps read or write
  std::vector<int> touchers;  // ranks (not me) whose steps read or write my user data
  std::vector<int> ack_from;  // ranks whose acks wait_acks waits for
  // Epochs this plan takes from the team: stage s of the ready flags is epoch
  // first + s. Must be the same on every rank (derive it from single-valued
  // arguments and THREADS only).
  int stages = 1;
};

}  // namespace upc::coll
