// libupcemu_backtrace.so: file, line and function of a program counter of this
// process, from its debug information (DWARF), through libbacktrace; the symbol
// table's name where there is none (backtrace_module.hpp).
#include <backtrace.h>
#include <link.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "../runtime/backtrace_module.hpp"

// libbacktrace reads the debug information of every module that
// dl_iterate_phdr lists, at its first use. The system's libraries are never the
// program's, and where their debug files are installed (libc6-dbg), reading
// and inflating them took 0.4 s of every report; so libbacktrace's calls to
// dl_iterate_phdr (redirected here by the linker's --wrap, lib/meson.build)
// list the program and its own libraries only, and the others' frames keep
// the names the dynamic loader gives (frame_lookup.cpp).
extern "C" int __real_dl_iterate_phdr(int (*callback)(dl_phdr_info*, std::size_t, void*), void* data);

// runtime_symbols.cpp, generated when the libraries are built.
extern const std::uint64_t upcemu_runtime_symbol_hashes[];
extern const std::size_t upcemu_runtime_symbol_count;

namespace {

struct module_filter {
  int (*callback)(dl_phdr_info*, std::size_t, void*);
  void* data;
};

bool system_module(const char* name) {
  for (const char* prefix : {"/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/", "linux-vdso", "linux-gate"})
    if (std::strncmp(name, prefix, std::strlen(prefix)) == 0) return true;
  return false;
}

int pass_program_modules(dl_phdr_info* info, std::size_t size, void* data) {
  auto& filter = *static_cast<module_filter*>(data);
  if (info->dlpi_name && system_module(info->dlpi_name)) return 0;
  return filter.callback(info, size, filter.data);
}

}  // namespace

extern "C" int __wrap_dl_iterate_phdr(int (*callback)(dl_phdr_info*, std::size_t, void*), void* data) {
  module_filter filter{callback, data};
  return __real_dl_iterate_phdr(pass_program_modules, &filter);
}

namespace {

void ignore_error(void*, const char*, int) {}

// libbacktrace keeps what it has read of each file here, for the process's life.
// threaded = 1: several threads may describe frames at once.
backtrace_state* state() {
  static backtrace_state* const s = backtrace_create_state(nullptr, 1, ignore_error, nullptr);
  return s;
}

struct position {
  std::string function, file;
  int line = 0;
  bool has_function = false, has_file = false;
};

int add_position(void* data, std::uintptr_t, const char* file, int line, const char* function) {
  if (!file && !function) return 0;  // nothing known about this pc
  auto& out = *static_cast<std::vector<position>*>(data);
  position p;
  if (function) p.function = function, p.has_function = true;
  if (file) p.file = file, p.has_file = true;
  p.line = line;
  out.push_back(std::move(p));
  return 0;
}

void add_symbol(void* data, std::uintptr_t, const char* name, std::uintptr_t, std::uintptr_t) {
  if (name) *static_cast<std::string*>(data) = name;
}

int describe(std::uintptr_t pc, upc::detail::source_position_callback callback, void* data) {
  backtrace_state* s = state();
  if (!s) return 0;
  std::vector<position> found;
  backtrace_pcinfo(s, pc, add_position, ignore_error, &found);
  // The function that holds pc (the last one, the others are inlined into it)
  // is named by the symbol table: the only name of code without debug
  // information (a release-built library linked into a program built with -g),
  // and for C++ a better one than the debug information's, which may lack the
  // namespace, class and parameters ("operator()" of a lambda).
  std::string symbol;
  backtrace_syminfo(s, pc, add_symbol, ignore_error, &symbol);
  if (!symbol.empty() && (found.empty() || !found.back().has_function || symbol.rfind("_Z", 0) == 0)) {
    if (found.empty()) found.emplace_back();
    found.back().function = symbol;
    found.back().has_function = true;
  }
  int calls = 0;
  for (const position& p : found) {
    ++calls;
    if (callback(data, p.has_function ? p.function.c_str() : nullptr, p.has_file ? p.file.c_str() : nullptr, p.line))
      break;
  }
  return calls;
}

// As runtime_symbols.py computes it.
std::uint64_t fnv1a64(const std::string& name) {
  std::uint64_t h = 0xcbf29ce484222325u;
  for (unsigned char c : name) h = (h ^ c) * 0x100000001b3u;
  return h;
}

bool in_runtime(std::uintptr_t pc) {
  backtrace_state* s = state();
  if (!s) return false;
  std::string symbol;
  backtrace_syminfo(s, pc, add_symbol, ignore_error, &symbol);
  if (symbol.empty()) return false;
  const std::uint64_t* end = upcemu_runtime_symbol_hashes + upcemu_runtime_symbol_count;
  return std::binary_search(upcemu_runtime_symbol_hashes, end, fnv1a64(symbol));
}

constexpr upc::detail::backtrace_module_ops ops{upc::detail::backtrace_module_abi, describe, in_runtime};

}  // namespace

extern "C" __attribute__((visibility("default"))) const upc::detail::backtrace_module_ops* upcemu_backtrace_module_ops() {
  return &ops;
}
