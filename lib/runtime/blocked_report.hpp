// Where each thread is, in words, for the reports of a deadlock, a timeout and a
// long wait (monitor.cpp): "threads 2-63: waiting in upc_barrier at f.cpp:12".
// Reads the slots' blocked marks (control.hpp); names a lock's holder (lock.cpp).
#pragma once
#include <functional>
#include <string>

namespace upc::detail {

struct thread_slot;

std::string describe_blocked_threads(); // where each thread waits (runs of threads share a line)
// The same from slots given per thread (across hosts: hosts_slots.hpp's copies).
std::string describe_blocked_threads(const std::function<const thread_slot&(int)>& slot_of);
std::string last_call_text(const thread_slot& s);  // " (last runtime call: f at file:line)" or ""

}  // namespace upc::detail
