#include "words.hpp"

#include <cstdlib>

#include "../../runtime/dsm.hpp"
#include "../../runtime/futex.hpp"
#include "../../runtime/hosts.hpp"
#include "../../runtime/remote_ops.hpp"
#include "upc/detail/static_object.hpp"
#include "upc/runtime.hpp"

namespace upc::coll::tasks {

bool own_core() noexcept {
  static const unsigned cpus = detail::usable_cpus();
  return static_cast<unsigned>(detail::g_threads) <= cpus;
}

std::uint64_t eager_limit() noexcept {
  constexpr std::uint64_t untuned = ~std::uint64_t{0};
  static const std::uint64_t tuned = [] {
    const char* const v = std::getenv("UPCEMU_TUNE_EAGER");
    return v ? std::uint64_t{std::strtoull(v, nullptr, 10)} : untuned;
  }();
  if (tuned != untuned) return tuned;
  return own_core() ? std::uint64_t{inline_bytes} : std::uint64_t{2048};  // THREADS may differ from run to run
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

bool team_view::completed_by_all(std::uint32_t seq) noexcept {
  if (reached(completed_by_all_, seq)) return true;
  if (detail::several_hosts()) return false;
  // The oldest member's word, relative to seq.
  std::int32_t least = 0;
  for (int r = 0; r < size_; ++r) {
    const std::int32_t ahead = static_cast<std::int32_t>(completed(r).load(std::memory_order_acquire) - seq);
    if (ahead < 0) return false;
    if (r == 0 || ahead < least) least = ahead;
  }
  completed_by_all_ = seq + static_cast<std::uint32_t>(least);
  return true;
}

void team_view::notify() const noexcept {
  if (detail::several_hosts()) return;  // across hosts nobody sleeps on it: waiters poll
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

// ---- words on other hosts (words.hpp, `across`) ----

namespace upc::coll::tasks::across::remote {

namespace {
// The owner of a word on another host, or -1 when it is on this one.
int remote_owner(const void* w) {
  if (!detail::several_hosts()) return -1;
  const int t = detail::partition_owner(w);
  return t >= 0 && !detail::on_my_host(t) ? t : -1;
}
}  // namespace

std::uint32_t load(const std::atomic<std::uint32_t>& w) {
  const int owner = remote_owner(&w);
  if (owner < 0) return w.load(std::memory_order_acquire);
  return static_cast<std::uint32_t>(detail::remote_atomic(owner, detail::remote_op::load32, &w, 0));
}

std::uint32_t load_seq(const post& p) {
  const int owner = remote_owner(&p.seq);
  if (owner < 0) return seq_of(p).load(std::memory_order_acquire);
  return static_cast<std::uint32_t>(detail::remote_atomic(owner, detail::remote_op::load32, &p.seq, 0));
}

std::uint64_t load(const std::atomic<std::uint64_t>& w) {
  const int owner = remote_owner(&w);
  if (owner < 0) return w.load(std::memory_order_acquire);
  return detail::remote_atomic(owner, detail::remote_op::load64, &w, 0);
}

bool compare_exchange(std::atomic<std::uint32_t>& w, std::uint32_t& expected, std::uint32_t desired) {
  const int owner = remote_owner(&w);
  if (owner < 0) return w.compare_exchange_strong(expected, desired, std::memory_order_seq_cst);
  const auto found = static_cast<std::uint32_t>(
      detail::remote_atomic(owner, detail::remote_op::compare_exchange32, &w, desired, expected));
  const bool ok = found == expected;
  expected = found;
  return ok;
}

bool compare_exchange(std::atomic<std::uint64_t>& w, std::uint64_t& expected, std::uint64_t desired) {
  const int owner = remote_owner(&w);
  if (owner < 0) return w.compare_exchange_strong(expected, desired, std::memory_order_seq_cst);
  const std::uint64_t found = detail::remote_atomic(owner, detail::remote_op::compare_exchange64, &w, desired, expected);
  const bool ok = found == expected;
  expected = found;
  return ok;
}

void release() {
  if (detail::several_hosts()) detail::dsm_release();
}

void acquire() {
  if (detail::several_hosts()) detail::dsm_acquire();
}

}  // namespace upc::coll::tasks::across::remote
