// The runtime's own barrier of all threads: collective calls (IN/OUT ALLSYNC of
// the world team, the --check comparisons, scratch growth) and collective
// allocations synchronise here, never on the user's upc_barrier, so a thread in
// a collective can never pair with one in upc_barrier. Passing it also compares
// this thread's collective call with thread 0's (collective_call.hpp).
#pragma once
#include <atomic>
#include <cstdint>

namespace upc::detail {

// Split form (the non-blocking executor polls it): arrive returns the phase to
// wait for; passed() is true once every thread has arrived, and then checks
// the calls match (it may fail).
std::uint32_t world_barrier_arrive();
bool world_barrier_passed(std::uint32_t phase);
const std::atomic<std::uint32_t>& world_barrier_word() noexcept;
std::atomic<std::uint32_t>& world_barrier_sleepers() noexcept;

// Arrive and wait (sleeping after a short while). `function` names the wait
// when no collective call is in progress.
void world_barrier(const char* function);

}  // namespace upc::detail
