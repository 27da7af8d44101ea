// runner.cc: selects cases, fans them out over adapter instances, judges and streams each result.
#include "accord/conformance/runner.h"

#include <atomic>
#include <chrono>
#include <ctime>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "accord/conformance/command_line.h"
#include "accord/conformance/interrupt.h"
#include "accord/conformance/lint.h"

namespace accord::conformance {

/// The selected cases of a run: their ids up front, each Fixture when it runs (a packed case is read then, into the
/// worker's scratch Fixture).
struct Selection {
  std::vector<const std::string*> ids;
  std::function<bool(std::size_t k, Fixture& scratch, const Fixture** out, std::string* error)> at;
};

namespace {
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

Verdict verdict_of(ResultStatus s) {
  switch (s) {
    case ResultStatus::kOk: return Verdict::kPassed;
    case ResultStatus::kSkipped: return Verdict::kSkipped;
    case ResultStatus::kErrored: return Verdict::kErrored;
    case ResultStatus::kCrashed: return Verdict::kCrashed;
    case ResultStatus::kTimeout: return Verdict::kTimeout;
  }
  return Verdict::kErrored;  // LCOV_EXCL_LINE unreachable: every status returns above
}

/// Shared state of one run: the case queue, the sink (serialised) and the counts.
struct RunState {
  RunState(const Selection& c, const RunOptions& o, const std::string& dir, ResultSink& s)
      : cases(c), options(o), corpus(dir), sink(s) {}
  const Selection& cases;
  const RunOptions& options;
  const std::string& corpus;
  ResultSink& sink;
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex mu;
  Summary summary;
  std::vector<char> done = std::vector<char>(cases.ids.size(), 0);  ///< per selected case: a result was emitted
};

/// The stop reason of a run (the first one wins).
void stop_run(RunState& st, const std::string& why) {
  std::lock_guard<std::mutex> lock(st.mu);
  if (st.summary.stopped.empty()) st.summary.stopped = why;
  st.stop = true;
}

/// Hands a judged result to the sink. A result is held back until the adapter's next reply (or its stop), so that a
/// second reply found later is charged to the case that sent it (Adapter::take_late_faults).
void emit(RunState& st, CaseResult r) {
  std::lock_guard<std::mutex> lock(st.mu);
  ++st.summary.counts[r.verdict];
  st.done[r.index] = 1;
  if (st.options.fail_fast && is_bad(r.verdict)) {
    st.stop = true;
    if (st.summary.stopped.empty()) st.summary.stopped = "--fail-fast";
  }
  if (r.verdict != Verdict::kPassed && r.verdict != Verdict::kSkipped) {  // what a person needs to run it again
    Fixture scratch;
    const Fixture* f = nullptr;
    std::string unused;
    if (st.cases.at(r.index, scratch, &f, &unused)) r.given = f->given;
    r.reproduce = conform_command(st.corpus, st.options.impl_command, st.options.profile, r.id);
  }
  st.sink.result(r);
}

/// What `accord lint` says of the case ("" when nothing, or when the run does not ask).
std::string lint_problems(const RunState& st, const Fixture& f) {
  if (!st.options.lint) return "";
  std::vector<LoadError> problems;
  case_problems(f, st.corpus, *st.options.lint, &problems);
  std::string text;
  for (const auto& p : problems) text += (text.empty() ? "accord lint rejects the case: " : "; ") + to_string(p);
  return text;
}

void charge_late_faults(Adapter& adapter, std::optional<CaseResult>& held) {
  for (auto& f : adapter.take_late_faults()) {
    if (!held || held->id != f.id) continue;  // a case already emitted cannot be revised (results stream out)
    held->verdict = Verdict::kErrored;
    held->message = f.message;
    held->diffs.clear();
  }
}

void work(Adapter& adapter, RunState& st) {
  const bool trace = adapter.info().capabilities.count("trace") > 0;
  std::optional<CaseResult> held;
  auto hand_over = [&](CaseResult r) {  // held until the adapter's next reply, then emitted (see emit)
    if (st.options.fail_fast && is_bad(r.verdict)) stop_run(st, "--fail-fast");  // now, not when it is emitted
    charge_late_faults(adapter, held);
    if (held) emit(st, std::move(*held));
    held = std::move(r);
  };
  Fixture scratch;
  for (;;) {
    if (st.stop || interrupt_signal()) break;
    std::size_t i = st.next++;
    if (i >= st.cases.ids.size()) break;
    auto t0 = Clock::now();
    const Fixture* fp = nullptr;
    std::string unreadable;
    if (!st.cases.at(i, scratch, &fp, &unreadable)) {  // a packed case that no longer reads: said, never passed
      CaseResult r;
      r.id = *st.cases.ids[i], r.verdict = Verdict::kErrored, r.message = unreadable, r.index = i;
      hand_over(std::move(r));
      continue;
    }
    const Fixture& f = *fp;
    AdapterResult ar;
    auto missing = missing_capabilities(f, adapter.info());
    if (std::string rejected = lint_problems(st, f); !rejected.empty()) {
      ar = {ResultStatus::kErrored, nullptr, rejected};
    } else if (!missing.empty()) {
      ar = {ResultStatus::kSkipped, nullptr, "implementation lacks capability " + missing.front()};
      for (std::size_t k = 1; k < missing.size(); ++k) ar.message += ", " + missing[k];
    } else {
      ar = adapter.resolve(f.id, st.options.profile, f.given);
    }
    if (ar.fatal) {
      stop_run(st, ar.message);
      break;
    }
    // A reply that was cut short by the interrupt (its process group killed) is no verdict: the case is not run.
    if (interrupt_signal() && ar.status != ResultStatus::kOk && ar.status != ResultStatus::kSkipped) break;
    CaseResult r = judge(f, st.options.profile, ar, st.options.divergences, trace);
    r.seconds = since(t0);
    r.index = i;
    hand_over(std::move(r));
  }
  adapter.stop();  // a second reply sent just before the implementation exits is still charged
  charge_late_faults(adapter, held);
  if (held) emit(st, std::move(*held));
}

}  // namespace

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kPassed: return "passed";
    case Verdict::kFailed: return "failed";
    case Verdict::kSkipped: return "skipped";
    case Verdict::kErrored: return "errored";
    case Verdict::kCrashed: return "crashed";
    case Verdict::kTimeout: return "timeout";
    case Verdict::kExpectedDivergence: return "expected-divergence";
    case Verdict::kUnexpectedPass: return "unexpected-pass";
  }
  return "?";  // LCOV_EXCL_LINE unreachable: every verdict returns above
}

