// The table of functions of libupcemu_backtrace.so (lib/backtrace/module.cpp),
// the module that reads a program's debug information for the backtraces of
// failure reports. It holds libbacktrace (GCC's, from Debian's libgcc-12-dev),
// which is a static archive: in a module opened with dlopen, programs link
// nothing more than before (upcc's link line, the .pc files, Meson's
// dependency), and a program that cannot find the module still gets function
// names from its symbol table (frame_lookup.cpp).
#pragma once
#include <cstdint>

namespace upc::detail {

// Bumped whenever the table changes, so that a stale module is refused.
constexpr int backtrace_module_abi = 2;

// One function at a program counter: the innermost inlined function first, the
// function they are inlined into last. Any of the strings may be null; they are
// valid during the call only. Returning non-zero stops the walk.
using source_position_callback = int (*)(void* data, const char* function, const char* file, int line);

struct backtrace_module_ops {
  int abi;
  // Calls back for each function at pc (an address inside the instruction of
  // interest, not a return address) and returns how many calls it made: 0 when
  // neither the debug information nor the symbol table knows pc.
  int (*describe)(std::uintptr_t pc, source_position_callback callback, void* data);
  // Whether the function that holds pc is one of upcemu's own, by its symbol
  // (the table lib/backtrace/runtime_symbols.py makes from upcemu's libraries).
  bool (*in_runtime)(std::uintptr_t pc);
};

}  // namespace upc::detail

extern "C" const upc::detail::backtrace_module_ops* upcemu_backtrace_module_ops();
