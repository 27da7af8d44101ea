// process_supervisor.h: start child processes and wait for them with a deadline (never hangs).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace accord::conformance::live {

/// One child: either a command to exec, or a function to run in a forked copy of this process.
struct ChildSpec {
  std::vector<std::string> argv;           ///< exec'd when non-empty (argv[0] is the path)
  std::function<int()> body;               ///< else run after fork(); its result is the exit status
  std::map<std::string, std::string> env;  ///< set on top of the inherited environment
  std::string log_path;                    ///< receives the child's stdout and stderr
};

/// How one child ended.
struct ChildResult {
  int pid = -1;
  std::string start_error;  ///< non-empty when the child never ran (fork/exec failed)
  bool exited = false;      ///< exited normally with `exit_code`
  int exit_code = -1;
  int signal = 0;           ///< terminating signal, 0 when it exited
  bool timed_out = false;   ///< still running at the deadline, then killed
  bool aborted = false;     ///< killed because another child had failed
  int interrupted = 0;      ///< killed because accord got this signal (SIGINT, SIGTERM) while it ran
  double ended_s = 0;       ///< seconds from the start until it ended (or was killed)

  /// Exited with status 0.
  [[nodiscard]] bool ok() const { return exited && exit_code == 0; }
};

/// Limits for run_children().
struct SuperviseOptions {
  double timeout_s = 60;  ///< deadline for all children, from the first start
  double grace_s = 2.0;   ///< after a child fails, how long the others get before they are killed
};

/// Starts every child (each dies with its parent: PR_SET_PDEATHSIG), then reaps them. A child that
/// fails (non-zero status, signal, start error) gives the others `grace_s`, then they are killed;
/// at the deadline all that remain are killed (SIGTERM, then SIGKILL). SIGINT or SIGTERM to accord while they run
/// (handled for the call's duration) stops every child the same way at once, each marked `interrupted`.
/// Returns one result per spec.
[[nodiscard]] std::vector<ChildResult> run_children(const std::vector<ChildSpec>& children,
                                                    const SuperviseOptions& options);

/// The signal that interrupted the last run_children() (SIGINT, SIGTERM), or 0.
[[nodiscard]] int supervisor_interrupt_signal();

/// "exited with status 3", "was killed by signal 9 (Killed)", ...
[[nodiscard]] std::string describe_end(const ChildResult& result);

}  // namespace accord::conformance::live
