// junit.cc: JUnit XML: each <testcase> is appended as it arrives; at the end the file is replaced by
// the complete document with the suite's counts.
#include <cstdio>

#include "reporters/common.h"

namespace accord::conformance::detail {
namespace {

std::string seconds_attr(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", s);
  return buf;
}

class JunitReporter : public ResultSink {
 public:
  explicit JunitReporter(std::unique_ptr<StreamedFile> f) : f_(std::move(f)) {}
  void begin(const RunHeader& h) override {
    name_ = "accord-conform." + h.implementation.name + "." + h.profile;
    started_ = h.started_at;
    f_->append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n<testsuite name=\"" + xml_escape(name_) + "\">\n");
  }
  void result(const CaseResult& r) override {
    std::string area = r.id.substr(0, r.id.find('/'));
    std::string t = "  <testcase classname=\"" + xml_escape(area) + "\" name=\"" + xml_escape(r.id) + "\" file=\"" +
                    xml_escape(r.file) + "\" time=\"" + seconds_attr(r.seconds) + "\">";
    std::string body = format_diffs(r.diffs, "") + r.message;
    if (!r.reproduce.empty()) body += (body.empty() || body.back() == '\n' ? "" : "\n") + std::string("given: ") + shown(r.given, 2000) +
                                      "\nreproduce: " + r.reproduce;
    switch (r.verdict) {
      case Verdict::kPassed: break;
      case Verdict::kExpectedDivergence:
        t += "<skipped message=\"expected divergence: " + xml_escape(r.message) + "\"/>";
        break;
      case Verdict::kSkipped: t += "<skipped message=\"" + xml_escape(r.message) + "\"/>"; break;
      case Verdict::kFailed:
      case Verdict::kUnexpectedPass:
        t += "<failure type=\"" + std::string(verdict_name(r.verdict)) + "\" message=\"" + xml_escape(r.title) + "\">" +
             xml_escape(body) + "</failure>";
        break;
      case Verdict::kErrored:
      case Verdict::kCrashed:
      case Verdict::kTimeout:
        t += "<error type=\"" + std::string(verdict_name(r.verdict)) + "\" message=\"" + xml_escape(first_line(r.message)) +
             "\">" + xml_escape(body) + "</error>";
        break;
    }
    t += "</testcase>\n";
    f_->append(t);
    cases_ += t;
  }
  void end(const Summary& s) override {
    std::size_t failures = s.count(Verdict::kFailed) + s.count(Verdict::kUnexpectedPass);
    std::size_t errors = s.count(Verdict::kErrored) + s.count(Verdict::kCrashed) + s.count(Verdict::kTimeout);
    std::size_t skipped = s.count(Verdict::kSkipped) + s.count(Verdict::kExpectedDivergence);
    std::size_t tests = 0;
    for (Verdict v : all_verdicts()) tests += s.count(v);
    f_->replace("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"" + std::to_string(tests) + "\" failures=\"" +
                std::to_string(failures) + "\" errors=\"" + std::to_string(errors) + "\" skipped=\"" + std::to_string(skipped) +
                "\" time=\"" + seconds_attr(s.seconds) + "\">\n<testsuite name=\"" + xml_escape(name_) + "\" tests=\"" +
                std::to_string(tests) + "\" failures=\"" + std::to_string(failures) + "\" errors=\"" + std::to_string(errors) +
                "\" skipped=\"" + std::to_string(skipped) + "\" time=\"" + seconds_attr(s.seconds) + "\" timestamp=\"" +
                xml_escape(started_) + "\">\n" + cases_ + not_run(s) + "</testsuite>\n</testsuites>\n");
  }

 private:
  static std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }
  /// Why the run ended early and the ids it left, as the suite's system-out (no testcase: they have no verdict).
  static std::string not_run(const Summary& s) {
    std::string why = stopped_text(s);
    if (why.empty()) return "";
    std::string t = "  <system-out>accord: " + xml_escape(why);
    for (const auto& id : s.not_run_ids) t += "\nnot run: " + xml_escape(id);
    return t + "</system-out>\n";
  }
  std::unique_ptr<StreamedFile> f_;
  std::string name_, started_, cases_;
};

}  // namespace

std::unique_ptr<ResultSink> make_junit_reporter(std::unique_ptr<StreamedFile> f) {
  return std::make_unique<JunitReporter>(std::move(f));
}

}  // namespace accord::conformance::detail
