// interrupt.cc: the SIGINT/SIGTERM handler and the table of child process groups it kills. Everything the handler
// touches is a lock-free atomic; it calls only kill() and _exit(), which are async-signal-safe.
#include "accord/conformance/interrupt.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <mutex>

namespace accord::conformance {
namespace {

constexpr int kSlots = 1024;
std::atomic<pid_t> g_groups[kSlots];
std::atomic<int> g_signal{0};
int g_pipe[2] = {-1, -1};

extern "C" void on_interrupt(int sig) {
  int expected = 0;
  if (!g_signal.compare_exchange_strong(expected, sig)) _exit(128 + expected);  // the second signal: go now
  for (auto& slot : g_groups) {
    pid_t p = slot.load();
    if (p > 0) ::kill(-p, SIGKILL);
  }
  if (g_pipe[1] >= 0) {
    char one = 1;
    [[maybe_unused]] ssize_t n = ::write(g_pipe[1], &one, 1);
  }
}

}  // namespace

void install_interrupt_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (::pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0) g_pipe[0] = g_pipe[1] = -1;
    struct sigaction sa {};
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;  // no SA_RESTART: a blocking read or poll returns EINTR, so the run notices at once
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
  });
}

int interrupt_signal() { return g_signal.load(); }

int interrupt_fd() { return g_pipe[0]; }

int interrupt_exit_status() {
  int s = g_signal.load();
  return s ? 128 + s : 0;
}

const char* interrupt_text() {
  switch (g_signal.load()) {
    case 0: return "";
    case SIGINT: return "interrupted by SIGINT";
    case SIGTERM: return "interrupted by SIGTERM";
    default: return "interrupted by a signal";  // LCOV_EXCL_LINE only SIGINT and SIGTERM are handled
  }
}

void register_process_group(pid_t pgid) {
  for (auto& slot : g_groups) {
    pid_t empty = 0;
    if (slot.compare_exchange_strong(empty, pgid)) break;
  }
  if (g_signal.load()) ::kill(-pgid, SIGKILL);  // a signal came while it was starting
}

void unregister_process_group(pid_t pgid) {
  for (auto& slot : g_groups) {
    pid_t p = pgid;
    if (slot.compare_exchange_strong(p, 0)) return;
  }
}

}  // namespace accord::conformance
