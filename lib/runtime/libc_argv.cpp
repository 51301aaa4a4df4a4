// Every UPC thread's own argv. A UPC implementation that runs its threads as
// processes gives each its own copy, and programs rely on it: GNU getopt
// permutes argv as it parses, upccoll_initialize(&argc, &argv) removes its own
// options, a program may cut its arguments with strtok. On the threads backend
// the UPC threads would share the process's one argv; the copy is made on every
// backend so that every backend runs the same code.
//
// One allocation per thread holds the array and the strings. Copies are kept
// until the process ends (a thread may hand a pointer into its argv to others,
// which may read it after that thread has returned), freed at exit.
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "libc_state.hpp"

namespace upc::detail {

namespace {
struct free_deleter {
  void operator()(char** p) const noexcept { std::free(p); }
};
std::mutex g_copies_mutex;
std::vector<std::unique_ptr<char*, free_deleter>>& copies() {
  static std::vector<std::unique_ptr<char*, free_deleter>> kept;
  return kept;
}
}  // namespace

char** copy_of_argv(int argc, char** argv) {
  if (argc < 0 || argv == nullptr) return argv;
  std::size_t text = 0;
  for (int i = 0; i < argc; ++i) text += (argv[i] ? std::strlen(argv[i]) : 0) + 1;
  const std::size_t table = (static_cast<std::size_t>(argc) + 1) * sizeof(char*);
  void* block = std::malloc(table + text);
  if (block == nullptr) throw std::bad_alloc();
  char** copy = static_cast<char**>(block);
  char* strings = static_cast<char*>(block) + table;
  for (int i = 0; i < argc; ++i) {
    if (argv[i] == nullptr) {
      copy[i] = nullptr;
      continue;
    }
    const std::size_t n = std::strlen(argv[i]) + 1;
    std::memcpy(strings, argv[i], n);
    copy[i] = strings;
    strings += n;
  }
  copy[argc] = nullptr;
  std::lock_guard<std::mutex> lock(g_copies_mutex);
  copies().emplace_back(copy);
  return copy;
}

}  // namespace upc::detail
