// upcemu's getopt, getopt_long and getopt_long_only (lib/runtime/libc_getopt.cpp,
// the per-thread parsers include/upcemu_libc.h routes programs to) against glibc's
// own, on a table of argument vectors: for each, both parse it in a child process
// of their own (a fresh process's getopt state), and every return value, optind,
// optopt, optarg, long option index, flag, the final order of argv and every
// message on stderr must be the same. Then: two OS threads parsing at once each
// get their own results.
#include <doctest/doctest.h>
#include <getopt.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <barrier>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

// The parsers under test, by their own names (including upcemu_libc.h would turn
// the calls of glibc's below into calls of these).
extern "C" {
int* upcemu_optind_location(void);
int* upcemu_opterr_location(void);
int* upcemu_optopt_location(void);
char** upcemu_optarg_location(void);
int upcemu_getopt(int argc, char* const* argv, const char* optstring) noexcept;
int upcemu_getopt_long(int argc, char* const* argv, const char* optstring, const option* longopts,
                       int* longindex) noexcept;
int upcemu_getopt_long_only(int argc, char* const* argv, const char* optstring, const option* longopts,
                            int* longindex) noexcept;
}

namespace {

enum class kind { plain, long_options, long_only };

struct getopt_case {
  kind how;
  const char* optstring;
  std::vector<std::string> args;  // argv[1...]; argv[0] is "prog"
  bool quiet = false;             // opterr = 0
  bool posixly_correct = false;   // POSIXLY_CORRECT set
  int restart_after = -1;         // after that many calls the program sets optind = 0 (parse again)
  int skip_after = -1;            // ...or does optind++ (skips an argument itself)
};

int flag_target = 0;
const option long_options[] = {
    {"verbose", no_argument, nullptr, 'v'},
    {"value", required_argument, nullptr, 'V'},
    {"vendor", optional_argument, nullptr, 'e'},  // "--ve" is ambiguous between three
    {"flag", no_argument, &flag_target, 7},
    {"file", required_argument, nullptr, 'f'},
    {"fi", no_argument, nullptr, 'i'},            // an exact match among longer names
    {"dup-one", no_argument, nullptr, 'd'},       // "--dup": two names, one meaning
    {"dup-two", no_argument, nullptr, 'd'},
    {"xylophone", no_argument, nullptr, 'X'},
    {nullptr, 0, nullptr, 0},
};

// One parser's whole run over a case, as text: a line per call, then argv.
std::string run_parser(const getopt_case& c, bool glibc) {
  std::vector<std::string> storage{"prog"};
  storage.insert(storage.end(), c.args.begin(), c.args.end());
  std::vector<char*> argv;
  for (auto& s : storage) argv.push_back(s.data());
  argv.push_back(nullptr);
  const int argc = static_cast<int>(storage.size());

  std::string text;
  if (glibc) opterr = c.quiet ? 0 : 1;
  else *upcemu_opterr_location() = c.quiet ? 0 : 1;
  for (int call = 0; call < 64; ++call) {
    int longindex = -1;
    int r;
    if (glibc) {
      if (c.how == kind::plain) r = getopt(argc, argv.data(), c.optstring);
      else if (c.how == kind::long_options) r = getopt_long(argc, argv.data(), c.optstring, long_options, &longindex);
      else r = getopt_long_only(argc, argv.data(), c.optstring, long_options, &longindex);
    } else {
      if (c.how == kind::plain) r = upcemu_getopt(argc, argv.data(), c.optstring);
      else if (c.how == kind::long_options)
        r = upcemu_getopt_long(argc, argv.data(), c.optstring, long_options, &longindex);
      else r = upcemu_getopt_long_only(argc, argv.data(), c.optstring, long_options, &longindex);
    }
    const int ind = glibc ? optind : *upcemu_optind_location();
    const int opt = glibc ? optopt : *upcemu_optopt_location();
    const char* arg = glibc ? optarg : *upcemu_optarg_location();
    char line[512];
    std::snprintf(line, sizeof line, "return %d optind %d optopt %d optarg %s%s%s longindex %d flag %d\n", r, ind, opt,
                  arg ? "'" : "", arg ? arg : "null", arg ? "'" : "", longindex, flag_target);
    text += line;
    if (r == -1) break;
    if (call + 1 == c.restart_after) {
      if (glibc) optind = 0;
      else *upcemu_optind_location() = 0;
    }
    if (call + 1 == c.skip_after) {
      if (glibc) optind++;
      else ++*upcemu_optind_location();
    }
  }
  text += "argv:";
  for (int i = 0; i < argc; ++i) {
    text += ' ';
    text += argv[i];
  }
  return text + "\n";
}

std::string read_all(int fd) {
  std::string s;
  char buf[4096];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) s.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  return s;
}

