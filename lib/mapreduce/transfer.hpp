// How ApplyReduce moves the intermediate pairs to the thread(s) that reduce them
// (seed 003 §4.2.2): with the extended collectives (collFlag on) or element by
// element through shared memory (collFlag off).
#pragma once
#include <cstddef>
#include <vector>

namespace upc::mr {

struct transfer {
  int root;          // the thread that gathers, or -1: every thread
  bool collectives;  // extended collectives, or one element at a time
};

// Every thread's `mine` (counts[t] elements of `unit` bytes on thread t) to the
// destination(s), concatenated in thread order; empty on the other threads.
// Collective: every thread calls it with the same counts.
std::vector<unsigned char> gather_fixed(const transfer& how, const void* mine, const std::vector<long long>& counts,
                                        std::size_t unit);

// The same for byte strings of different sizes: thread t has bytes[t] bytes,
// made of elements whose sizes (all threads', in thread order) the
// destination(s) know from `sizes` (used to move them one by one).
std::vector<unsigned char> gather_raw(const transfer& how, const void* mine, const std::vector<long long>& bytes,
                                      const std::vector<int>& sizes);

}  // namespace upc::mr
