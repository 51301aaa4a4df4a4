// The backtrace of upc::error and of failure reports, in process (issue 27.11):
// which frames are the program's, file:line of its functions (this file is
// built with -g), the settings (launch_options::backtrace, UPCEMU_BACKTRACE),
// the cap on the program's frames and on the report's room. check_backtrace.py
// runs whole programs through upcrun.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <dlfcn.h>

#include <chrono>
#include <cstdlib>
#include <regex>
#include <string>
#include <thread>

#include "../../lib/runtime/backtrace.hpp"
#include "upc.h"

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }
bool has_mangled_name(const std::string& s) { return std::regex_search(s, std::regex("(^|[^A-Za-z0-9_])_Z[A-Za-z0-9_]")); }

struct detail_scope {  // the setting for one test case, the default after it
  explicit detail_scope(upc::backtrace_detail d) { upc::detail::set_backtrace_detail(d); }
  ~detail_scope() { upc::detail::set_backtrace_detail(upc::backtrace_detail::program); }
};

int g_line = 0;

}  // namespace

// Outside the anonymous namespace: their names are plain in the frames.
__attribute__((noinline)) upc::error raised_here() {
  g_line = __LINE__ + 1;
  return upc::error("raised_here", "on purpose", -1);
}

__attribute__((noinline)) upc::error raised_deep(int depth) {
  if (depth == 0) return raised_here();
  upc::error e = raised_deep(depth - 1);
  asm volatile("");  // not a tail call: each level keeps its frame
  return e;
}

TEST_CASE("error::backtrace: the program's function first, at its file:line, nothing of upcemu's") {
  detail_scope program(upc::backtrace_detail::program);
  const std::string bt = raised_here().backtrace();
  INFO(bt);
  CHECK(first_line(bt).rfind("    #0 raised_here() at ", 0) == 0);
  CHECK(contains(first_line(bt), "tests/failure/test_backtrace.cpp:" + std::to_string(g_line)));
  CHECK(!contains(bt, "upc::"));
  CHECK(!contains(bt, "std::"));
  CHECK(!contains(bt, "libc.so"));
  CHECK(contains(bt, " frames of upcemu and the system libraries; upcrun --backtrace=full"));
  CHECK(!has_mangled_name(bt));
}

TEST_CASE("error::backtrace under full: every frame, upcemu's without debug information as module+offset") {
  detail_scope full(upc::backtrace_detail::full);
  const std::string bt = raised_here().backtrace();
  INFO(bt);
  CHECK(first_line(bt).rfind("    #0 upc::error::error(", 0) == 0);
  CHECK(contains(bt, "raised_here() at "));
  CHECK(std::regex_search(bt, std::regex(R"(upc::error::error\(.*\) in \S+\+0x[0-9a-f]+\n)")));
  CHECK(!contains(bt, "not shown"));
  CHECK(!has_mangled_name(bt));
}

TEST_CASE("error::backtrace under off: none") {
  detail_scope off(upc::backtrace_detail::off);
  CHECK(raised_here().backtrace().empty());
}

TEST_CASE("at most 10 frames of the program, and how many more there were") {
  detail_scope program(upc::backtrace_detail::program);
  const std::string bt = raised_deep(14).backtrace();  // raised_here, 15 raised_deep, the test case
  INFO(bt);
  CHECK(contains(bt, "    #9 raised_deep(int) at "));
  CHECK(!contains(bt, "    #10 "));
  CHECK(contains(bt, "(not shown: 7 more frames of the program and "));
}

TEST_CASE("a backtrace keeps within the room it is given, and says what did not fit") {
  detail_scope full(upc::backtrace_detail::full);
  const upc::error e = raised_deep(20);
  const std::string all = upc::detail::describe_frames(const_cast<void* const*>(e.frames().data()),
                                                       static_cast<int>(e.frames().size()));
  const std::string some = upc::detail::describe_frames(const_cast<void* const*>(e.frames().data()),
                                                        static_cast<int>(e.frames().size()), 600);
  INFO(some);
  CHECK(all.size() > 600);
  CHECK(some.size() <= 600);
  CHECK(std::regex_search(some, std::regex(R"(\n    \(\d+ more frames did not fit in the report\)\n$)")));
}

