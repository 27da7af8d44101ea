// adapter.h: how the harness reaches an implementation (in-process reference or JSON-lines subprocess).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace accord::reference {
struct Case;
}

namespace accord::conformance {

/// What an implementation says about itself in the handshake (conformance/PROTOCOL.md).
struct ImplementationInfo {
  std::string name;
  std::string version;
  std::string language;
  std::set<std::string> capabilities;
  int protocol = 1;
};

/// How one request ended, from the harness's point of view.
enum class ResultStatus {
  kOk,       ///< an outcome came back (it may still fail the expectation)
  kSkipped,  ///< the implementation declined the case
  kErrored,  ///< the implementation failed or broke the protocol for this case
  kCrashed,  ///< the implementation exited before replying
  kTimeout,  ///< no reply within the per-case timeout
};

/// Wire name of a status (`ok`, `skipped`, ...).
const char* status_name(ResultStatus s);

/// The answer to one request. `outcome` is set only for kOk; `message` explains the others.
struct AdapterResult {
  ResultStatus status = ResultStatus::kErrored;
  nlohmann::json outcome;
  std::string message;
  /// The implementation cannot go on (a crash loop): this case was not sent, and the run ends with `message` as
  /// its reason, every case left marked as not run.
  bool fatal = false;
  /// The implementation's own time for this case in nanoseconds (the reply's `elapsed_ns`), when the timing mode is on
  /// and the implementation measures it (PROTOCOL.md, "Timing mode").
  std::optional<std::int64_t> elapsed_ns = std::nullopt;
};

/// A protocol fault of an earlier case, found while reading later replies (or at stop): the case replied twice.
struct LateFault {
  std::string id;
  std::string message;
};

/// One running implementation. Not thread-safe: the runner gives each worker thread its own.
class Adapter {
 public:
  virtual ~Adapter() = default;
  /// Starts the implementation and performs the handshake. False (with `error` set) when it
  /// cannot start or refuses the protocol.
  virtual bool start(std::string* error) = 0;
  /// The handshake reply; valid after a successful start().
  virtual const ImplementationInfo& info() const = 0;
  /// Resolves one case under a profile. Never throws; faults become non-kOk statuses.
  virtual AdapterResult resolve(const std::string& id, const std::string& profile, const nlohmann::json& case_json) = 0;
  /// resolve(), except that an outcome is written as JSON text to `outcome_text` (the result's
  /// `outcome` stays null). serve() uses it; the default dumps resolve()'s outcome, and the
  /// reference overrides it with a direct writer that builds no JSON tree.
  virtual AdapterResult resolve_text(const std::string& id, const std::string& profile, const nlohmann::json& case_json,
                                     std::string* outcome_text);
  /// resolve_text() for a case already read (FastCaseReader: the fast path of serve), except that the outcome's text
  /// is appended to `outcome_text` (serve writes it in place in the reply). nullopt when the adapter takes only JSON
  /// (the default); the caller then uses resolve_text().
  virtual std::optional<AdapterResult> resolve_case_text(const std::string& profile, const reference::Case& c,
                                                         std::string* outcome_text) {
    (void)profile, (void)c, (void)outcome_text;
    return std::nullopt;
  }
  /// The timing mode (PROTOCOL.md): asked before start(), the implementation reports its own time per case
  /// (AdapterResult::elapsed_ns) when it can.
  void ask_timing(bool on) { timing_ = on; }
  bool timing() const { return timing_; }
  /// Ends the session (`stop`), waiting briefly; safe to call twice.
  virtual void stop() = 0;
  /// The faults of cases already answered that were found since the last call (a second reply to a case arrives
  /// while the harness waits for the next one, or before the implementation exits); the runner charges them to
  /// those cases. The default: none.
  virtual std::vector<LateFault> take_late_faults() { return {}; }

 private:
  bool timing_ = false;
};

/// Makes a fresh, unstarted adapter (one per worker thread).
using AdapterFactory = std::function<std::unique_ptr<Adapter>()>;

/// The in-process reference (accord::reference): no process, no JSON text, every capability.
std::unique_ptr<Adapter> make_reference_adapter();

/// A subprocess speaking PROTOCOL.md: `/bin/sh -c command`, per-case timeout, restart after a
/// crash or timeout, stderr kept in a bounded buffer for the messages.
std::unique_ptr<Adapter> make_subprocess_adapter(const std::string& command, double timeout_seconds);

/// The limits of a subprocess implementation (conformance/PROTOCOL.md, "Limits").
struct SubprocessOptions {
  double timeout_seconds = 10;          ///< per case: from the request to its reply
  double startup_timeout_seconds = 60;  ///< the handshake, at the first start and at each restart
  /// Restarts in a row without one reply in between after which the implementation is given up (a crash loop):
  /// the case that would need one more restart and every case after it are not run, and the run ends.
  int max_restarts = 5;
};
std::unique_ptr<Adapter> make_subprocess_adapter(const std::string& command, const SubprocessOptions& options);

/// Vocabularies the reference knows, used by `accord lint`.
struct Vocabulary {
  std::function<bool(const std::string&)> is_rule;        ///< a rule ID of rules.def
  std::function<bool(const std::string&)> is_code;        ///< a diagnostic code of diagnostics.def
  std::function<bool(const std::string&)> is_profile;     ///< a profile of tables/profiles.def
  std::function<bool(const std::string&)> is_capability;  ///< a tag of tables/capabilities.def
  /// Empty when the reference can read the case; otherwise "pointer: message".
  std::function<std::string(const nlohmann::json&)> check_case;
  std::function<std::vector<std::string>()> profile_names;  ///< every profile name, now (profiles can be added at run time)
  /// The fields of a code's catalogue template that name a flag (one of tables/flags.def, or `flag` itself): what an
  /// error of that code must name (seed item 7). Empty for an unknown code.
  std::function<std::vector<std::string>(const std::string&)> code_flag_fields;
};

/// The reference's vocabularies.
const Vocabulary& reference_vocabulary();

/// Every capability tag of tables/capabilities.def, as the reference declares them.
const std::vector<std::string>& known_capabilities();
/// What each tag of known_capabilities() means (same order; the table's second column).
const std::vector<std::string>& capability_meanings();

}  // namespace accord::conformance