bool is_bad(Verdict v) {
  switch (v) {
    case Verdict::kPassed:
    case Verdict::kSkipped:
    case Verdict::kExpectedDivergence: return false;
    case Verdict::kFailed:
    case Verdict::kErrored:
    case Verdict::kCrashed:
    case Verdict::kTimeout:
    case Verdict::kUnexpectedPass: return true;
  }
  return true;  // LCOV_EXCL_LINE unreachable: every verdict returns above
}

std::size_t Summary::count(Verdict v) const {
  auto it = counts.find(v);
  return it == counts.end() ? 0 : it->second;
}

bool Summary::ok() const {
  for (const auto& [v, n] : counts)
    if (n && is_bad(v)) return false;
  return not_run == 0 && selected > 0;  // a run that checked nothing is no pass
}

std::vector<const Fixture*> select_cases(const std::vector<Fixture>& fixtures, const RunOptions& o) {
  std::vector<const Fixture*> out;
  for (const auto& f : fixtures)
    if (f.applies_to(o.profile) && (!o.filter || std::regex_search(f.id, *o.filter))) out.push_back(&f);
  return out;
}

std::vector<const PackedCase*> select_packed(const Corpus& c, const RunOptions& o) {
  std::vector<const PackedCase*> out;
  for (const auto& p : c.packed)
    if (case_applies(p.profiles, p.profiles_except, o.profile) && (!o.filter || std::regex_search(p.id, *o.filter)))
      out.push_back(&p);
  return out;
}

std::vector<std::string> missing_capabilities(const Fixture& f, const ImplementationInfo& info) {
  std::vector<std::string> missing;
  for (const auto& tag : f.requires_)
    if (!info.capabilities.count(tag)) missing.push_back(tag);
  return missing;
}

