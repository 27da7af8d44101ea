// interrupt.h: SIGINT and SIGTERM during a run: the children are ended at once (their process groups), the run stops
// handing out cases, the reports are finished with what was done and say that the run was interrupted, and the
// command exits 128 + the signal (130, 143).
#pragma once

#include <sys/types.h>

namespace accord::conformance {

/// Installs the SIGINT and SIGTERM handlers (once per process; later calls do nothing). The handler records the
/// signal, kills every registered process group (SIGKILL) and returns; a second signal ends the process at once
/// (`_exit(128 + signal)`), as a second Ctrl-C does in most tools.
void install_interrupt_handlers();

/// The signal that interrupted this process (SIGINT, SIGTERM), or 0.
int interrupt_signal();

/// 128 + interrupt_signal() (130 for SIGINT, 143 for SIGTERM); 0 when not interrupted.
int interrupt_exit_status();

/// "interrupted by SIGINT" / "interrupted by SIGTERM" (or "" when not interrupted): the line the reports carry.
const char* interrupt_text();

/// A child process group the handler must kill; `pgid` > 0. At most 1024 at once (more are not killed by the
/// handler, only by their owner). Safe to call from any thread.
void register_process_group(pid_t pgid);
/// Forgets a group (after its leader was reaped).
void unregister_process_group(pid_t pgid);

/// A descriptor that becomes readable when the signal comes (a self-pipe the handler writes to), for a reader that
/// waits in poll() on its input and this (libstdc++ retries a read cut short by a signal, so a plain blocking read
/// of stdin would never notice). -1 before install_interrupt_handlers().
int interrupt_fd();

}  // namespace accord::conformance