TEST_CASE("whose frame: the program's functions and files, not upcemu's, the translator's or the system's") {
  using upc::detail::frame_description;
  using upc::detail::is_program_frame;
  using upc::detail::source_frame;
  const frame_description program_module{{}, "/home/u/prog", 0x10, false};
  const frame_description libc{{}, "/lib/x86_64-linux-gnu/libc.so.6", 0x10, true};
  const std::string root = UPCEMU_TEST_SOURCE_ROOT;
  CHECK(is_program_frame({"solve(int)", "/home/u/prog.cpp", 3}, program_module));
  CHECK(is_program_frame({"upc_main(int, char**)::{lambda()#1}::operator()() const", "", 0}, program_module));
  CHECK(is_program_frame({"(anonymous namespace)::step()", "", 0}, program_module));
  CHECK(is_program_frame({"__upcc_user_main", "/home/u/prog.upc", 9}, program_module));  // a UPC program's main
  CHECK(!is_program_frame({"upc::detail::fail(char const*)", "", 0}, program_module));
  CHECK(!is_program_frame({"void std::__invoke_impl<void, F&>(F&)", "", 0}, program_module));
  CHECK(!is_program_frame({"boost::detail::thread_data<F>::run()", "", 0}, program_module));
  CHECK(!is_program_frame({"upcemu_memget_at", "", 0}, program_module));      // the C interface
  CHECK(!is_program_frame({"upcemu_c_program_main", "", 0}, program_module)); // what upcc adds
  CHECK(!is_program_frame({"__wrap__exit", "", 0}, program_module));
  // the UPC library's names, <upc.h>'s inline functions compiled into the program included
  CHECK(!is_program_frame({"upc_unlock(upc_lock_t*)", "", 0}, program_module));
  CHECK(!is_program_frame({"bupc_memput_vlist", "", 0}, program_module));
  CHECK(!is_program_frame({"upccoll_bcast", "", 0}, program_module));
  CHECK(is_program_frame({"upc_main(int, char**)", "", 0}, program_module));  // the C++ program's
  // This program has a main() of its own (runtime/main.cpp's is not linked: the
  // UPC program's report through upcrun shows no frame of that one)
  CHECK(is_program_frame({"main", "", 0}, program_module));
  CHECK(!is_program_frame({"operator[]", root + "/include/upc/shared_array.hpp", 118}, program_module));
  CHECK(!is_program_frame({"upcemu_addr", root + "/include/upcemu_c.h", 40}, program_module));
  CHECK(!is_program_frame({"x", root + "/lib/runtime/barrier.cpp", 40}, program_module));
  CHECK(!is_program_frame({"std::vector<int>::at(unsigned long)", "/usr/include/c++/12/bits/stl_vector.h", 1}, program_module));
  CHECK(!is_program_frame({"start_thread", "", 0}, libc));
  CHECK(is_program_frame({"helper", root + "/tests/failure/test_backtrace.cpp", 1}, program_module));
  // Without debug information, upcemu's functions are known by their symbols
  // (runtime_symbols.py's table), whatever their names
  const frame_description runtime_code{{}, "/home/u/prog", 0x10, false, true};
  CHECK(!is_program_frame({"upc_unlock(upc_lock_t*)", "", 0}, runtime_code));
  CHECK(!is_program_frame({"(anonymous namespace)::at_site<F>(char const*, unsigned int, F&&)", "", 0}, runtime_code));
  CHECK(is_program_frame({"solve(int)", "/home/u/prog.cpp", 3}, runtime_code));  // a file says whose
}

