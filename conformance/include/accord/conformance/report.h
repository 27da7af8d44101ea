// report.h: reporters (terminal, JSON lines, JUnit XML, Markdown, HTML); comparison.h has the cross-implementation table.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "accord/conformance/runner.h"

namespace accord::conformance {

/// The terminal report: at the end, a field-level diff for each case that is not passed or
/// skipped (sorted by id), the stale divergence entries and the counts line.
std::unique_ptr<ResultSink> make_text_reporter(std::ostream& out);

/// A progress line on `err`: redrawn in place when `tty`, otherwise one line every few seconds
/// once the run has lasted more than two seconds.
std::unique_ptr<ResultSink> make_progress_reporter(std::ostream& err, bool tty);

/// The report formats a file reporter accepts: json, junit, markdown, html.
const std::vector<std::string>& report_formats();

/// A report written to `path` while the run goes: json appends one line per result (header,
/// results, footer); junit, markdown and html append each result as it arrives and rewrite the
/// whole file atomically at the end. Null with `error` set when the file cannot be written.
std::unique_ptr<ResultSink> make_file_reporter(const std::string& format, const std::string& path, std::string* error);

/// Forwards every call to each sink in turn.
class MultiSink : public ResultSink {
 public:
  void add(std::unique_ptr<ResultSink> s) { sinks_.push_back(std::move(s)); }
  void add(ResultSink* s) { borrowed_.push_back(s); }
  void begin(const RunHeader& h) override;
  void result(const CaseResult& r) override;
  void end(const Summary& s) override;

 private:
  std::vector<std::unique_ptr<ResultSink>> sinks_;
  std::vector<ResultSink*> borrowed_;
};

/// Collects the results in memory (for `accord compare` and tests).
class CollectingSink : public ResultSink {
 public:
  void begin(const RunHeader& h) override { header = h; }
  void result(const CaseResult& r) override { results.push_back(r); }
  void end(const Summary& s) override { summary = s; }
  RunHeader header;
  std::vector<CaseResult> results;
  Summary summary;
};

/// Escapes & < > " ' for XML and HTML text and attributes; control characters XML 1.0 forbids become '?'.
std::string xml_escape(const std::string& s);

}  // namespace accord::conformance
