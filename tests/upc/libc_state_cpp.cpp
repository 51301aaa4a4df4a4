// libc_state.upc in the C++ API: on every UPC thread, rand, random and the
// drand48 family give the sequences glibc gives a separate process (argv[1]: the
// file libc_reference.c wrote), strtok cuts the thread's own string, errno is the
// thread's own. A barrier between every two calls makes the threads' calls
// interleave.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "upc.h"

#include "libc_sequences.h"

namespace {

struct reference_value {
  std::string name;
  int index;
  double value;
};

// Thread-local: on the threads backend a namespace-scope variable is shared.
thread_local std::vector<reference_value> expected;
thread_local std::size_t next_value = 0;
thread_local int failures = 0;

upc::strict_shared_array<int> arrived{upc::per_thread(1)};

bool load_reference(const char* path, int seed) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t space = line.find(' '), bar = line.find('|', space), bar2 = line.find('|', bar + 1);
    if (space == std::string::npos || bar == std::string::npos || bar2 == std::string::npos) continue;
    if (std::stoi(line.substr(0, space)) != seed) continue;
    expected.push_back({line.substr(space + 1, bar - space - 1), std::stoi(line.substr(bar + 1, bar2 - bar - 1)),
                        std::strtod(line.c_str() + bar2 + 1, nullptr)});
  }
  return !expected.empty();
}

void check_value(const char* name, int i, double v) {
  const bool have = next_value < expected.size();
  if (!have || expected[next_value].name != name || expected[next_value].index != i || expected[next_value].value != v) {
    std::printf("thread %d: %s [%d] = %a; glibc in a process of its own: %s [%d] = %a\n", MYTHREAD, name, i, v,
                have ? expected[next_value].name.c_str() : "(nothing)", have ? expected[next_value].index : -1,
                have ? expected[next_value].value : 0.0);
    failures++;
  }
  next_value++;
}

void barrier_step() { upc_barrier; }

void check_token(const char* got, const std::string& want) {
  if (!got || want != got) {
    std::printf("thread %d: strtok gave '%s', expected '%s'\n", MYTHREAD, got ? got : "(null)", want.c_str());
    failures++;
  }
}

}  // namespace

int upc_main(int argc, char** argv) {
  if (argc < 2 || !load_reference(argv[1], MYTHREAD + 1)) {
    std::printf("usage: libc_state_cpp REFERENCE_FILE (from libc_reference)\n");
    return 2;
  }
  libc_sequences(MYTHREAD + 1, check_value, barrier_step);
  if (next_value != expected.size()) {
    std::printf("thread %d: %zu values checked, the reference has %zu\n", MYTHREAD, next_value, expected.size());
    failures++;
  }

  // strtok: every thread cuts its own string, one token per barrier
  const std::string t = std::to_string(MYTHREAD);
  std::string text = ",t" + t + ";a" + t + ",,b" + t + ";c" + t + ";";
  check_token(std::strtok(text.data(), ",;"), "t" + t);
  upc_barrier;
  for (const char* prefix : {"a", "b", "c"}) {
    check_token(std::strtok(nullptr, ",;"), prefix + t);
    upc_barrier;
  }
  if (std::strtok(nullptr, ",;") != nullptr) {
    std::printf("thread %d: strtok found a token after the last\n", MYTHREAD);
    failures++;
  }
  upc_barrier;

  // errno: set, wait until every thread has set its own (strict flags, no
  // library call that could set errno), then read.
  errno = 1000 + MYTHREAD;
  arrived[MYTHREAD] = 1;
  for (int u = 0; u < THREADS; ++u)
    while (arrived[u] == 0) {
    }
  if (errno != 1000 + MYTHREAD) {
    std::printf("thread %d: errno is %d, this thread set %d\n", MYTHREAD, errno, 1000 + MYTHREAD);
    failures++;
  }
  upc_barrier;
  if (!failures) std::printf("thread %d: rand, random, drand48, strtok and errno are this thread's own\n", MYTHREAD);
  return failures != 0;
}
