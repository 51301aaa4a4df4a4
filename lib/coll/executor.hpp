// Runs the calling rank's plan, with the sync flags as policies:
//   IN_ALLSYNC   team barrier before any data is touched
//   IN_MYSYNC    wait until every rank in plan.touches has entered this collective
//   OUT_ALLSYNC  team barrier at the end
//   OUT_MYSYNC   tell each touched rank we are done with its data, and wait until
//                every rank in plan.touchers is done with ours
//   NOSYNC       nothing
// A missing IN or OUT part means ALLSYNC (UPC 1.3).
//
// An execution can be driven two ways: run() to completion (blocking calls), or
// advance() repeatedly, which does all it can without waiting and says whether
// it finished (non-blocking calls poll it from test/wait).
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "plan.hpp"
#include "request.hpp"
#include "owner_words.hpp"
#include "team.hpp"

namespace upc::coll {

class execution {
 public:
  // Enters the collective: takes the team's next epoch and publishes it.
  execution(const request& rq, team& t, plan& p);
  bool advance();  // true once every step and the OUT policy are done
  void run();      // advance, sleeping while blocked, until done

 private:
  enum class stage { in_sync, steps, out_publish, out_wait, finished };
  bool ready(const std::atomic<std::uint32_t>& flag, std::uint32_t target) const;
  bool blocked_on(const std::atomic<std::uint32_t>& flag, int rank, int stage = 0);
  bool team_barrier_passed();
  void match_peer(int rank);

  const request& rq_;
  team& t_;
  owner_words w_;
  plan& p_;
  std::uint32_t epoch_;
  stage stage_ = stage::in_sync;
  std::size_t index_ = 0;          // position in the current list (touches, steps, touchers)
  std::size_t sub_ = 0;            // position inside a step (wait_acks)
  std::uint32_t barrier_phase_ = 0;
  bool barrier_pending_ = false;
  bool matched_peer_ = false;
  const std::atomic<std::uint32_t>* waiting_on_ = nullptr;  // what advance() last stopped at
  int waiting_rank_ = -1;
  std::uint32_t waiting_target_ = 0;
};

// The blocking form used by every upc_all_* call.
void execute(const request& rq, team& t, plan& p);

}  // namespace upc::coll
