#include "single_valued.hpp"

#include "control.hpp"
#include "hosts.hpp"
#include "remote_ops.hpp"

namespace upc::detail {

single_valued& single_valued::add(const char* name, std::uint64_t value, value_text text, const char* verb) {
  if (n_ < single_valued_slots) v_[n_++] = entry{name, value, text, verb};
  return *this;
}

void single_valued::publish(std::uint32_t round) const {
  thread_slot& me = my_slot();
  for (int i = 0; i < n_; ++i) me.single_valued[round & 1][i].store(v_[i].value, std::memory_order_relaxed);
}

void single_valued::verify(std::uint32_t round, int reference_thread) const {
  if (reference_thread == tl_mythread) return;
  const thread_slot& ref = control().slots[reference_thread];
  // Across hosts the reference thread's slot is in its own host's control block.
  const bool remote = several_hosts() && !on_my_host(reference_thread);
  for (int i = 0; i < n_; ++i) {
    const std::atomic<std::uint64_t>& word = ref.single_valued[round & 1][i];
    const std::uint64_t theirs =
        remote ? remote_atomic(reference_thread, remote_op::load64, &word, 0) : word.load(std::memory_order_relaxed);
    if (theirs != v_[i].value) fail_difference(i, theirs, reference_thread);
  }
}

void single_valued::publish_to(std::atomic<std::uint64_t>* mine) const {
  for (int i = 0; i < n_; ++i) mine[i].store(v_[i].value, std::memory_order_relaxed);
}

void single_valued::verify_against(const std::atomic<std::uint64_t>* reference, int reference_thread) const {
  if (reference_thread == tl_mythread) return;
  for (int i = 0; i < n_; ++i) {
    const std::uint64_t theirs = reference[i].load(std::memory_order_relaxed);
    if (theirs != v_[i].value) fail_difference(i, theirs, reference_thread);
  }
}

int single_valued::first_difference(const std::uint64_t* theirs) const noexcept {
  for (int i = 0; i < n_; ++i)
    if (theirs[i] != v_[i].value) return i;
  return -1;
}

std::string single_valued::difference(int i, std::uint64_t theirs, int their_thread) const {
  const entry& e = v_[i];
  auto say = [&](std::uint64_t v) { return e.text ? e.text(v) : std::to_string(v); };
  return std::string(e.name) + " must be single-valued (the same on every thread): this thread " + e.verb + " " +
         say(e.value) + ", thread " + std::to_string(their_thread) + " " + e.verb + " " + say(theirs);
}

void single_valued::fail_difference(int i, std::uint64_t theirs, int their_thread) const {
  fail(function_, difference(i, theirs, their_thread));
}

}  // namespace upc::detail
