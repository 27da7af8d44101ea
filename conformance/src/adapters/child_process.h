// child_process.h: a child process behind three pipes (POSIX fork/exec of /bin/sh -c), with
// deadline-bound line reads and writes and a bounded stderr buffer.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>

#include "accord/conformance/json_input.h"

namespace accord::conformance::detail {

using Clock = std::chrono::steady_clock;

/// What a read or write ended with.
enum class IoStatus { kOk, kEof, kTimeout, kTooLong, kError };

/// One child: its stdin (we write), stdout (we read lines), stderr (kept, last `kStderrKeep` bytes).
class ChildProcess {
 public:
  static constexpr std::size_t kStderrKeep = 16 * 1024;
  static constexpr std::size_t kMaxLine = kMaxLineBytes;  ///< the protocol's line limit (json_input.h)

  ChildProcess() = default;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess();

  /// Runs `/bin/sh -c command` in its own process group. False with `error` on failure.
  bool spawn(const std::string& command, std::string* error);
  bool running() const { return pid_ > 0; }
  /// Writes `data` completely before `deadline` (draining stdout/stderr meanwhile).
  IoStatus write_all(const std::string& data, Clock::time_point deadline);
  /// Reads the next stdout line (without its newline) before `deadline`.
  IoStatus read_line(std::string* line, Clock::time_point deadline);
  /// Closes stdin and waits up to `grace` for the child to exit, then kills it. Returns how it ended.
  std::string finish(std::chrono::milliseconds grace);
  /// Kills the whole process group at once and reaps the child. Returns how it ended.
  std::string kill_now();
  /// What the child wrote to stdout that no read_line() took (after finish(): everything it wrote before exiting).
  std::string take_unread() {
    scanned_ = 0;
    return std::move(out_buf_);
  }
  /// The last bytes the child wrote to stderr (drained on every read and write).
  const std::string& stderr_tail() const { return err_buf_; }

 private:
  bool pump(Clock::time_point deadline, const std::string* data, std::size_t* written, IoStatus* status);
  void read_stderr();
  std::string reap(bool block);
  void close_fds();

  pid_t pid_ = -1;
  int in_ = -1, out_ = -1, err_ = -1;
  std::string out_buf_;
  std::size_t scanned_ = 0;  ///< out_buf_[0, scanned_) holds no newline (read_line resumes its search there)
  std::string err_buf_;
};

}  // namespace accord::conformance::detail
