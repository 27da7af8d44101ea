// html.cc: a self-contained HTML page: rows appended while running, then the final page: the summary (verdict
// counts, then per area), a filter box, and every case with the cases not passing first, each with its diff, input
// and the command that reproduces it.
#include <algorithm>
#include <map>

#include "reporters/common.h"

namespace accord::conformance::detail {
namespace {

const char* kStyle =
    ".passed{background:#e6ffe6}.failed,.unexpected-pass{background:#ffe0e0}"
    ".errored,.crashed,.timeout{background:#fff0c0}.skipped,.expected-divergence{background:#eee}";

std::string cell(const std::string& s) { return "<td>" + xml_escape(s) + "</td>"; }
std::string code_cell(const std::string& s) { return "<td><code>" + xml_escape(s) + "</code></td>"; }

/// Cases not passing first (failures, then errors, then expected divergences and skips), passes last.
int rank(Verdict v) {
  switch (v) {
    case Verdict::kFailed:
    case Verdict::kUnexpectedPass: return 0;
    case Verdict::kErrored:
    case Verdict::kCrashed:
    case Verdict::kTimeout: return 1;
    case Verdict::kExpectedDivergence: return 2;
    case Verdict::kSkipped: return 3;
    case Verdict::kPassed: return 4;
  }
  return 4;  // LCOV_EXCL_LINE unreachable: every verdict returns above
}

class HtmlReporter : public ResultSink {
 public:
  explicit HtmlReporter(std::unique_ptr<StreamedFile> f) : f_(std::move(f)) {}
  void begin(const RunHeader& h) override {
    h_ = h;
    f_->append(head() + "<p>Running...</p>\n<table>\n<tr><th>case</th><th>verdict</th></tr>\n");
  }
  void result(const CaseResult& r) override {
    f_->append(row(r, false));
    results_.push_back(r);
  }
  void end(const Summary& s) override {
    std::sort(results_.begin(), results_.end(), [](const CaseResult& a, const CaseResult& b) {
      return rank(a.verdict) != rank(b.verdict) ? rank(a.verdict) < rank(b.verdict) : a.index < b.index;
    });
    std::string t = head() + "<p class=\"summary\"><b>" + (s.ok() ? "PASS" : "FAIL") + ": " + std::to_string(s.selected) +
                    " cases: " + xml_escape(counts_text(s)) + "</b> (corpus <code>" + xml_escape(h_.corpus) + "</code>, started " +
                    xml_escape(h_.started_at) + ", " + duration_text(s.seconds) + ")</p>\n<table class=\"counts\">\n<tr>";
    for (Verdict v : all_verdicts()) t += "<th class=\"" + std::string(verdict_name(v)) + "\">" + verdict_name(v) + "</th>";
    t += "</tr>\n<tr>";
    for (Verdict v : all_verdicts()) t += "<td>" + std::to_string(s.count(v)) + "</td>";
    t += "</tr>\n</table>\n" + areas();
    if (auto why = stopped_text(s); !why.empty()) {
      t += "<p class=\"stopped\"><b>" + xml_escape(why) + "</b></p>\n<ul class=\"not-run\">";
      for (const auto& id : s.not_run_ids) t += "<li><code>" + xml_escape(id) + "</code></li>";
      t += "</ul>\n";
    }
    for (const auto& id : s.stale_divergences)
      t += "<p>warning: divergence entry <code>" + xml_escape(id) + "</code> names no case of the corpus</p>\n";
    t += "<h2>Cases</h2>\n" + filter_box("filter cases (id, verdict, field, value)") +
         "<table class=\"cases\">\n<tr><th>case</th><th>verdict</th><th>details</th></tr>\n";
    for (const auto& r : results_) t += row(r, true);
    t += "</table>\n</body>\n</html>\n";
    f_->replace(t);
  }

 private:
  std::string head() const {
    std::string title = "accord conform: " + h_.implementation.name + " " + h_.implementation.version + ", profile " + h_.profile;
    return "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>" + xml_escape(title) + "</title>\n<style>" +
           kPageStyle + kStyle + "</style>\n</head>\n<body>\n<h1>" + xml_escape(title) + "</h1>\n";
  }
  /// Verdict counts per area (the id's part before the first '/').
  std::string areas() const {
    std::map<std::string, std::map<Verdict, std::size_t>> per;
    for (const auto& r : results_) ++per[r.id.substr(0, r.id.find('/'))][r.verdict];
    std::string t = "<table class=\"areas\">\n<tr><th>area</th>";
    for (Verdict v : all_verdicts()) t += "<th>" + std::string(verdict_name(v)) + "</th>";
    t += "</tr>\n";
    for (const auto& [area, counts] : per) {
      bool bad = std::any_of(counts.begin(), counts.end(), [](const auto& c) { return is_bad(c.first); });
      t += std::string("<tr") + (bad ? " class=\"failed\"" : "") + ">" + cell(area);
      for (Verdict v : all_verdicts()) {
        auto it = counts.find(v);
        t += cell(it == counts.end() ? "" : std::to_string(it->second));
      }
      t += "</tr>\n";
    }
    return t + "</table>\n";
  }
  static std::string row(const CaseResult& r, bool details) {
    std::string v = verdict_name(r.verdict);
    std::string t = "<tr class=\"" + std::string(details ? "case " : "") + v + "\"><td><code>" + xml_escape(r.id) + "</code></td>" + cell(v);
    if (details) {
      t += "<td>";
      if (r.verdict != Verdict::kPassed) t += xml_escape(r.title) + " <small>(" + xml_escape(r.file) + " " + xml_escape(r.pointer) + ")</small>";
      if (!r.diffs.empty()) {
        t += "<table><tr><th>field</th><th>expected</th><th>actual</th><th>note</th></tr>";
        for (const auto& d : r.diffs)
          t += "<tr>" + code_cell(d.pointer.empty() ? "/" : d.pointer) + code_cell(shown(d.expected)) +
               code_cell(shown(d.actual)) + cell(d.note) + "</tr>";
        t += "</table>";
      }
      if (!r.message.empty()) t += "<pre>" + xml_escape(r.message) + "</pre>";
      if (!r.reproduce.empty())
        t += "given <code>" + xml_escape(shown(r.given, 400)) + "</code><br>reproduce <pre class=\"reproduce\">" + xml_escape(r.reproduce) + "</pre>";
      t += "</td>";
    }
    return t + "</tr>\n";
  }

  std::unique_ptr<StreamedFile> f_;
  RunHeader h_;
  std::vector<CaseResult> results_;
};

}  // namespace

std::unique_ptr<ResultSink> make_html_reporter(std::unique_ptr<StreamedFile> f) {
  return std::make_unique<HtmlReporter>(std::move(f));
}

}  // namespace accord::conformance::detail
