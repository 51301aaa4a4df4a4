// The backtrace of a crash (backtrace.hpp, crash_backtrace_text). The crashed
// process only forks, reads a pipe, kills and waits, which a signal handler may
// do; the child, a copy of it, reads the symbols and writes the lines. The
// child may find a lock taken for good (the crash happened inside malloc, or
// another thread held the loader's lock at the fork): the parent then stops
// waiting after a few seconds and writes the raw addresses.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "backtrace.hpp"

namespace upc::detail {

namespace {

constexpr int answer_ms = 5000;

// What the child does, here for its own stack to find.
struct child_job {
  void* const* pcs;
  int count;
  int fd;
  std::size_t size;
};
child_job g_job;

// The child ends through the kernel alone: _exit is wrapped in programs (a UPC
// thread's _exit is reported: exit_calls.cpp), and this copy of a UPC thread
// must not report anything or touch the run's shared state.
[[noreturn]] void end_child(int status) {
  ::syscall(SYS_exit_group, status);
  __builtin_unreachable();
}

void write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

void child_work() {
  try {
    std::string text = describe_frames(g_job.pcs, g_job.count, g_job.size - 1);
    text += '\0';  // the end mark: a text without it comes from a child that died writing
    write_all(g_job.fd, text.data(), text.size());
  } catch (...) {
  }
  end_child(0);
}

// In the child: on a stack of its own (the handler's is the 64 KiB alternate
// signal stack, small for reading debug information and demangling), with the
// crash signals back to their default (a crash in the child ends it quietly).
[[noreturn]] void run_child(int fd, void* const* pcs, int count, std::size_t size) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) ::signal(sig, SIG_DFL);
  g_job = child_job{pcs, count, fd, size};
  constexpr std::size_t stack_bytes = 8u << 20;
  void* stack = ::mmap(nullptr, stack_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (stack == MAP_FAILED) child_work();
  static ucontext_t here, there;
  ::getcontext(&there);
  there.uc_stack.ss_sp = stack;
  there.uc_stack.ss_size = stack_bytes;
  there.uc_link = nullptr;
  ::makecontext(&there, child_work, 0);
  ::swapcontext(&here, &there);
  end_child(1);
}

long now_ms() {
  timespec t{};
  ::clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000L + t.tv_nsec / 1'000'000;
}

// What the child wrote until it closed the pipe, or until the time is up.
std::size_t read_answer(int fd, char* out, std::size_t size) {
  std::size_t got = 0;
  const long deadline = now_ms() + answer_ms;
  while (got < size) {
    const long left = deadline - now_ms();
    if (left <= 0) break;
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) break;
    const ssize_t r = ::read(fd, out + got, size - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;  // the child is done (or gone)
    got += static_cast<std::size_t>(r);
  }
  return got;
}

// "    0x55d0c2a1e3a3\n" for each frame: no symbols, nothing that allocates.
std::size_t raw_addresses(void* const* pcs, int count, char* out, std::size_t size) {
  static const char note[] = "    (the symbols could not be read in time; return addresses:)\n";
  std::size_t n = 0;
  auto put = [&](const char* s, std::size_t len) {
    if (n + len > size) return false;
    std::memcpy(out + n, s, len);
    n += len;
    return true;
  };
  if (!put(note, sizeof note - 1)) return 0;
  for (int i = 0; i < count; ++i) {
    char line[40] = "    0x";
    std::size_t len = 6;
    auto x = reinterpret_cast<std::uintptr_t>(pcs[i]);
    char digits[20];
    int d = 0;
    do {
      digits[d++] = "0123456789abcdef"[x & 15];
      x >>= 4;
    } while (x);
    while (d > 0) line[len++] = digits[--d];
    line[len++] = '\n';
    if (!put(line, len)) break;
  }
  return n;
}

}  // namespace

std::size_t crash_backtrace_text(void* const* pcs, int count, char* out, std::size_t size) noexcept {
  if (backtrace_setting() == backtrace_detail::off || count <= 0 || size < 2) return 0;
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) == 0) {
    // _Fork, not fork: no atfork handlers, no locks taken here (Open MPI's among them).
    const pid_t pid = ::_Fork();
    if (pid == 0) {
      ::close(fds[0]);
      run_child(fds[1], pcs, count, size);
    }
    ::close(fds[1]);
    if (pid > 0) {
      const std::size_t got = read_answer(fds[0], out, size);
      ::kill(pid, SIGKILL);  // done, or stuck
      while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
      }
      ::close(fds[0]);
      if (got > 0 && out[got - 1] == '\0') return got - 1;
    } else {
      ::close(fds[0]);
    }
  }
  return raw_addresses(pcs, count, out, size);
}

}  // namespace upc::detail
