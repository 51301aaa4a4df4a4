#include "interrupt.hpp"

#include <string.h>
#include <unistd.h>

#include <cstdio>

#include "control.hpp"
#include "process_end.hpp"

namespace upc::detail {

volatile std::sig_atomic_t g_interrupt_signal = 0;

namespace {
constexpr int handled[3] = {SIGINT, SIGTERM, SIGHUP};
bool g_exit_immediately = false;

void on_interrupt(int sig) {
  g_interrupt_signal = sig;
  if (g_exit_immediately) {
    char buf[160];
    const char* abbrev = sigabbrev_np(sig);
    snprintf(buf, sizeof buf, "upcemu: interrupted by SIG%s; stopping all %d threads\n", abbrev ? abbrev : "?",
             g_control ? g_control->threads : 0);
    ssize_t r = ::write(2, buf, strlen(buf));
    (void)r;
    end_process(128 + sig);
  }
}
}  // namespace

interrupt_guard::interrupt_guard(bool exit_immediately) {
  g_interrupt_signal = 0;
  g_exit_immediately = exit_immediately;
  struct sigaction sa{};
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < 3; ++i) sigaction(handled[i], &sa, &old_[i]);
}

interrupt_guard::~interrupt_guard() {
  for (int i = 0; i < 3; ++i) sigaction(handled[i], &old_[i], nullptr);
}

}  // namespace upc::detail
