// subprocess_jsonl.cc: an implementation in another process, spoken to with PROTOCOL.md over pipes;
// restarted after a crash or timeout, protocol faults mark the case and the run goes on.
#include <set>
#include <utility>

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
  SubprocessAdapter(std::string command, const SubprocessOptions& o)
      : command_(std::move(command)), timeout_(millis(o.timeout_seconds)), startup_timeout_(millis(o.startup_timeout_seconds)),
        max_restarts_(o.max_restarts) {}
  ~SubprocessAdapter() override { stop(); }

  bool start(std::string* error) override;
  const ImplementationInfo& info() const override { return info_; }
  AdapterResult resolve(const std::string& id, const std::string& profile, const json& case_json) override;
  void stop() override;
  std::vector<LateFault> take_late_faults() override { return std::exchange(late_, {}); }

 private:
  static std::chrono::milliseconds millis(double s) { return std::chrono::milliseconds(static_cast<long long>(s * 1000)); }
  /// A line with the id of the case answered last, which is owed nothing: that case replied twice.
  bool second_reply(const Reply& r, const std::string& waiting_for);
  AdapterResult fault(ResultStatus s, const std::string& what);
  AdapterResult after_eof(const std::string& waiting_for);
  std::string stderr_note() const;

  std::string command_;
  std::chrono::milliseconds timeout_, startup_timeout_;
  int max_restarts_;
  std::unique_ptr<ChildProcess> child_;
  ImplementationInfo info_;
  std::set<std::string> owed_;  ///< ids whose reply never came in step; a late reply is skipped
  std::string answered_;        ///< the id of the last case whose reply was taken
  std::vector<LateFault> late_;
  int restarts_without_reply_ = 0;
  std::string last_failure_;  ///< how the implementation last ended or failed to start (the crash-loop message)
};

bool SubprocessAdapter::second_reply(const Reply& r, const std::string& waiting_for) {
  if (!r.has_id || answered_.empty() || r.id != answered_ || owed_.count(r.id)) return false;
  std::string where = waiting_for.empty() ? "before the implementation exited" : "while the harness waited for '" + waiting_for + "'";
  late_.push_back({answered_, "protocol error: a second reply to this case came " + where});
  answered_.clear();  // one charge per case
  return true;
}

std::string seconds(std::chrono::milliseconds t) {
  std::string s = std::to_string(t.count() / 1000.0);
  s.erase(s.find_last_not_of('0') + 1);
  if (s.back() == '.') s.pop_back();
  return s + " s";
}

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
  auto deadline = Clock::now() + startup_timeout_;
  answered_.clear();
  std::string line;
  IoStatus st = child_->write_all(start_request(timing()) + "\n", deadline);
  if (st == IoStatus::kOk) st = child_->read_line(&line, deadline);
  if (st != IoStatus::kOk) {
    std::string how = st == IoStatus::kTimeout ? child_->kill_now() : child_->finish(std::chrono::milliseconds(500));
    *error = (st == IoStatus::kTimeout ? "no handshake reply within the start-up timeout (" + seconds(startup_timeout_) + ", --startup-timeout)"
                                       : "no handshake reply; the implementation " + how) +
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
  last_failure_ = what + " (implementation " + how + ")";
  return {s, nullptr, last_failure_ + stderr_note()};
}

AdapterResult SubprocessAdapter::after_eof(const std::string& waiting_for) {
  std::string how = child_->finish(std::chrono::milliseconds(300));
  last_failure_ = "implementation " + how + " while " + waiting_for;
  return {ResultStatus::kCrashed, nullptr, last_failure_ + stderr_note()};
}

AdapterResult SubprocessAdapter::resolve(const std::string& id, const std::string& profile, const json& case_json) {
  if (!child_ || !child_->running()) {
    if (restarts_without_reply_ >= max_restarts_) {  // a crash loop: give up rather than restart for every case
      AdapterResult r{ResultStatus::kErrored, nullptr,
                      "crash loop: the implementation was restarted " + std::to_string(restarts_without_reply_) +
                          " times in a row without answering a case (--max-restarts " + std::to_string(max_restarts_) +
                          "); the run ends here. Last: " + last_failure_};
      r.fatal = true;
      return r;
    }
    ++restarts_without_reply_;
    std::string err;
    if (!start(&err)) {
      last_failure_ = "could not be restarted: " + err;
      return {ResultStatus::kErrored, nullptr, "implementation could not be restarted: " + err};
    }
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
    if (st == IoStatus::kTooLong) return fault(ResultStatus::kErrored, "protocol error: reply line longer than " + line_limit_text());
    if (st != IoStatus::kOk) return after_eof("the harness waited for a reply");
    if (line.empty()) continue;
    Reply r = parse_reply(line);
    if (r.has_id && r.id != id && owed_.erase(r.id)) continue;  // the late reply to an earlier case
    if (r.id != id && second_reply(r, id)) continue;            // charged to the case that sent it
    if (r.kind == ReplyKind::kMalformed || r.id != id) {
      if (owed_.size() > 1000) owed_.clear();
      owed_.insert(id);
      std::string what = r.kind == ReplyKind::kMalformed ? r.message : "reply for id '" + r.id + "' while waiting for '" + id + "'";
      return {ResultStatus::kErrored, nullptr, "protocol error: " + what};
    }
    answered_ = id;
    restarts_without_reply_ = 0;
    switch (r.kind) {
      case ReplyKind::kOutcome: {
        AdapterResult ok{ResultStatus::kOk, std::move(r.outcome), ""};
        ok.elapsed_ns = r.elapsed_ns;
        return ok;
      }
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
  std::string rest = child_->take_unread(), line;  // a second reply to the last case, sent before it exited
  for (std::size_t at = 0; at < rest.size();) {
    std::size_t nl = rest.find('\n', at);
    line = rest.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    at = nl == std::string::npos ? rest.size() : nl + 1;
    if (!line.empty()) second_reply(parse_reply(line), "");
  }
}

}  // namespace

std::unique_ptr<Adapter> make_subprocess_adapter(const std::string& command, const SubprocessOptions& options) {
  return std::make_unique<SubprocessAdapter>(command, options);
}

std::unique_ptr<Adapter> make_subprocess_adapter(const std::string& command, double timeout_seconds) {
  SubprocessOptions o;
  o.timeout_seconds = o.startup_timeout_seconds = timeout_seconds;
  return make_subprocess_adapter(command, o);
}

}  // namespace accord::conformance
