// Names that other threads may read, kept where every thread can read them.
//
// A thread publishes `const char*` names in its slot and call records
// (blocked_function, last_function, the call records' function): the monitor,
// the deadlock report and the other threads read them. A string literal is at
// the same address in every thread and process of a run; a std::string's
// c_str() is not: on the processes and mpi backends it points into one
// process's private heap (the monitor once crashed in strlen on one), and it
// dangles once the string is gone. Names built at run time go through here.
#pragma once
#include <string_view>

namespace upc::detail {

// `name` copied into the run's shared name table (the same pointer for the same
// text), valid until the run ends. `fallback` (a literal) when the table is full
// or outside a run.
const char* shared_name(std::string_view name, const char* fallback) noexcept;

}  // namespace upc::detail
