// Declarations shared by test_consistency_strict.cpp (which includes
// <upc_strict.h>) and test_consistency.cpp (relaxed, the default): what two files
// with different default consistencies can share (issue 8, friction:
// <upc_strict.h> was a no-op).
#pragma once
#include <cstddef>

#include "upc.h"

namespace consistency_test {

template <class T, std::size_t B, upc::consistency C>
constexpr upc::consistency consistency_of(const upc::sptr<T, B, C>&) {
  return C;
}

// Written without a consistency, the parameter type is each file's own, so these
// are two different functions (one per file, different mangled names): each file
// calls its own, never the other's.
inline upc::consistency default_of_this_file(upc::sptr<long> p) { return consistency_of(p); }

// Functions called across the two files spell the consistency of their typed
// pointers-to-shared (shared void * is the same type in every file).
long sum_in_strict_file(upc::sptr<const long, 1, upc::strict> p, std::size_t n);   // in the strict file
long sum_in_relaxed_file(upc::sptr<const long, 1, upc::relaxed> p, std::size_t n);  // in the relaxed file
void zero_in_strict_file(upc::sptr<void> p, std::size_t bytes);                     // in the strict file
upc::consistency strict_file_default();                                              // in the strict file

// An SPMD body in the strict file that uses the library (allocation, memory
// transfers, collectives, locks) through strict-by-default types.
void strict_file_body();

}  // namespace consistency_test