TEST_CASE("a failed run's report: the body's frame under program, upcemu's under full, no backtrace when quiet") {
  upc::launch_options o;
  o.threads = 2;
  o.heap_per_thread = 1u << 20;
  int line = 0;
  auto body = [&line] {
    if (MYTHREAD == 1) {
      line = __LINE__ + 1;
      throw upc::error("body", "on purpose", MYTHREAD);
    }
  };
  o.backtrace = upc::backtrace_detail::program;
  upc::run_result r = upc::run(o, body);
  INFO(r.error);
  REQUIRE(r.failed);
  CHECK(contains(r.error, "\n  backtrace:\n    #0 DOCTEST_ANON_FUNC_"));  // the body, a lambda
  CHECK(contains(r.error, "::{lambda()#1}::operator()() const at "));
  CHECK(contains(first_line(r.error.substr(r.error.find("    #0 "))), "test_backtrace.cpp:" + std::to_string(line)));
  CHECK(!contains(r.error, "upc::detail::"));
  CHECK(!has_mangled_name(r.error));

  o.backtrace = upc::backtrace_detail::full;
  r = upc::run(o, body);
  CHECK(contains(r.error, "upc::detail::run_upc_thread("));
  CHECK(contains(r.error, "test_backtrace.cpp:" + std::to_string(line)));

  o.backtrace = upc::backtrace_detail::off;
  r = upc::run(o, body);
  CHECK(r.failed);
  CHECK(!contains(r.error, "backtrace"));

  o.backtrace = upc::backtrace_detail::program;
  o.quiet = true;
  r = upc::run(o, body);
  CHECK(r.failed);
  CHECK(!contains(r.error, "backtrace"));
  upc::detail::set_backtrace_detail(upc::backtrace_detail::program);
}

TEST_CASE("UPCEMU_BACKTRACE: program, full or off; anything else refused naming it") {
  struct env_scope {
    ~env_scope() { ::unsetenv("UPCEMU_BACKTRACE"); }
  } restore;
  CHECK(upc::launch_options::from_environment().backtrace == upc::backtrace_detail::program);
  ::setenv("UPCEMU_BACKTRACE", "full", 1);
  CHECK(upc::launch_options::from_environment().backtrace == upc::backtrace_detail::full);
  ::setenv("UPCEMU_BACKTRACE", "off", 1);
  CHECK(upc::launch_options::from_environment().backtrace == upc::backtrace_detail::off);
  ::setenv("UPCEMU_BACKTRACE", "program", 1);
  CHECK(upc::launch_options::from_environment().backtrace == upc::backtrace_detail::program);
  ::setenv("UPCEMU_BACKTRACE", "all", 1);
  CHECK_THROWS_WITH(upc::launch_options::from_environment(),
                    doctest::Contains("UPCEMU_BACKTRACE='all' is invalid: expected 'program', 'full' or 'off'"));
}

TEST_CASE("a crash's backtrace: read in a child process; the raw addresses when it cannot answer in time") {
  detail_scope program(upc::backtrace_detail::program);
  void* pcs[upc::detail::max_backtrace_frames];
  const int n = upc::detail::capture_frames(pcs, upc::detail::max_backtrace_frames, 0);
  static char out[16384];
  std::string text(out, upc::detail::crash_backtrace_text(pcs, n, out, sizeof out));
  INFO(text);
  CHECK(text.rfind("    #0 DOCTEST_ANON_FUNC_", 0) == 0);  // this test case, at its line
  CHECK(contains(first_line(text), "test_backtrace.cpp:"));

  // The child finds the dynamic loader's lock taken for good (another thread
  // was inside dlopen when the crash came): after 5 s, the addresses.
  std::thread holder([] { ::dlopen(LOADER_LOCK_HOLDER, RTLD_NOW); });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // now in its constructor, the lock held
  const auto start = std::chrono::steady_clock::now();
  text.assign(out, upc::detail::crash_backtrace_text(pcs, n, out, sizeof out));
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  holder.join();
  INFO(text);
  CHECK(text.rfind("    (the symbols could not be read in time; return addresses:)\n    0x", 0) == 0);
  CHECK(waited > 4.5);
  CHECK(waited < 5.5);
}
