// Words that may be on another host (host_words.hpp): through the owner's
// server when they are, with the page cache released first.
#include "host_words.hpp"

#include <sched.h>
#include <time.h>

#include "control.hpp"
#include "dsm.hpp"
#include "futex.hpp"
#include "remote_ops.hpp"

namespace upc::detail {

std::uint32_t remote_load_word(const std::atomic<std::uint32_t>& w) {
  const int owner = partition_owner(&w);
  if (owner < 0 || on_my_host(owner)) return w.load(std::memory_order_acquire);
  return static_cast<std::uint32_t>(remote_atomic(owner, remote_op::load32, &w, 0));
}

std::uint32_t remote_fetch_add_word(std::atomic<std::uint32_t>& w, std::uint32_t v) {
  dsm_release();
  const int owner = partition_owner(&w);
  if (owner < 0 || on_my_host(owner)) return w.fetch_add(v, std::memory_order_acq_rel);
  return static_cast<std::uint32_t>(remote_atomic(owner, remote_op::fetch_add32, &w, v));
}

void remote_publish_word(std::atomic<std::uint32_t>& w, std::uint32_t v) {
  dsm_release();
  const int owner = partition_owner(&w);
  if (owner < 0 || on_my_host(owner)) {
    w.store(v, std::memory_order_seq_cst);
    futex_wake_all(&w);
    return;
  }
  remote_post(owner, remote_op::store32_wake, &w, v);
}

void polite_pause(int round) {
  check_abort();
  if (round < 16) {
    sched_yield();
    return;
  }
  const long ns = round < 64 ? 20'000L : 200'000L;
  timespec ts{0, ns};
  nanosleep(&ts, nullptr);
}

}  // namespace upc::detail