// Runs the parser in a child process: its results, then what it wrote to stderr.
std::string in_child(const getopt_case& c, bool glibc) {
  int results[2], messages[2];
  REQUIRE(::pipe(results) == 0);
  REQUIRE(::pipe(messages) == 0);
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::close(results[0]);
    ::close(messages[0]);
    ::dup2(messages[1], 2);
    if (c.posixly_correct) ::setenv("POSIXLY_CORRECT", "1", 1);
    else ::unsetenv("POSIXLY_CORRECT");
    const std::string text = run_parser(c, glibc);
    std::fflush(stderr);
    if (::write(results[1], text.data(), text.size()) != static_cast<ssize_t>(text.size())) ::_exit(1);
    ::_exit(0);
  }
  ::close(results[1]);
  ::close(messages[1]);
  std::string text = read_all(results[0]);
  text += "stderr:\n" + read_all(messages[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
  return text;
}

const std::vector<getopt_case> cases = {
    {kind::plain, "ab:c::", {}},
    {kind::plain, "ab:c::", {"-a", "-b", "x", "-cy", "-c", "z"}},
    {kind::plain, "ab:c::", {"-abfoo", "-ab", "bar", "-ac"}},
    {kind::plain, "ab:", {"in1", "-a", "in2", "-b", "B", "in3", "--", "-a", "last"}},
    {kind::plain, "ab:", {"in1", "-a", "in2", "-b", "B", "in3", "--", "-a", "last"}, false, true},
    {kind::plain, "+ab:", {"in1", "-a", "in2", "-b", "B"}},
    {kind::plain, "+ab:", {"-a", "in2", "-b", "B"}},
    {kind::plain, "-ab:", {"in1", "-a", "in2", "-b", "B", "in3", "--", "-a"}},
    {kind::plain, "ab:", {"-a", "-b"}},
    {kind::plain, ":ab:", {"-a", "-b"}},
    {kind::plain, "+:ab:", {"-b"}},
    {kind::plain, "ab:", {"-a", "-b"}, true},
    {kind::plain, "ab:", {"-x", "-a", "-xay"}},
    {kind::plain, "ab:", {"-x", "-a"}, true},
    {kind::plain, "a:;", {"-:", "-;", "-a;"}},
    {kind::plain, "ab", {"-", "-a", "--"}},
    {kind::plain, "ab", {"--", "--", "-a"}},
    {kind::plain, "ab", {"x", "y", "--"}},
    {kind::plain, "ab", {"x", "-a", "y", "-b", "z", "-ab", "w"}},
    {kind::plain, "aW;", {"-W", "foo", "-a"}},
    {kind::long_options, "ab:", {"--verbose", "--value=3", "--value", "4", "--vendor", "--vendor=x", "--flag", "x",
                                 "--fi", "--fil", "f1", "--file=f2", "--xy", "--dup"}},
    {kind::long_options, "ab:", {"--ve", "--v", "--unknown", "--verbose=no", "--flag=1", "-a", "--value"}},
    {kind::long_options, "ab:", {"--ve", "--unknown=3", "--verbose=no", "--value"}, true},
    {kind::long_options, ":ab:", {"--value"}},
    {kind::long_options, "ab:", {"in", "--verbose", "in2", "--value", "v", "in3", "-a", "--", "--flag"}},
    {kind::long_options, "ab:", {"--=x", "--", "--verbose"}},
    {kind::long_options, "ab:W;", {"-W", "verbose", "-Wvalue=5", "-W", "fil", "q", "-Wnope", "-W"}},
    {kind::long_options, ":aW;", {"-W"}},
    {kind::long_options, "-ab:", {"x", "--verbose", "y", "-b", "1"}},
    {kind::long_only, "vab:x", {"-verbose", "-v", "-va", "-fi", "-file", "z", "-du", "-x", "-ab", "c"}},
    {kind::long_only, "vab:x", {"-ve", "-xy", "-q", "--verbose", "-", "-fl", "-a", "--fl"}},
    {kind::long_only, "vab:x", {"-dup", "-w", "-value=9", "-valu", "8"}},
    {kind::long_only, "vab:x", {"-ve", "-w"}, true},
    // the program moves optind itself
    {kind::plain, "ab:", {"x", "-a", "y", "-b", "1", "z"}, false, false, 2},
    {kind::plain, "ab:", {"-ab", "x", "-a", "y", "-a"}, false, false, 1},
    {kind::long_options, "ab:", {"in", "--verbose", "--value", "3", "-a", "out"}, false, false, -1, 2},
    {kind::plain, "ab:", {"-a", "skipped", "-b", "2", "w"}, false, false, -1, 1},
};

}  // namespace

TEST_CASE("getopt, getopt_long and getopt_long_only give what glibc's give, argv order and messages included") {
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const getopt_case& c = cases[i];
    std::string vector = c.optstring;
    for (const std::string& a : c.args) vector += " " + a;
    CAPTURE(i);
    CAPTURE(vector);
    CHECK(in_child(c, false) == in_child(c, true));
  }
}

TEST_CASE("getopt's state is each OS thread's own: two threads parse at once") {
  std::barrier step(2);
  std::string results[2];
  auto parse = [&](int me) {
    std::string a = "-a", b = "-b", v = std::to_string(me), file = "file", prog = "prog";
    v.insert(0, 1, 't');
    std::vector<char*> argv{prog.data()};
    for (int i = 0; i <= me; ++i) argv.push_back(a.data());  // thread 1 gives -a twice
    argv.push_back(file.data());
    argv.push_back(b.data());
    argv.push_back(v.data());
    argv.push_back(nullptr);
    for (int call = 0; call < 6; ++call) {
      const int r = upcemu_getopt(static_cast<int>(argv.size()) - 1, argv.data(), "ab:");
      if (r == 'a') results[me] += "a";
      if (r == 'b') results[me] += std::string(" b=") + *upcemu_optarg_location();
      step.arrive_and_wait();
    }
    results[me] += " optind=" + std::to_string(*upcemu_optind_location());
  };
  std::thread t0(parse, 0), t1(parse, 1);
  t0.join();
  t1.join();
  CHECK(results[0] == "a b=t0 optind=4");
  CHECK(results[1] == "aa b=t1 optind=5");
}
