#!/usr/bin/env python3
"""tools/check_structure.py finds what it must and nothing else.

  test_check_structure.py CHECKER FIXTURES

1. Its scanner (structure_scan.py, beside CHECKER) on small snippets: which
   braces are function bodies, how long each is, which lines are data, and
   what would fool a plain brace count (strings, raw strings, characters,
   comments, #define, constructor initialisers, lambdas).
2. The check on FIXTURES (tests/tools/structure_fixtures/), a tiny tree whose
   violations are listed here by hand: it must find exactly those.
3. The baseline: listed violations pass, a new one fails, a listed one that is
   gone fails, --update-baseline writes what is found.
"""
import os
import subprocess
import sys
import tempfile

CHECKER, FIXTURES = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.dirname(os.path.abspath(CHECKER)))
import structure_scan as scan  # noqa: E402  (found beside CHECKER)

failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)


def scanned(source):
    tokens, directive = scan.tokenize(source)
    code = [t for t in tokens if t.line not in directive]
    match, error = scan.match_brackets(code)
    return code, match, error


def functions_of(source):
    code, match, error = scanned(source)
    expect(error is None, "scan error %r in:\n%s" % (error, source))
    if error is not None:
        return []
    return [(f.name, f.line, f.lines, f.data) for f in scan.cpp_functions(code, match)]


# ------------------------------------------------------------ 1. the scanner

CLASSES_AND_FORMS = """\
namespace a {
struct X : Base {
  X(int v) : v_{v}, w_([v] { return v; }()) {}
  int get() const noexcept override { return v_; }
  auto twice() const -> int {
    return v_ * 2;
  }
  bool operator==(const X& o) const = default;
  int operator()(int k) { return k; }
  int v_{0};
  int w_;
};
int X::outside(int k) {
  auto f = [k](int j) {
    return j + k;
  };
  return f(1);
}
enum class color { red, green };
const int table[] = {1, 2, 3};
extern "C" {
int c_function(void) { return 0; }
}
auto adder = [](int x, int y) {
  return x + y;
};
template <typename T>
  requires(sizeof(T) > 1)
T twice_of(T t) requires true {
  return t + t;
}
}  // namespace a
"""
expect(functions_of(CLASSES_AND_FORMS) == [
    ("X", 3, 1, 0), ("get", 4, 1, 0), ("twice", 5, 3, 0), ("operator()", 9, 1, 0),
    ("X::outside", 13, 6, 0), ("c_function", 22, 1, 0), ("adder", 24, 3, 0), ("twice_of", 29, 3, 0)],
    "functions of CLASSES_AND_FORMS: %r" % functions_of(CLASSES_AND_FORMS))

# The table's lines 3..8 are data but for the lambda body (4..6), which is code.
TABLE_WITH_LAMBDA = """\
int dispatch(int k) {
  static const row rows[] = {
      {"a", 1},
      {"b", [](int x) {
         return x + 1;
       }},
      {"c", 3},
  };
  return rows[k].n;
}
"""
expect(functions_of(TABLE_WITH_LAMBDA) == [("dispatch", 1, 10, 3)],
       "TABLE_WITH_LAMBDA: %r" % functions_of(TABLE_WITH_LAMBDA))

NOT_BRACES = """\
const char* s = "}";
char c = '}';
int big = 1'000'000;
auto r = R"x(}} " })x";
/* } */ // }
#define OPEN {
int after(int v) {
  return v;
}
"""
expect(functions_of(NOT_BRACES) == [("after", 7, 3, 0)], "NOT_BRACES: %r" % functions_of(NOT_BRACES))

# Both #if branches are read: two opening braces, one closing: a scan error.
IF_BRANCHES = """\
#if A
int f(int x) {
#else
int f(long x) {
#endif
  return 0;
}
"""
expect(scanned(IF_BRANCHES)[2] is not None, "IF_BRANCHES scanned without an error")

LINKAGE = """\
int used(int);
static int hidden();
namespace {
int anon() { return 1; }
}
int user() { return used(2) + hidden(); }
"""
code, match, _ = scanned(LINKAGE)
walk = scan.ScopeScan(code, match)
expect(walk.declared == {"used", "user"}, "LINKAGE declared: %r" % walk.declared)
expect([(f.name, f.linkage) for f in walk.functions] == [("anon", "internal"), ("user", "free")],
       "LINKAGE functions: %r" % walk.functions)
used = [(line, name) for line, name, _ in scan.mentions(code, walk.name_indices) if name == "used"]
expect(used == [(6, "used")], "LINKAGE mentions of used (not its declaration): %r" % used)

