// html.cc: a self-contained HTML page: rows appended while running, then the final page (counts,
// every case with its verdict, the diff table of each case not passing).
#include <algorithm>

#include "reporters/common.h"

namespace accord::conformance::detail {
namespace {

const char* kStyle =
    "body{font-family:system-ui,sans-serif;margin:2em}table{border-collapse:collapse}"
    "td,th{border:1px solid #ccc;padding:2px 8px;text-align:left;vertical-align:top}"
    "code{font-family:monospace}.passed{background:#e6ffe6}.failed,.unexpected-pass{background:#ffe0e0}"
    ".errored,.crashed,.timeout{background:#fff0c0}.skipped,.expected-divergence{background:#eee}"
    "pre{margin:0;white-space:pre-wrap}";

std::string cell(const std::string& s) { return "<td>" + xml_escape(s) + "</td>"; }
std::string code_cell(const std::string& s) { return "<td><code>" + xml_escape(s) + "</code></td>"; }

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
    std::sort(results_.begin(), results_.end(), [](const CaseResult& a, const CaseResult& b) { return a.index < b.index; });
    std::string t = head() + "<p>Corpus <code>" + xml_escape(h_.corpus) + "</code>, started " + xml_escape(h_.started_at) +
                    ", " + std::to_string(s.selected) + " cases, " + duration_text(s.seconds) + ". <b>" +
                    (s.ok() ? "PASS" : "FAIL") + "</b></p>\n<table>\n<tr>";
    for (Verdict v : all_verdicts()) t += "<th class=\"" + std::string(verdict_name(v)) + "\">" + verdict_name(v) + "</th>";
    t += "</tr>\n<tr>";
    for (Verdict v : all_verdicts()) t += "<td>" + std::to_string(s.count(v)) + "</td>";
    t += "</tr>\n</table>\n";
    if (auto why = stopped_text(s); !why.empty()) {
      t += "<p class=\"stopped\"><b>" + xml_escape(why) + "</b></p>\n<ul class=\"not-run\">";
      for (const auto& id : s.not_run_ids) t += "<li><code>" + xml_escape(id) + "</code></li>";
      t += "</ul>\n";
    }
    for (const auto& id : s.stale_divergences)
      t += "<p>warning: divergence entry <code>" + xml_escape(id) + "</code> names no case of the corpus</p>\n";
    t += "<h2>Cases</h2>\n<table>\n<tr><th>case</th><th>verdict</th><th>details</th></tr>\n";
    for (const auto& r : results_) t += row(r, true);
    t += "</table>\n</body>\n</html>\n";
    f_->replace(t);
  }

 private:
  std::string head() const {
    std::string title = "accord conform: " + h_.implementation.name + " " + h_.implementation.version + ", profile " + h_.profile;
    return "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>" + xml_escape(title) + "</title>\n<style>" +
           kStyle + "</style>\n</head>\n<body>\n<h1>" + xml_escape(title) + "</h1>\n";
  }
  static std::string row(const CaseResult& r, bool details) {
    std::string v = verdict_name(r.verdict);
    std::string t = "<tr class=\"" + v + "\"><td><code>" + xml_escape(r.id) + "</code></td>" + cell(v);
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
