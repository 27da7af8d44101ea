// subprocess_jsonl.cc: an implementation in another process, spoken to with PROTOCOL.md over pipes;
// restarted after a crash or timeout, protocol faults mark the case and the run goes on.
#include <set>

#include "accord/conformance/adapter.h"
#include "accord/conformance/protocol.h"
#include "adapters/child_process.h"

namespace accord::conformance {
namespace {
using detail::ChildProcess;
using detail::Clock;
using detail::IoStatus;
using nlohmann::json;

class SubprocessAdapter : public Adapter {
 public:
  SubprocessAdapter(std::string command, double timeout_seconds)
      : command_(std::move(command)),
        timeout_(std::chrono::milliseconds(static_cast<long long>(timeout_seconds * 1000))) {}
  ~SubprocessAdapter() override { stop(); }

  bool start(std::string* error) override;
  const ImplementationInfo& info() const override { return info_; }
  AdapterResult resolve(const std::string& id, const std::string& profile, const json& case_json) override;
  void stop() override;

 private:
  static constexpr int kMaxRestartFailures = 3;
  AdapterResult fault(ResultStatus s, const std::string& what);
  AdapterResult after_eof(const std::string& waiting_for);
  std::string stderr_note() const;

  std::string command_;
  std::chrono::milliseconds timeout_;
  std::unique_ptr<ChildProcess> child_;
  ImplementationInfo info_;
  std::set<std::string> owed_;  ///< ids whose reply never came in step; a late reply is skipped
  int restart_failures_ = 0;
  std::string last_restart_error_;
};

std::string SubprocessAdapter::stderr_note() const {
  if (!child_ || child_->stderr_tail().empty()) return "";
  std::string tail = child_->stderr_tail();
  if (tail.size() > 2000) tail = "..." + tail.substr(tail.size() - 2000);
  return "\nstderr:\n" + tail;
}

bool SubprocessAdapter::start(std::string* error) {
  child_ = std::make_unique<ChildProcess>();
  owed_.clear();
  if (!child_->spawn(command_, error)) return false;
  auto deadline = Clock::now() + timeout_;
  std::string line;
  IoStatus st = child_->write_all(start_request() + "\n", deadline);
  if (st == IoStatus::kOk) st = child_->read_line(&line, deadline);
  if (st != IoStatus::kOk) {
    std::string how = st == IoStatus::kTimeout ? child_->kill_now() : child_->finish(std::chrono::milliseconds(500));
    *error = (st == IoStatus::kTimeout ? "no handshake reply within the timeout" : "no handshake reply; the implementation " + how) +
             stderr_note();
    return false;
  }
  ImplementationInfo info;
  if (!parse_handshake(line, &info, error)) {
    *error += stderr_note();
    child_->kill_now();
    return false;
  }
  info_ = std::move(info);
  return true;
}

AdapterResult SubprocessAdapter::fault(ResultStatus s, const std::string& what) {
  std::string how = child_->kill_now();
  return {s, nullptr, what + " (implementation " + how + ")" + stderr_note()};
}

AdapterResult SubprocessAdapter::after_eof(const std::string& waiting_for) {
  std::string how = child_->finish(std::chrono::milliseconds(300));
  return {ResultStatus::kCrashed, nullptr, "implementation " + how + " while " + waiting_for + stderr_note()};
}

AdapterResult SubprocessAdapter::resolve(const std::string& id, const std::string& profile, const json& case_json) {
  if (!child_ || !child_->running()) {
    if (restart_failures_ >= kMaxRestartFailures)
      return {ResultStatus::kErrored, nullptr, "implementation could not be restarted: " + last_restart_error_};
    std::string err;
    if (!start(&err)) {
      ++restart_failures_;
      last_restart_error_ = err;
      return {ResultStatus::kErrored, nullptr, "implementation could not be restarted: " + err};
    }
    restart_failures_ = 0;
  }
  auto deadline = Clock::now() + timeout_;
  IoStatus st = child_->write_all(resolve_request(id, profile, case_json) + "\n", deadline);
  if (st == IoStatus::kTimeout) return fault(ResultStatus::kTimeout, "request not read within the timeout");
  if (st != IoStatus::kOk) return after_eof("the request was written");
  for (;;) {
    std::string line;
    st = child_->read_line(&line, deadline);
    if (st == IoStatus::kTimeout)
      return fault(ResultStatus::kTimeout, "no reply within " + std::to_string(timeout_.count() / 1000.0).substr(0, 5) + " s");
    if (st == IoStatus::kTooLong) return fault(ResultStatus::kErrored, "protocol error: reply line longer than 64 MiB");
    if (st != IoStatus::kOk) return after_eof("the harness waited for a reply");
    if (line.empty()) continue;
    Reply r = parse_reply(line);
    if (r.has_id && r.id != id && owed_.erase(r.id)) continue;  // the late reply to an earlier case
    if (r.kind == ReplyKind::kMalformed || r.id != id) {
      if (owed_.size() > 1000) owed_.clear();
      owed_.insert(id);
      std::string what = r.kind == ReplyKind::kMalformed ? r.message : "reply for id '" + r.id + "' while waiting for '" + id + "'";
      return {ResultStatus::kErrored, nullptr, "protocol error: " + what};
    }
    switch (r.kind) {
      case ReplyKind::kOutcome: return {ResultStatus::kOk, std::move(r.outcome), ""};
      case ReplyKind::kSkipped: return {ResultStatus::kSkipped, nullptr, r.message};
      case ReplyKind::kErrored: return {ResultStatus::kErrored, nullptr, r.message};
      case ReplyKind::kMalformed: break;
    }
    return {ResultStatus::kErrored, nullptr, "protocol error: " + r.message};
  }
}

void SubprocessAdapter::stop() {
  if (!child_ || !child_->running()) return;
  child_->write_all(stop_request() + "\n", Clock::now() + std::chrono::milliseconds(500));
  child_->finish(std::chrono::milliseconds(1000));
}

}  // namespace

std::unique_ptr<Adapter> make_subprocess_adapter(const std::string& command, double timeout_seconds) {
  return std::make_unique<SubprocessAdapter>(command, timeout_seconds);
}

}  // namespace accord::conformance
