// Single-valued arguments (UPC 1.3 §7.4 and the collective allocations): the
// values of one call that must be the same on every thread taking part. One
// service for the runtime's collective allocations and declarations, the
// atomic domains and every collective library (issue 9).
//
// A call lists its values (name, value, how to say it), then either
//   - publishes them in the calling thread's slot and, after a synchronisation
//     every participant makes anyway, verifies them against a reference
//     thread's slot (`round` is a number every participant agrees on for this
//     call: consecutive calls alternate between two sets of slots), or
//   - compares them with values it got some other way (a collective's posts).
// A difference stops the run with the function, the argument, both values and
// both threads: "upc_all_alloc: argument nbytes must be single-valued (the same
// on every thread): this thread passed 8, thread 0 passed 16".
#pragma once
#include <cstddef>
#include <atomic>
#include <cstdint>
#include <string>

#include "upc/detail/static_object.hpp"

namespace upc::detail {

constexpr int single_valued_slots = 24;

using value_text = std::string (*)(std::uint64_t);

class single_valued {
 public:
  explicit single_valued(const char* function) : function_(function) {}

  // `name` as the message says it ("argument nbytes", "the element count"),
  // `verb` what the thread did with it ("passed", "declared").
  single_valued& add(const char* name, std::uint64_t value, value_text text = nullptr, const char* verb = "passed");
  int size() const noexcept { return n_; }
  std::uint64_t value(int i) const noexcept { return v_[i].value; }

  // Slot transport: publish for `round`, synchronise, verify.
  void publish(std::uint32_t round) const;
  void verify(std::uint32_t round, int reference_thread = 0) const;  // fails on a difference
  // The same through slots the caller provides (a team's): `mine` is this
  // thread's, `reference` the reference thread's, each single_valued_slots long.
  void publish_to(std::atomic<std::uint64_t>* mine) const;
  void verify_against(const std::atomic<std::uint64_t>* reference, int reference_thread) const;

  // The index of the first value that differs from theirs[i], or -1.
  int first_difference(const std::uint64_t* theirs) const noexcept;
  // "argument root must be single-valued (...): this thread passed 1, thread 3 passed 2"
  std::string difference(int i, std::uint64_t theirs, int their_thread) const;
  [[noreturn]] void fail_difference(int i, std::uint64_t theirs, int their_thread) const;

 private:
  struct entry {
    const char* name;
    std::uint64_t value;
    value_text text;
    const char* verb;
  };
  const char* function_;
  entry v_[single_valued_slots];
  int n_ = 0;
};

// collective_symmetric_alloc (upc/detail/static_object.hpp) that also checks
// `args` in its rendezvous (every value given, whether or not --check is on).
std::uint64_t collective_symmetric_alloc(std::size_t bytes_per_thread, const char* function, const allocation_label& label,
                                         const single_valued& args);

}  // namespace upc::detail