CaseResult judge(const Fixture& f, const std::string& profile, const AdapterResult& ar, const Divergences& d,
                 bool check_trace) {
  CaseResult r;
  r.id = f.id, r.title = f.title, r.file = f.file, r.pointer = f.pointer;
  r.outcome = ar.outcome;
  r.verdict = verdict_of(ar.status);
  r.message = ar.message;
  if (ar.status == ResultStatus::kOk) {
    const Expectation* e = f.expectation_for(profile);
    if (!e) {
      r.verdict = Verdict::kErrored;
      r.message = "the case has no expectation for profile '" + profile + "'";
      return r;
    }
    if (checks_nothing(*e)) {  // what `accord lint` rejects is never a pass
      r.verdict = Verdict::kErrored;
      r.message = f.file + ": " + e->pointer + ": the expectation checks nothing (accord lint rejects it): give plan "
                  "fields, an error code, or diagnostics to check";
      return r;
    }
    Comparison c = compare(ar.outcome, *e, check_trace);
    r.verdict = c.pass ? Verdict::kPassed : Verdict::kFailed;
    r.diffs = std::move(c.diffs);
  }
  auto listed = d.reasons.find(f.id);
  if (listed == d.reasons.end()) return r;
  if (r.verdict == Verdict::kPassed) {
    r.verdict = Verdict::kUnexpectedPass;
    r.message = "listed as a divergence in " + d.file + " (" + listed->second + ") but passed; remove the entry";
  } else if (r.verdict == Verdict::kFailed) {
    r.verdict = Verdict::kExpectedDivergence;
    r.message = listed->second;
  }
  return r;
}

Runner::Runner(AdapterFactory factory, RunOptions options) : factory_(std::move(factory)), options_(std::move(options)) {}

Runner::~Runner() {
  if (first_) first_->stop();
}

bool Runner::start(std::string* error) {
  first_ = factory_();
  return first_->start(error);
}

const ImplementationInfo& Runner::info() const { return first_->info(); }

Summary Runner::run(const std::vector<Fixture>& fixtures, const std::string& corpus, ResultSink& sink) {
  std::vector<const Fixture*> cases = select_cases(fixtures, options_);
  Selection sel;
  for (const auto* f : cases) sel.ids.push_back(&f->id);
  sel.at = [&cases](std::size_t k, Fixture&, const Fixture** out, std::string*) { return *out = cases[k], true; };
  std::set<std::string> ids;
  for (const auto& f : fixtures) ids.insert(f.id);
  return run(sel, ids, corpus, sink);
}

Summary Runner::run(const Corpus& c, const std::string& corpus, ResultSink& sink) {
  if (c.as == LoadAs::kFixtures) return run(c.fixtures, corpus, sink);
  std::vector<const PackedCase*> cases = select_packed(c, options_);
  std::set<std::string> ids;
  for (const auto& p : c.packed) ids.insert(p.id);
  Selection sel;
  for (const auto* p : cases) sel.ids.push_back(&p->id);
  sel.at = [&](std::size_t k, Fixture& scratch, const Fixture** out, std::string* error) {
    scratch = Fixture();
    return unpack(c, *cases[k], &scratch, error) && (*out = &scratch, true);
  };
  return run(sel, ids, corpus, sink);
}

Summary Runner::run(const Selection& cases, const std::set<std::string>& ids, const std::string& corpus, ResultSink& sink) {
  auto t0 = Clock::now();
  RunState st{cases, options_, corpus, sink};
  const std::size_t n = cases.ids.size();
  st.summary.selected = n;
  for (const auto& [id, reason] : options_.divergences.reasons)
    if (!ids.count(id)) st.summary.stale_divergences.push_back(id);
  sink.begin({first_->info(), options_.profile, corpus, options_.divergences.file, n, utc_now()});
  int jobs = std::max(1, std::min<int>(options_.jobs, static_cast<int>(std::max<std::size_t>(n, 1))));
  std::vector<std::thread> threads;
  for (int j = 1; j < jobs; ++j)
    threads.emplace_back([&] {
      auto adapter = factory_();
      std::string err;
      if (adapter->start(&err)) work(*adapter, st);
      adapter->stop();
    });
  work(*first_, st);
  for (auto& t : threads) t.join();
  for (std::size_t k = 0; k < n; ++k)
    if (!st.done[k]) st.summary.not_run_ids.push_back(*cases.ids[k]);
  st.summary.not_run = st.summary.not_run_ids.size();
  if (interrupt_signal()) st.summary.stopped = interrupt_text();  // the interrupt explains the cases it left
  st.summary.seconds = since(t0);
  sink.end(st.summary);
  return st.summary;
}

std::vector<std::string> selected_ids(const Corpus& c, const RunOptions& o) {
  std::vector<std::string> out;
  if (c.as == LoadAs::kFixtures)
    for (const auto* f : select_cases(c.fixtures, o)) out.push_back(f->id);
  else
    for (const auto* p : select_packed(c, o)) out.push_back(p->id);
  return out;
}

}  // namespace accord::conformance
