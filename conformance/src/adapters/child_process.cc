// child_process.cc: fork/exec of `/bin/sh -c`, non-blocking pipes driven by poll(), bounded stderr.
#include "adapters/child_process.h"

#include "accord/conformance/interrupt.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>

namespace accord::conformance::detail {
namespace {

int remaining_ms(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(std::min<long long>(left, 1 << 30));
}

std::string describe(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status))
    return "killed by signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
  return "stopped";
}

void close_fd(int* fd) {
  if (*fd >= 0) ::close(*fd);
  *fd = -1;
}

}  // namespace

ChildProcess::~ChildProcess() {
  if (running()) kill_now();
  close_fds();
}

void ChildProcess::close_fds() {
  close_fd(&in_);
  close_fd(&out_);
  close_fd(&err_);
}

bool ChildProcess::spawn(const std::string& command, std::string* error) {
  // A child that dies while we write must not kill the harness with SIGPIPE; EPIPE is handled.
  static std::once_flag ignore_sigpipe;
  std::call_once(ignore_sigpipe, [] { ::signal(SIGPIPE, SIG_IGN); });
  out_buf_.clear();
  scanned_ = 0;
  err_buf_.clear();
  int pin[2], pout[2], perr[2];
  if (::pipe2(pin, O_CLOEXEC) != 0) return *error = std::string("pipe: ") + std::strerror(errno), false;
  if (::pipe2(pout, O_CLOEXEC) != 0) {
    ::close(pin[0]), ::close(pin[1]);
    return *error = std::string("pipe: ") + std::strerror(errno), false;
  }
  if (::pipe2(perr, O_CLOEXEC) != 0) {
    ::close(pin[0]), ::close(pin[1]), ::close(pout[0]), ::close(pout[1]);
    return *error = std::string("pipe: ") + std::strerror(errno), false;
  }
  const char* cmd = command.c_str();
  pid_t pid = ::fork();
  if (pid == 0) {  // child: async-signal-safe calls only
    ::setpgid(0, 0);
    ::dup2(pin[0], 0), ::dup2(pout[1], 1), ::dup2(perr[1], 2);
    ::execl("/bin/sh", "sh", "-c", cmd, static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(pin[0]), ::close(pout[1]), ::close(perr[1]);
  if (pid < 0) {
    ::close(pin[1]), ::close(pout[0]), ::close(perr[0]);
    return *error = std::string("fork: ") + std::strerror(errno), false;
  }
  ::setpgid(pid, pid);  // also here, so a kill right after fork reaches the group
  register_process_group(pid);  // SIGINT/SIGTERM of accord ends the whole group (interrupt.h)
  pid_ = pid;
  in_ = pin[1], out_ = pout[0], err_ = perr[0];
  for (int fd : {in_, out_, err_}) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  return true;
}

void ChildProcess::read_stderr() {
  char buf[8192];
  for (;;) {
    ssize_t n = ::read(err_, buf, sizeof buf);
    if (n > 0) {
      err_buf_.append(buf, static_cast<std::size_t>(n));
      if (err_buf_.size() > 2 * kStderrKeep) err_buf_.erase(0, err_buf_.size() - kStderrKeep);
      continue;
    }
    if (n == 0) close_fd(&err_);
    if (n < 0 && errno == EINTR) continue;
    return;
  }
}

bool ChildProcess::pump(Clock::time_point deadline, const std::string* data, std::size_t* written, IoStatus* status) {
  pollfd fds[3];
  int n = 0, in_at = -1, out_at = -1, err_at = -1;
  if (data && in_ >= 0) in_at = n, fds[n++] = {in_, POLLOUT, 0};
  if (out_ >= 0) out_at = n, fds[n++] = {out_, POLLIN, 0};
  if (err_ >= 0) err_at = n, fds[n++] = {err_, POLLIN, 0};
  if (n == 0 || (data && in_ < 0)) return *status = IoStatus::kEof, false;
  int r = ::poll(fds, static_cast<nfds_t>(n), remaining_ms(deadline));
  if (r < 0 && errno == EINTR) return true;
  if (r < 0) return *status = IoStatus::kError, false;
  if (r == 0) return *status = IoStatus::kTimeout, false;
  if (err_at >= 0 && fds[err_at].revents) read_stderr();
  if (out_at >= 0 && fds[out_at].revents) {
    char buf[65536];
    ssize_t got = ::read(out_, buf, sizeof buf);
    if (got > 0) out_buf_.append(buf, static_cast<std::size_t>(got));
    else if (got == 0 || (errno != EAGAIN && errno != EINTR)) close_fd(&out_);
  }
  if (in_at >= 0 && fds[in_at].revents) {
    if (fds[in_at].revents & (POLLERR | POLLHUP)) return *status = IoStatus::kEof, false;
    ssize_t put = ::write(in_, data->data() + *written, data->size() - *written);
    if (put > 0) *written += static_cast<std::size_t>(put);
    else if (put < 0 && errno != EAGAIN && errno != EINTR) return *status = IoStatus::kEof, false;
  }
  return true;
}

IoStatus ChildProcess::write_all(const std::string& data, Clock::time_point deadline) {
  std::size_t written = 0;
  IoStatus st = IoStatus::kOk;
  while (written < data.size())
    if (!pump(deadline, &data, &written, &st)) return st;
  return IoStatus::kOk;
}

IoStatus ChildProcess::read_line(std::string* line, Clock::time_point deadline) {
  for (;;) {
    auto nl = out_buf_.find('\n', scanned_);  // bytes before scanned_ hold no newline: linear in the line's length
    scanned_ = nl == std::string::npos ? out_buf_.size() : 0;
    if (nl != std::string::npos && nl > kMaxLine) return IoStatus::kTooLong;  // the newline came in the last read
    if (nl != std::string::npos) {
      line->assign(out_buf_, 0, nl);
      out_buf_.erase(0, nl + 1);
      if (!line->empty() && line->back() == '\r') line->pop_back();
      return IoStatus::kOk;
    }
    if (out_buf_.size() > kMaxLine) return IoStatus::kTooLong;
    if (out_ < 0) return IoStatus::kEof;
    IoStatus st = IoStatus::kOk;
    if (!pump(deadline, nullptr, nullptr, &st)) return st;
  }
}

std::string ChildProcess::reap(bool block) {
  if (pid_ <= 0) return "not running";
  int status = 0;
  pid_t r;
  do r = ::waitpid(pid_, &status, block ? 0 : WNOHANG);
  while (r < 0 && errno == EINTR);
  if (r == 0) return "";
  unregister_process_group(pid_);
  pid_ = -1;
  return r < 0 ? "gone" : describe(status);
}

std::string ChildProcess::kill_now() {
  if (pid_ <= 0) return "not running";
  ::kill(-pid_, SIGKILL);
  ::kill(pid_, SIGKILL);
  if (err_ >= 0) read_stderr();
  std::string how = reap(true);
  close_fds();
  return how;
}

std::string ChildProcess::finish(std::chrono::milliseconds grace) {
  close_fd(&in_);
  auto deadline = Clock::now() + grace;
  while (pid_ > 0 && Clock::now() < deadline) {
    std::string how = reap(false);
    if (!how.empty()) {
      if (err_ >= 0) read_stderr();
      close_fds();
      return how;
    }
    IoStatus st = IoStatus::kOk;
    if (out_ < 0 && err_ < 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    else if (!pump(std::min(deadline, Clock::now() + std::chrono::milliseconds(20)), nullptr, nullptr, &st) &&
             st != IoStatus::kTimeout)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return kill_now();
}

}  // namespace accord::conformance::detail
