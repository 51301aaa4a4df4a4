// Report lines from return addresses (backtrace.hpp): taking them, telling the
// program's frames from upcemu's and the system's, and writing each frame.
#include <unwind.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <string_view>
#include <system_error>

#include "backtrace.hpp"

// Set by lib/meson.build: where upcemu's own sources and headers are, in this
// tree and once installed. Code from there is the runtime's, even inlined into
// the program (shared_array's operator[], <upc.h>'s inline functions).
#ifndef UPCEMU_SOURCE_ROOT
#define UPCEMU_SOURCE_ROOT ""
#endif
#ifndef UPCEMU_BUILD_ROOT
#define UPCEMU_BUILD_ROOT ""
#endif
#ifndef UPCEMU_INSTALLED_HEADERS
#define UPCEMU_INSTALLED_HEADERS ""
#endif
#ifndef UPCEMU_INSTALLED_UPCC
#define UPCEMU_INSTALLED_UPCC ""
#endif

// Defined by runtime/main.cpp when upcemu's main() is the program's.
extern "C" __attribute__((weak)) const bool upcemu_main_is_runtime;

namespace upc::detail {

namespace {

std::atomic<backtrace_detail> g_detail{backtrace_detail::program};

struct unwind_walk {
  void** pcs;
  int capacity, skip, count;
};

_Unwind_Reason_Code add_frame(_Unwind_Context* context, void* arg) {
  auto& walk = *static_cast<unwind_walk*>(arg);
  int exact = 0;  // the frame a signal interrupted: its address is the faulting instruction's
  const std::uintptr_t ip = _Unwind_GetIPInfo(context, &exact);
  if (ip == 0) return _URC_END_OF_STACK;
  if (walk.skip > 0) {
    --walk.skip;
    return _URC_NO_REASON;
  }
  if (walk.count >= walk.capacity) return _URC_END_OF_STACK;
  walk.pcs[walk.count++] = reinterpret_cast<void*>(exact ? ip : ip - 1);
  return _URC_NO_REASON;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// "ns::f<int>" of "void ns::f<int>(int) const": the name without return type
// and parameters, by which namespace tells whose a function is.
std::string_view qualified_name(std::string_view f) {
  constexpr std::string_view anonymous = "(anonymous namespace)";
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < f.size(); ++i) {
    const char c = f[i];
    if (c == '(' && f.substr(i, anonymous.size()) == anonymous) {
      i += anonymous.size() - 1;
      continue;
    }
    if (c == '<') ++depth;
    else if (c == '>' && depth > 0) --depth;
    else if (depth == 0 && c == ' ') start = i + 1;  // after a return type
    else if (depth == 0 && c == '(') return f.substr(start, i - start);
  }
  return f.substr(start);
}

// upcemu's namespaces and C interface, the libraries it implements (UPC's
// upc_*, whose inline functions in <upc.h> are compiled into the program,
// Berkeley's bupc_*, upccoll_*, xupc_*), what the translator adds to a UPC
// program (its main() is __upcc_user_main), and the libraries upcemu runs on.
bool runtime_name(std::string_view function) {
  const std::string_view name = qualified_name(function);
  if (name == "__upcc_user_main" || name == "upc_main") return false;
  for (std::string_view prefix : {"upc::", "std::", "__gnu_cxx::", "__cxxabiv1::", "boost::", "doctest::", "upcemu_",
                                  "__upcc_", "upcc_", "__wrap_", "upc_", "bupc_", "upccoll_", "xupc_"})
    if (starts_with(name, prefix)) return true;
  return name == "_start" || (name == "main" && &upcemu_main_is_runtime != nullptr);
}

bool runtime_file(const std::string& file) {
  static const std::string roots[] = {
      std::string(UPCEMU_SOURCE_ROOT) + "/lib/", std::string(UPCEMU_SOURCE_ROOT) + "/include/",
      std::string(UPCEMU_SOURCE_ROOT) + "/tools/upcc/include/", std::string(UPCEMU_BUILD_ROOT) + "/lib/",
      std::string(UPCEMU_BUILD_ROOT) + "/include/", std::string(UPCEMU_INSTALLED_HEADERS) + "/",
      std::string(UPCEMU_INSTALLED_UPCC) + "/include/",
      // the compiler's and the C library's headers
      "/usr/include/", "/usr/lib/gcc/"};
  const std::string normal = std::filesystem::path(file).lexically_normal().string();
  for (const std::string& root : roots)
    if (root.size() > 1 && starts_with(normal, root)) return true;
  return false;
}


std::string hex(std::uintptr_t x) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%jx", static_cast<std::uintmax_t>(x));
  return buf;
}

std::string frame_line(int number, const source_frame& f, const frame_description& where, const void* pc) {
  constexpr std::size_t longest_name = 300;  // instantiations of std::function and such run to pages
  std::string name = qualified_name(f.function) == "__upcc_user_main" ? "main" : f.function;
  if (name.size() > longest_name) name = name.substr(0, longest_name) + "...";
  std::string line = "    #" + std::to_string(number) + " ";
  const std::string in_module = where.module.empty() ? hex(reinterpret_cast<std::uintptr_t>(pc))
                                                     : where.module + "+" + hex(where.offset);
  if (name.empty()) line += in_module;
  else if (!f.file.empty()) line += name + " at " + shown_path(f.file) + ":" + std::to_string(f.line);
  else line += name + " in " + in_module;
  return line + "\n";
}

}  // namespace

