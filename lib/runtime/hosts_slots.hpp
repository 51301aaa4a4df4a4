// Rank 0's view, for its monitor, of the threads of a run spread over hosts
// (hosts.hpp): each host keeps its threads' slots (state, wait, place) in its
// own control block, so the slots of other hosts' threads are copied from
// there through their servers, with the names those hosts published in their
// control blocks read along, and every host's progress counter is summed.
// Deadlock detection and its report then look at every thread of the job.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "control.hpp"

namespace upc::detail {

class hosts_slots {
 public:
  // Copies every other host's threads' slot heads and progress (a request for
  // each run of consecutive threads on a host, one per host for progress, one
  // per name a host published).
  void refresh();
  // This host's threads: the control block's slot; the others': the copy.
  const thread_slot& slot(int thread) const;
  // Every host's progress counter, summed.
  std::uint64_t progress() const noexcept { return progress_; }

 private:
  void copy_head(int thread, const unsigned char* slot_bytes);
  struct alignas(64) copy {
    unsigned char bytes[sizeof(thread_slot)];
    std::string names[4];  // what its place pointers name, when a host published the text
  };
  std::vector<std::unique_ptr<copy>> copies_;  // per thread; empty for this host's
  std::uint64_t progress_ = 0;
};

}  // namespace upc::detail
