// runner.h: runs a corpus against an implementation and classifies every case.
#pragma once

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "accord/conformance/adapter.h"
#include "accord/conformance/compare.h"
#include "accord/conformance/fixture.h"
#include "accord/conformance/loader.h"
#include "accord/reference/profiles.h"

namespace accord::conformance {

/// The final classification of one case.
enum class Verdict {
  kPassed,
  kFailed,
  kSkipped,
  kErrored,
  kCrashed,
  kTimeout,
  kExpectedDivergence,  ///< listed in the divergence file and failed as listed
  kUnexpectedPass,      ///< listed in the divergence file but passed (strict: a failure)
};

/// Wire name (`passed`, `expected-divergence`, ...).
const char* verdict_name(Verdict v);
/// True for the verdicts that make a run fail.
bool is_bad(Verdict v);

/// Cases expected to fail on one implementation, each with its reason.
struct Divergences {
  std::string file;  ///< where they were read from ("" = none)
  std::string implementation;
  std::map<std::string, std::string> reasons;  ///< case id -> reason
};

/// Reads `{"implementation": "...", "divergences": {"<id>": "reason"}}`. False with `error`
/// (`file: /pointer: message`) on a missing file or bad content; never throws.
bool load_divergences(const std::string& path, Divergences* out, std::string* error);

/// What the runner does.
struct RunOptions {
  std::string profile = reference::profile_name(reference::default_profile());
  std::optional<std::regex> filter;  ///< searched in the case id
  int jobs = 1;                      ///< adapter instances in parallel (one thread each)
  bool fail_fast = false;            ///< stop after the first bad verdict
  Divergences divergences;
  std::string impl_command = "reference";  ///< the --impl text, for the command that reproduces a case
  /// When set, each case is first checked as `accord lint` checks it (case_problems, against these vocabularies); a
  /// case lint rejects is errored with lint's messages, never run or passed.
  const Vocabulary* lint = nullptr;
};

/// The result of one case.
struct CaseResult {
  std::string id;
  std::string title;
  std::string file;
  std::string pointer;
  Verdict verdict = Verdict::kPassed;
  std::vector<Diff> diffs;            ///< field-level differences (failed, expected-divergence)
  std::string message;                ///< skip reason, error, divergence reason
  nlohmann::json outcome;             ///< what the implementation answered (null when none)
  nlohmann::json given;               ///< the case input (every verdict but passed and skipped)
  std::string reproduce;              ///< `accord conform ... --filter '^ID$' ...`: the case alone (as `given`)
  double seconds = 0;                 ///< time the adapter took
  std::size_t index = 0;              ///< position in the selected case list
};

/// Counts per verdict, and the run as a whole.
struct Summary {
  std::map<Verdict, std::size_t> counts;
  std::size_t selected = 0;      ///< cases selected (profile + filter)
  std::size_t not_run = 0;       ///< selected cases not run (fail-fast, interrupted, crash loop, no start)
  std::vector<std::string> not_run_ids;  ///< their ids, in corpus order
  /// Why the run ended before every selected case ran ("" when it did not): `interrupted by SIGINT`, the crash-loop
  /// message, `--fail-fast`, or why the implementation could not start.
  std::string stopped;
  std::vector<std::string> stale_divergences;  ///< listed ids absent from the selection
  double seconds = 0;
  std::size_t count(Verdict v) const;
  /// True when at least one case was selected, nothing failed, errored, crashed, timed out or
  /// passed unexpectedly, and no selected case was left unrun.
  bool ok() const;
};

/// Run-level facts the reporters print before any result.
struct RunHeader {
  ImplementationInfo implementation;
  std::string profile;
  std::string corpus;
  std::string divergence_file;
  std::size_t selected = 0;
  std::string started_at;  ///< ISO 8601, UTC
};

/// Receives results as they arrive (from several threads, serialised by the runner).
class ResultSink {
 public:
  virtual ~ResultSink() = default;
  virtual void begin(const RunHeader& header) { (void)header; }
  virtual void result(const CaseResult& r) = 0;
  virtual void end(const Summary& summary) { (void)summary; }
};

/// Selects the cases of `fixtures` for the options' profile and filter, in corpus order.
std::vector<const Fixture*> select_cases(const std::vector<Fixture>& fixtures, const RunOptions& o);
/// The same for a packed corpus (LoadAs::kPacked).
std::vector<const PackedCase*> select_packed(const Corpus& c, const RunOptions& o);
/// The ids of the cases of `c` (either kind) for the options' profile and filter, in corpus order.
std::vector<std::string> selected_ids(const Corpus& c, const RunOptions& o);

/// Decides the verdict of one case from the adapter's answer (compare + divergences);
/// `trace_includes` counts only when `check_trace`.
CaseResult judge(const Fixture& f, const std::string& profile, const AdapterResult& r, const Divergences& d,
                 bool check_trace = true);

/// The capability tags `f` requires that `info` does not declare.
std::vector<std::string> missing_capabilities(const Fixture& f, const ImplementationInfo& info);

/// Runs cases on an implementation: start() performs the first handshake (so the caller can pick
/// the divergence file from the name), run() fans the cases out over `jobs` adapters.
struct Selection;  // runner.cc: the selected cases, ids up front and each Fixture when it runs

class Runner {
 public:
  Runner(AdapterFactory factory, RunOptions options);
  ~Runner();
  /// Starts the first adapter. False with `error` when it cannot start or handshake.
  bool start(std::string* error);
  /// The first adapter's handshake; valid after start().
  const ImplementationInfo& info() const;
  RunOptions& options() { return options_; }
  /// Runs the selected cases; each result goes to `sink` as it arrives. Requires start().
  Summary run(const std::vector<Fixture>& fixtures, const std::string& corpus, ResultSink& sink);
  /// The same for a loaded corpus of either kind; a packed case is read into a Fixture as it runs.
  Summary run(const Corpus& c, const std::string& corpus, ResultSink& sink);

 private:
  Summary run(const Selection& cases, const std::set<std::string>& ids, const std::string& corpus, ResultSink& sink);

  AdapterFactory factory_;
  RunOptions options_;
  std::unique_ptr<Adapter> first_;
};

}  // namespace accord::conformance