// Relative to the working directory when inside it, as the program was named.
std::string shown_path(const std::string& file) {
  const std::filesystem::path normal = std::filesystem::path(file).lexically_normal();
  std::error_code ec;
  const std::filesystem::path here = std::filesystem::current_path(ec);
  if (ec || !normal.is_absolute()) return normal.string();
  const std::filesystem::path inside = normal.lexically_relative(here);
  if (inside.empty() || starts_with(inside.native(), "..")) return normal.string();
  return inside.string();
}

__attribute__((noinline)) int capture_frames(void** pcs, int capacity, int skip) noexcept {
  unwind_walk walk{pcs, capacity, skip + 1, 0};  // + 1: this function
  _Unwind_Backtrace(add_frame, &walk);
  return walk.count;
}

void warm_up_backtraces() noexcept {
  void* pcs[4];
  capture_frames(pcs, 4, 0);
}

void set_backtrace_detail(backtrace_detail detail) noexcept { g_detail.store(detail); }
backtrace_detail backtrace_setting() noexcept { return g_detail.load(); }

bool is_program_frame(const source_frame& function, const frame_description& where) {
  if (where.system_library) return false;
  // Code with debug information is whose its file is; upcemu's own, built
  // without, is known by its symbols (or, without the module, its names).
  if (!function.file.empty()) return !runtime_file(function.file) && !runtime_name(function.function);
  return !where.runtime_symbol && !runtime_name(function.function);
}

std::string describe_frames(void* const* pcs, int count, std::size_t room) {
  const backtrace_detail detail = backtrace_setting();
  if (detail == backtrace_detail::off || count <= 0) return "";
  const bool full = detail == backtrace_detail::full;
  constexpr std::size_t closing_room = 200;
  std::string out;
  int shown = 0, runtime_hidden = 0, program_hidden = 0, left_out = 0;
  for (int i = 0; i < count; ++i) {
    frame_description where = look_up_frame(pcs[i]);
    if (where.functions.empty()) where.functions.emplace_back();  // nothing known: its module and offset
    for (const source_frame& f : where.functions) {
      if (!full && !is_program_frame(f, where)) {
        ++runtime_hidden;
        continue;
      }
      if (!full && shown >= max_program_frames) {
        ++program_hidden;
        continue;
      }
      const std::string line = frame_line(shown, f, where, pcs[i]);
      if (out.size() + line.size() + closing_room > room) {
        ++left_out;
        continue;
      }
      out += line;
      ++shown;
    }
  }
  if (!full && shown == 0) out += "    (no frame of the program's own)\n";
  if (program_hidden > 0 || runtime_hidden > 0) {
    out += "    (not shown: ";
    if (program_hidden > 0) out += std::to_string(program_hidden) + " more frames of the program and ";
    out += std::to_string(runtime_hidden) +
           " frames of upcemu and the system libraries; upcrun --backtrace=full or UPCEMU_BACKTRACE=full shows "
           "every frame)\n";
  }
  if (left_out > 0) out += "    (" + std::to_string(left_out) + " more frames did not fit in the report)\n";
  return out.size() <= room ? out : std::string();
}

}  // namespace upc::detail
