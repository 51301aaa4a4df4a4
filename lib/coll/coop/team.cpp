#include "team.hpp"

#include "../../runtime/futex.hpp"

namespace upc::coll::coop {

const team_section tasks_section{"task executor", [](int) { return block_layout::bytes; }};

team& team::of(coll::team& t) {
  team& view = t.attached<team>();
  view.base_ = &t;
  return view;
}

void team::notify() const noexcept {
  team_words& w = words();
  if (w.sleepers.load(std::memory_order_seq_cst) > 0) {
    w.activity.fetch_add(1, std::memory_order_seq_cst);
    detail::futex_wake_all(&w.activity);
  }
}

}  // namespace upc::coll::coop
