// process_supervisor.cc: fork/exec, a CLOEXEC pipe for exec errors, and a polling reaper.
#include "process_supervisor.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

extern char** environ;

namespace accord::conformance::live {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

volatile std::sig_atomic_t g_interrupt = 0;
extern "C" void on_interrupt(int sig) { g_interrupt = sig; }

/// SIGINT and SIGTERM handled while the children run (the loop notices within 10 ms); the old handlers come back.
class InterruptScope {
 public:
  InterruptScope() {
    g_interrupt = 0;
    struct sigaction sa {};
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~InterruptScope() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

// argv/envp as C arrays, built before fork() so the child only calls async-signal-safe functions.
struct ExecImage {
  std::vector<std::string> strings;
  std::vector<char*> argv;
  std::vector<char*> envp;
};

ExecImage make_image(const ChildSpec& spec) {
  ExecImage img;
  std::map<std::string, std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const char* eq = std::strchr(*e, '=');
    if (eq != nullptr) env[std::string(*e, static_cast<std::size_t>(eq - *e))] = eq + 1;
  }
  for (const auto& [k, v] : spec.env) env[k] = v;
  img.strings = spec.argv;
  const std::size_t n_args = spec.argv.size();
  for (const auto& [k, v] : env) img.strings.push_back(k + "=" + v);
  for (std::size_t i = 0; i < img.strings.size(); ++i) {
    (i < n_args ? img.argv : img.envp).push_back(img.strings[i].data());
  }
  img.argv.push_back(nullptr);
  img.envp.push_back(nullptr);
  return img;
}

// Runs in the child right after fork(): die with the parent, log to the file, detach stdin.
void prepare_child(pid_t parent, const std::string& log_path) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(125);
  const int null_fd = open("/dev/null", O_RDONLY);
  if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);
  const int log = open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (log >= 0) {
    dup2(log, STDOUT_FILENO);
    dup2(log, STDERR_FILENO);
  }
}

ChildResult start(const ChildSpec& spec) {
  ChildResult r;
  ExecImage img = make_image(spec);
  int pipe_fd[2];
  if (pipe2(pipe_fd, O_CLOEXEC) != 0) {
    r.start_error = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  std::fflush(nullptr);  // or buffered output would be written twice
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid == 0) {
    close(pipe_fd[0]);
    prepare_child(parent, spec.log_path);
    if (spec.argv.empty()) {
      close(pipe_fd[1]);
      for (const auto& [k, v] : spec.env) setenv(k.c_str(), v.c_str(), 1);
      const int rc = spec.body ? spec.body() : 126;
      std::fflush(nullptr);
      _exit(rc);
    }
    execve(img.argv[0], img.argv.data(), img.envp.data());
    const int err = errno;
    (void)!write(pipe_fd[1], &err, sizeof err);
    _exit(127);
  }
  close(pipe_fd[1]);
  if (pid < 0) {
    r.start_error = std::string("fork: ") + std::strerror(errno);
    close(pipe_fd[0]);
    return r;
  }
  r.pid = pid;
  int err = 0;
  ssize_t got;
  do {
    got = read(pipe_fd[0], &err, sizeof err);
  } while (got < 0 && errno == EINTR);
  close(pipe_fd[0]);
  if (got == static_cast<ssize_t>(sizeof err)) {
    r.start_error = "exec " + spec.argv.front() + ": " + std::strerror(err);
    waitpid(pid, nullptr, 0);
  }
  return r;
}

void record_status(ChildResult& r, int status, double t) {
  r.ended_s = t;
  if (WIFEXITED(status)) {
    r.exited = true;
    r.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r.signal = WTERMSIG(status);
  }
}

// SIGTERM, up to 1 s to go, then SIGKILL and up to 5 s to be reaped.
void stop(ChildResult& r, Clock::time_point t0) {
  kill(r.pid, SIGTERM);
  const auto give_up = Clock::now() + std::chrono::seconds(6);
  bool killed = false;
  const auto hard = Clock::now() + std::chrono::seconds(1);
  while (Clock::now() < give_up) {
    int status = 0;
    if (waitpid(r.pid, &status, WNOHANG) == r.pid) {
      record_status(r, status, since(t0));
      return;
    }
    if (!killed && Clock::now() >= hard) {
      kill(r.pid, SIGKILL);
      killed = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  r.ended_s = since(t0);
  r.signal = SIGKILL;  // unreapable (uninterruptible sleep); reported as killed
}

}  // namespace

std::vector<ChildResult> run_children(const std::vector<ChildSpec>& children, const SuperviseOptions& options) {
  const auto t0 = Clock::now();
  InterruptScope scope;
  std::vector<ChildResult> results;
  std::vector<bool> running;
  double failed_at = -1;
  for (const ChildSpec& spec : children) {
    results.push_back(start(spec));
    running.push_back(results.back().start_error.empty());
    if (!running.back() && failed_at < 0) failed_at = since(t0);
  }
  for (;;) {
    bool any = false;
    for (std::size_t i = 0; i < results.size(); ++i) {
      if (!running[i]) continue;
      int status = 0;
      if (waitpid(results[i].pid, &status, WNOHANG) == results[i].pid) {
        running[i] = false;
        record_status(results[i], status, since(t0));
        if (!results[i].ok() && failed_at < 0) failed_at = results[i].ended_s;
      } else {
        any = true;
      }
    }
    if (!any) break;
    const double now = since(t0);
    const bool deadline = now >= options.timeout_s;
    const bool abort_rest = failed_at >= 0 && now >= failed_at + options.grace_s;
    const int interrupted = g_interrupt;
    if (deadline || abort_rest || interrupted) {
      for (std::size_t i = 0; i < results.size(); ++i) {
        if (!running[i]) continue;
        if (interrupted) results[i].interrupted = interrupted;
        else (deadline && !abort_rest ? results[i].timed_out : results[i].aborted) = true;
        stop(results[i], t0);
        running[i] = false;
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return results;
}

int supervisor_interrupt_signal() { return g_interrupt; }

std::string describe_end(const ChildResult& r) {
  if (!r.start_error.empty()) return "could not start (" + r.start_error + ")";
  if (r.exited) return "exited with status " + std::to_string(r.exit_code);
  if (r.signal != 0) return "was killed by signal " + std::to_string(r.signal) + " (" + strsignal(r.signal) + ")";
  return "ended in an unknown way";
}

}  // namespace accord::conformance::live
