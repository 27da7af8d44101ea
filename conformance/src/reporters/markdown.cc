// markdown.cc: a Markdown report (for $GITHUB_STEP_SUMMARY): rows appended while running, then the
// final document (counts, a diff table per case not passing, every case folded away).
#include <algorithm>

#include "reporters/common.h"

namespace accord::conformance::detail {
namespace {

std::string code(const std::string& s) { return s.empty() ? "" : "`" + md_cell(s) + "`"; }

class MarkdownReporter : public ResultSink {
 public:
  explicit MarkdownReporter(std::unique_ptr<StreamedFile> f) : f_(std::move(f)) {}
  void begin(const RunHeader& h) override {
    h_ = h;
    f_->append(title() + "\n\nRunning...\n\n| case | verdict |\n|---|---|\n");
  }
  void result(const CaseResult& r) override {
    f_->append("| " + code(r.id) + " | " + verdict_name(r.verdict) + " |\n");
    results_.push_back(r);
  }
  void end(const Summary& s) override {
    std::sort(results_.begin(), results_.end(), [](const CaseResult& a, const CaseResult& b) { return a.index < b.index; });
    std::string t = title() + "\n\nCorpus " + code(h_.corpus) + ", started " + h_.started_at + ", " +
                    std::to_string(s.selected) + " cases, " + duration_text(s.seconds) + ".";
    if (!h_.divergence_file.empty()) t += " Divergences: " + code(h_.divergence_file) + ".";
    t += "\n\n**" + std::string(s.ok() ? "PASS" : "FAIL") + "**\n\n";
    if (auto why = stopped_text(s); !why.empty()) {
      t += "> **" + md_cell(why) + "**";
      for (const auto& id : s.not_run_ids) t += "<br>" + code(id);
      t += "\n\n";
    }
    t += "|";
    for (Verdict v : all_verdicts()) t += " " + std::string(verdict_name(v)) + " |";
    t += "\n|";
    for (std::size_t i = 0; i < all_verdicts().size(); ++i) t += "---:|";
    t += "\n|";
    for (Verdict v : all_verdicts()) t += " " + std::to_string(s.count(v)) + " |";
    t += "\n";
    t += details();
    for (const auto& id : s.stale_divergences) t += "\n> warning: divergence entry " + code(id) + " names no case of the corpus\n";
    t += "\n<details><summary>All " + std::to_string(results_.size()) + " cases</summary>\n\n| case | verdict |\n|---|---|\n";
    for (const auto& r : results_) t += "| " + code(r.id) + " | " + verdict_name(r.verdict) + " |\n";
    t += "\n</details>\n";
    f_->replace(t);
  }

 private:
  std::string title() const {
    return "# accord conform: " + h_.implementation.name +
           (h_.implementation.version.empty() ? "" : " " + h_.implementation.version) + ", profile `" + h_.profile + "`";
  }
  std::string details() const {
    std::string t;
    for (const auto& r : results_) {
      if (r.verdict == Verdict::kPassed || r.verdict == Verdict::kSkipped) continue;
      if (t.empty()) t = "\n## Cases not passing\n";
      t += "\n### " + code(r.id) + ": " + verdict_name(r.verdict) + "\n\n" + md_cell(r.title) + " (" + code(r.file) + " " +
           code(r.pointer) + ")\n";
      if (!r.diffs.empty()) {
        t += "\n| field | expected | actual | note |\n|---|---|---|---|\n";
        for (const auto& d : r.diffs)
          t += "| " + code(d.pointer.empty() ? "/" : d.pointer) + " | " + code(shown(d.expected)) + " | " +
               code(shown(d.actual)) + " | " + md_cell(d.note) + " |\n";
      }
      if (!r.message.empty()) t += "\n```\n" + r.message + "\n```\n";
      if (!r.reproduce.empty()) t += "\n- given: " + code(shown(r.given, 400)) + "\n- reproduce: " + code(r.reproduce) + "\n";
    }
    return t;
  }

  std::unique_ptr<StreamedFile> f_;
  RunHeader h_;
  std::vector<CaseResult> results_;
};

}  // namespace

std::unique_ptr<ResultSink> make_markdown_reporter(std::unique_ptr<StreamedFile> f) {
  return std::make_unique<MarkdownReporter>(std::move(f));
}

}  // namespace accord::conformance::detail