PYTHON = '''\
class Tool:
    def run(self):
        def inner():
            return 1
        return inner()


def rows():
    return {
        "a": 1,
        "b": 2,
    }
'''
python = [(f.name, f.line, f.lines, f.data) for f in scan.python_functions(PYTHON)]
expect(python == [("Tool.run", 2, 4, 0), ("rows", 8, 5, 3)], "PYTHON: %r" % python)


# ------------------------------------------------------------ 2. the fixtures

# path:line: kind: and a word the detail must hold, for each violation there.
EXPECTED = [
    ("lib/a/first.hpp:3: include-cycle:", "lib/a/first.hpp -> lib/a/second.hpp -> lib/a/first.hpp"),
    ("lib/b/ping.cpp:6: call-circle:", "uses pong of lib/b/pong"),
    ("lib/b/pong.cpp:5: call-circle:", "uses ping of lib/b/ping"),
    ("lib/api/front.cpp:4: engine-boundary:", '"../coll/inner.hpp"'),
    ("lib/api/front.cpp:5: engine-boundary:", '"coll/detail.hpp"'),
    ("lib/coll/inner.hpp:3: upccoll-in-engine:", '"upccoll_bcast"'),
    ("lib/coll/inner.hpp:4: upccoll-in-engine:", "upccoll_helper"),
    ("lib/long.cpp:6: long-function:", "long_function is 125 lines"),
    ("tools/long_tool.py:4: long-function:", "long_tool is 125 lines"),
]
# The baseline lines of those violations.
KEYS = [
    "include-cycle lib/a/first.hpp -> lib/a/second.hpp -> lib/a/first.hpp",
    "call-circle lib/b/ping -> lib/b/pong",
    "call-circle lib/b/pong -> lib/b/ping",
    "engine-boundary lib/api/front.cpp lib/coll/inner.hpp",
    "engine-boundary lib/api/front.cpp lib/coll/detail.hpp",
    'upccoll-in-engine lib/coll/inner.hpp "upccoll_bcast"',
    "upccoll-in-engine lib/coll/inner.hpp upccoll_helper",
    "long-function lib/long.cpp long_function",
    "long-function tools/long_tool.py long_tool",
]


def run(*args, env=None):
    done = subprocess.run([sys.executable, CHECKER, "--root", FIXTURES] + list(args),
                          capture_output=True, text=True, env=env, timeout=60)
    return done.returncode, done.stdout + done.stderr


def violation_lines(output):
    """The first block of the output: one line per violation."""
    return output.split("\n\n")[0].strip().split("\n")


with tempfile.TemporaryDirectory() as tmp:
    baseline = os.path.join(tmp, "baseline.txt")

    def with_baseline(lines, *args, env=None):
        with open(baseline, "w", encoding="utf-8") as f:
            f.write("# a comment line\n" + "".join(line + "\n" for line in lines))
        return run("--baseline", baseline, *args, env=env)

    status, out = with_baseline(KEYS)
    found = violation_lines(out)
    for prefix, word in EXPECTED:
        hits = [line for line in found if line.startswith(prefix + " ") and word in line]
        expect(len(hits) == 1, "expected once: %s ... %s\n%s" % (prefix, word, out))
    expect(len(found) == len(EXPECTED), "found %d violations, expected %d:\n%s"
           % (len(found), len(EXPECTED), out))
    expect(status == 0, "every violation in the baseline: status %d\n%s" % (status, out))

    status, out = with_baseline(KEYS[1:])
    expect(status == 1 and "not in the baseline" in out and "include-cycle" in out.split("not in the baseline")[1],
           "a violation missing from the baseline must fail: %d\n%s" % (status, out))

    status, out = with_baseline(KEYS + ["long-function lib/long.cpp gone_function"])
    expect(status == 1 and "  long-function lib/long.cpp gone_function" in out,
           "a baseline line that no longer occurs must fail: %d\n%s" % (status, out))

    status, out = with_baseline(KEYS + [KEYS[-1]])
    expect(status == 1, "a line twice in the baseline for one violation must fail: %d\n%s" % (status, out))

    status, out = run("--baseline", baseline, "--update-baseline")
    with open(baseline, encoding="utf-8") as f:
        written = f.read()
    entries = sorted(line for line in written.split("\n") if line and not line.startswith("#"))
    expect(status == 0 and entries == sorted(KEYS), "--update-baseline wrote:\n%s" % written)
    expect("issue 28" in written.split("\n")[0], "the baseline does not open with what it is:\n%s" % written)

    # CI machines have no `duplicates` command: the check says so and passes.
    status, out = with_baseline(KEYS, "--duplicates", env=dict(os.environ, PATH=tmp))
    expect(status == 0 and "duplicates: skipped" in out,
           "without the duplicates command: status %d\n%s" % (status, out))

if failures:
    print("FAILED:\n" + "\n\n".join(failures))
    sys.exit(1)
print("check_structure.py: scanner snippets, fixture tree and baseline behave")
