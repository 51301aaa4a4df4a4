// What is known about one address of a backtrace: its functions with file and
// line from the debug information, through libupcemu_backtrace.so
// (backtrace_module.hpp), else the name the dynamic symbol table gives (all a
// program's own functions, since programs link with -rdynamic); and the file it
// was loaded from, with the offset there.
#include <cxxabi.h>
#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <string>
#include <system_error>

#include "backtrace.hpp"
#include "backtrace_module.hpp"

// Set by lib/meson.build: the module in the build tree and where `meson install`
// puts it.
#ifndef UPCEMU_BACKTRACE_MODULE_BUILD
#define UPCEMU_BACKTRACE_MODULE_BUILD ""
#endif
#ifndef UPCEMU_BACKTRACE_MODULE_INSTALLED
#define UPCEMU_BACKTRACE_MODULE_INSTALLED ""
#endif
// This tree's build folder, where its programs and library were compiled.
#ifndef UPCEMU_BUILD_ROOT
#define UPCEMU_BUILD_ROOT ""
#endif

namespace upc::detail {

namespace {

// null when neither is there: reports then have names without file:line.
const backtrace_module_ops* module_ops() {
  static const backtrace_module_ops* ops = nullptr;
  static std::once_flag once;
  std::call_once(once, [] {
    for (const char* path : {UPCEMU_BACKTRACE_MODULE_BUILD, UPCEMU_BACKTRACE_MODULE_INSTALLED}) {
      if (!*path) continue;
      void* handle = ::dlopen(path, RTLD_NOW | RTLD_LOCAL);
      if (!handle) continue;
      auto entry = reinterpret_cast<const backtrace_module_ops* (*)()>(::dlsym(handle, "upcemu_backtrace_module_ops"));
      const backtrace_module_ops* found = entry ? entry() : nullptr;
      if (found && found->abi == backtrace_module_abi) {
        ops = found;
        return;
      }
      ::dlclose(handle);
    }
  });
  return ops;
}

std::string demangled(const char* name) {
  if (!name) return {};
  int status = 0;
  char* plain = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || !plain) return name;  // a C name, or not one the ABI knows
  std::string out(plain);
  std::free(plain);
  return out;
}

// A source file's path, whole. DWARF 5 gives a file's folder relative to the
// folder the compiler ran in (`c++ ../src/prog.cpp` in build/: "../src"), and
// GCC 12's libbacktrace returns it so, without that folder (DW_AT_comp_dir),
// which it does not tell. Where the compiler ran is then guessed: the first of
// the working directory, the program's folder and this tree's build folder
// where the file is.
std::string whole_path(const char* file) {
  namespace fs = std::filesystem;
  const fs::path given(file);
  if (given.is_absolute()) return given.lexically_normal().string();
  std::error_code ec;
  std::string bases[3];
  bases[0] = fs::current_path(ec).string();
  bases[1] = fs::read_symlink("/proc/self/exe", ec).parent_path().string();
  bases[2] = UPCEMU_BUILD_ROOT;
  for (const std::string& base : bases) {
    if (base.empty()) continue;
    const fs::path candidate = (fs::path(base) / given).lexically_normal();
    if (fs::exists(candidate, ec)) return candidate.string();
  }
  return given.lexically_normal().string();
}

int add_function(void* data, const char* function, const char* file, int line) {
  auto& out = *static_cast<frame_description*>(data);
  out.functions.push_back(source_frame{demangled(function), file ? whole_path(file) : "", line});
  return 0;
}

bool starts_with(const char* s, const char* prefix) { return std::strncmp(s, prefix, std::strlen(prefix)) == 0; }

// The system's shared libraries, where the program's code never is.
bool system_path(const char* path) {
  for (const char* dir : {"/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/"})
    if (starts_with(path, dir)) return true;
  return starts_with(path, "linux-vdso") || starts_with(path, "linux-gate");
}

}  // namespace

frame_description look_up_frame(const void* pc) {
  frame_description out;
  Dl_info info{};
  const bool loaded = ::dladdr(pc, &info) != 0 && info.dli_fname;
  if (loaded) {
    out.module = info.dli_fname;
    out.offset = reinterpret_cast<std::uintptr_t>(pc) - reinterpret_cast<std::uintptr_t>(info.dli_fbase);
    // The main program is the module that holds this function (the runtime is linked in statically).
    Dl_info self{};
    const bool main_program = ::dladdr(reinterpret_cast<const void*>(&look_up_frame), &self) != 0 &&
                              self.dli_fbase == info.dli_fbase;
    out.system_library = !main_program && system_path(info.dli_fname);
  }
  if (const backtrace_module_ops* ops = module_ops()) {
    ops->describe(reinterpret_cast<std::uintptr_t>(pc), add_function, &out);
    out.runtime_symbol = ops->in_runtime(reinterpret_cast<std::uintptr_t>(pc));
  }
  if (out.functions.empty() && loaded && info.dli_sname) out.functions.push_back(source_frame{demangled(info.dli_sname), "", 0});
  return out;
}

}  // namespace upc::detail
