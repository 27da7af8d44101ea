// common.h: helpers shared by the reporters: escaping, the counts line, and a report file that is
// appended to while the run goes and atomically replaced at the end.
#pragma once

#include <fstream>
#include <memory>
#include <string>

#include "accord/conformance/report.h"

namespace accord::conformance::detail {

using accord::conformance::xml_escape;
/// Escapes `|`, backticks and newlines for a Markdown table cell.
std::string md_cell(const std::string& s);
/// `12 passed, 1 failed, ...` in a fixed order (every verdict, zeros included).
std::string counts_text(const Summary& s);
/// Every verdict in report order.
const std::vector<Verdict>& all_verdicts();
/// A JSON value for display, cut to `max` characters.
std::string shown(const nlohmann::json& j, std::size_t max = 200);
/// `interrupted by SIGINT: 12 of 40 cases not run` (the reason the run ended early and what it left), or "" for a
/// run that ran every selected case.
std::string stopped_text(const Summary& s);
/// The CSS every HTML page starts from (body, tables, code, pre, the filter box); a page appends its own classes.
extern const char* const kPageStyle;
/// A search box that hides the rows of class `case` whose text does not hold what is typed, with its script.
std::string filter_box(const std::string& placeholder);
/// `1.23 s` / `45 ms`.
std::string duration_text(double seconds);
/// `12.5%` (of `of`, one decimal), or `-` when `of` is 0.
std::string percent(std::size_t n, std::size_t of);

/// A report file: append() writes through (flushed) so a cut-short run keeps what it had;
/// replace() writes the final text to `path.tmp` and renames it over `path`.
class StreamedFile {
 public:
  bool open(const std::string& path, std::string* error);
  void append(const std::string& text);
  bool replace(const std::string& text);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::ofstream out_;
};

std::unique_ptr<ResultSink> make_json_reporter(std::unique_ptr<StreamedFile> f);
std::unique_ptr<ResultSink> make_junit_reporter(std::unique_ptr<StreamedFile> f);
std::unique_ptr<ResultSink> make_markdown_reporter(std::unique_ptr<StreamedFile> f);
std::unique_ptr<ResultSink> make_html_reporter(std::unique_ptr<StreamedFile> f);

}  // namespace accord::conformance::detail
