#include "words.hpp"

#include <cstdlib>

#include "../../runtime/futex.hpp"
#include "upc/detail/static_object.hpp"
#include "upc/runtime.hpp"

namespace upc::coll::tasks {

bool own_core() noexcept {
  static const unsigned cpus = detail::usable_cpus();
  return static_cast<unsigned>(detail::g_threads) <= cpus;
}

std::uint64_t eager_limit() noexcept {
  static const char* const tuned = std::getenv("UPCEMU_TUNE_EAGER");
  if (tuned) return std::strtoull(tuned, nullptr, 10);
  return own_core() ? std::uint64_t{inline_bytes} : std::uint64_t{2048};
}

const team_section tasks_section{"task executor", [](int) { return area_layout::bytes; }};

team_view& team_view::of(team& t) {
  team_view& v = t.attached<team_view>();
  if (!v.base_) {
    v.base_ = &t;
    v.size_ = t.size();
    v.rank_ = t.rank();
    v.areas_.resize(static_cast<std::size_t>(t.size()));
    for (int r = 0; r < t.size(); ++r) v.areas_[static_cast<std::size_t>(r)] = t.section(tasks_section, r);
  }
  return v;
}

void team_view::notify() const noexcept {
  team_words& w = words();
  if (w.sleepers.load(std::memory_order_seq_cst) > 0) {
    w.activity.fetch_add(1, std::memory_order_seq_cst);
    detail::futex_wake_all(&w.activity);
  }
}

void team_view::free_staged(const char* function) {
  const std::uint32_t me = static_cast<std::uint32_t>(thread_of(rank_));
  for (slot_state& s : slot) {
    if (s.meta) detail::heap_free(shared_address{s.meta, me, 0}, function);
    if (s.stage) detail::heap_free(shared_address{s.stage, me, 0}, function);
    s.meta = s.meta_bytes = s.stage = s.stage_bytes = 0;
  }
}

}  // namespace upc::coll::tasks
