// What a piece of test code writes to this process's stderr (fd 2, which the
// processes backend's workers inherit): --check reports and notes of the library.
#pragma once
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

namespace upc::test {

inline std::string stderr_of(const std::function<void()>& run) {
  std::fflush(stderr);
  char path[] = "/tmp/upcemu_stderr_XXXXXX";
  const int fd = ::mkstemp(path);
  REQUIRE(fd >= 0);
  ::unlink(path);
  const int saved = ::dup(2);
  ::dup2(fd, 2);
  run();
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  std::string text;
  char buf[4096];
  ::lseek(fd, 0, SEEK_SET);
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  return text;
}

}  // namespace upc::test
