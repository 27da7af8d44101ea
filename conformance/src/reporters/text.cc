// text.cc: the terminal report (a diff per failing case, then the counts) and the progress line.
#include <algorithm>
#include <chrono>
#include <ostream>

#include "reporters/common.h"

namespace accord::conformance {
namespace {
using detail::counts_text;
using detail::duration_text;
using detail::stopped_text;

class TextReporter : public ResultSink {
 public:
  explicit TextReporter(std::ostream& out) : out_(out) {}

  void begin(const RunHeader& h) override {
    header_ = h;
    out_ << "accord conform: " << h.corpus << " on " << h.implementation.name
         << (h.implementation.version.empty() ? "" : " " + h.implementation.version) << ", profile " << h.profile << ", "
         << h.selected << " cases";
    if (!h.divergence_file.empty()) out_ << ", divergences from " << h.divergence_file;
    out_ << "\n";
    out_.flush();
  }

  void result(const CaseResult& r) override {
    if (r.verdict != Verdict::kPassed && r.verdict != Verdict::kSkipped) kept_.push_back(r);
    if (r.verdict == Verdict::kSkipped) ++skip_reasons_[r.message];
  }

  void end(const Summary& s) override {
    std::sort(kept_.begin(), kept_.end(), [](const CaseResult& a, const CaseResult& b) { return a.id < b.id; });
    for (const auto& r : kept_) {
      if (r.verdict == Verdict::kExpectedDivergence) continue;
      out_ << "\n" << upper(verdict_name(r.verdict)) << " " << r.id << "  (" << r.file << ": " << r.pointer << ")\n";
      if (!r.title.empty()) out_ << "  " << r.title << "\n";
      out_ << detail_lines(r);
    }
    bool first = true;
    for (const auto& r : kept_) {
      if (r.verdict != Verdict::kExpectedDivergence) continue;
      out_ << (first ? "\nexpected divergences:\n" : "") << "  " << r.id << ": " << r.message << "\n";
      first = false;
    }
    if (!skip_reasons_.empty()) out_ << "\nskipped:\n";
    for (const auto& [reason, n] : skip_reasons_) out_ << "  " << n << " x " << reason << "\n";
    for (const auto& id : s.stale_divergences)
      out_ << "\nwarning: divergence entry '" << id << "' names no case of the corpus; remove it\n";
    if (auto stopped = stopped_text(s); !stopped.empty()) out_ << "\n" << stopped << "\n";
    out_ << "\n" << (s.ok() ? "PASS" : "FAIL") << ": " << s.selected << " cases: " << counts_text(s) << " ("
         << duration_text(s.seconds) << ")\n";
    out_.flush();
  }

 private:
  static std::string upper(std::string s) {
    for (auto& c : s) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
    return s;
  }
  static std::string detail_lines(const CaseResult& r) {
    std::string t = format_diffs(r.diffs, "  ");
    if (!r.message.empty()) {
      std::string m = r.message;
      for (std::size_t p = 0; (p = m.find('\n', p)) != std::string::npos; p += 5) m.replace(p, 1, "\n    ");
      t += "  " + m + "\n";
    }
    if (!r.reproduce.empty()) t += "  given: " + detail::shown(r.given, 400) + "\n  reproduce: " + r.reproduce + "\n";
    return t;
  }

  std::ostream& out_;
  RunHeader header_;
  std::vector<CaseResult> kept_;
  std::map<std::string, std::size_t> skip_reasons_;
};

class ProgressReporter : public ResultSink {
 public:
  ProgressReporter(std::ostream& err, bool tty) : err_(err), tty_(tty) {}
  void begin(const RunHeader& h) override {
    total_ = h.selected;
    start_ = last_ = Clock::now();
  }
  void result(const CaseResult& r) override {
    ++done_;
    bad_ += is_bad(r.verdict);
    auto now = Clock::now();
    auto since_last = now - last_;
    if (tty_ ? since_last < std::chrono::milliseconds(100)
             : (now - start_ < std::chrono::seconds(2) || since_last < std::chrono::seconds(5)))
      return;
    last_ = now;
    std::string line = "[" + std::to_string(done_) + "/" + std::to_string(total_) + "] " + std::to_string(bad_) +
                       " not passing, " + duration_text(std::chrono::duration<double>(now - start_).count());
    err_ << (tty_ ? "\r\033[K" + line : line + "\n");
    err_.flush();
    drawn_ = tty_;
  }
  void end(const Summary&) override {
    if (drawn_) err_ << "\r\033[K";
    err_.flush();
  }

 private:
  using Clock = std::chrono::steady_clock;
  std::ostream& err_;
  bool tty_;
  bool drawn_ = false;
  std::size_t total_ = 0, done_ = 0, bad_ = 0;
  Clock::time_point start_, last_;
};

}  // namespace

std::unique_ptr<ResultSink> make_text_reporter(std::ostream& out) { return std::make_unique<TextReporter>(out); }

std::unique_ptr<ResultSink> make_progress_reporter(std::ostream& err, bool tty) {
  return std::make_unique<ProgressReporter>(err, tty);
}

}  // namespace accord::conformance
