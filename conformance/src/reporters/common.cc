// common.cc: reporter helpers, the file-reporter factory and MultiSink.
#include "reporters/common.h"

#include <cstdio>

#include "accord/reference/big_int_json.h"

namespace accord::conformance {
namespace detail {

}  // namespace detail

std::string xml_escape(const std::string& s) {
  std::string o;
  o.reserve(s.size());
  for (unsigned char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&#39;"; break;
      default:
        if (c < 0x20 && c != '\n' && c != '\t') o += "?";  // not allowed in XML 1.0
        else o += static_cast<char>(c);
    }
  }
  return o;
}

namespace detail {

std::string md_cell(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '|') o += "\\|";
    else if (c == '\n') o += "<br>";
    else if (c == '`') o += "\\`";
    else o += c;
  }
  return o;
}

const std::vector<Verdict>& all_verdicts() {
  static const std::vector<Verdict> v = {Verdict::kPassed,  Verdict::kFailed,  Verdict::kSkipped,
                                         Verdict::kErrored, Verdict::kCrashed, Verdict::kTimeout,
                                         Verdict::kExpectedDivergence, Verdict::kUnexpectedPass};
  return v;
}

std::string counts_text(const Summary& s) {
  std::string t;
  for (Verdict v : all_verdicts()) t += (t.empty() ? "" : ", ") + std::to_string(s.count(v)) + " " + verdict_name(v);
  return t;
}

std::string shown(const nlohmann::json& j, std::size_t max) {
  std::string s = reference::json_text(j);
  return s.size() > max ? s.substr(0, max - 3) + "..." : s;
}

const char* const kPageStyle =
    "body{font-family:system-ui,sans-serif;margin:2em}table{border-collapse:collapse;margin-bottom:1em}"
    "td,th{border:1px solid #ccc;padding:2px 8px;text-align:left;vertical-align:top}code{font-family:monospace}"
    "pre{margin:0;white-space:pre-wrap}#filter{width:30em;padding:4px;margin:0.5em 0}";

std::string filter_box(const std::string& placeholder) {
  return "<script>\nfunction filterRows(){var q=document.getElementById('filter').value.toLowerCase();"
         "document.querySelectorAll('tr.case').forEach(function(tr){tr.style.display="
         "tr.textContent.toLowerCase().indexOf(q)>=0?'':'none';});}\n</script>\n<input id=\"filter\" type=\"search\" placeholder=\"" +
         xml_escape(placeholder) + "\" oninput=\"filterRows()\">\n";
}

std::string stopped_text(const Summary& s) {
  if (s.not_run == 0 && s.stopped.empty()) return "";
  std::string why = s.stopped.empty() ? "the run ended early" : s.stopped;
  return why + ": " + std::to_string(s.not_run) + " of " + std::to_string(s.selected) + " cases not run";
}

std::string duration_text(double seconds) {
  char buf[32];
  if (seconds < 1) std::snprintf(buf, sizeof buf, "%.0f ms", seconds * 1000);
  else std::snprintf(buf, sizeof buf, "%.2f s", seconds);
  return buf;
}

std::string percent(std::size_t n, std::size_t of) {
  if (of == 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * static_cast<double>(n) / static_cast<double>(of));
  return buf;
}

bool StreamedFile::open(const std::string& path, std::string* error) {
  path_ = path;
  out_.open(path, std::ios::trunc);
  if (!out_) *error = path + ": cannot write the report file";
  return static_cast<bool>(out_);
}

void StreamedFile::append(const std::string& text) {
  out_ << text;
  out_.flush();
}

bool StreamedFile::replace(const std::string& text) {
  out_.close();
  std::string tmp = path_ + ".tmp";
  {
    std::ofstream t(tmp, std::ios::trunc);
    t << text;
    if (!t.flush()) return false;
  }
  return std::rename(tmp.c_str(), path_.c_str()) == 0;
}

}  // namespace detail

const std::vector<std::string>& report_formats() {
  static const std::vector<std::string> f = {"json", "junit", "markdown", "html"};
  return f;
}

std::unique_ptr<ResultSink> make_file_reporter(const std::string& format, const std::string& path, std::string* error) {
  auto file = std::make_unique<detail::StreamedFile>();
  if (format != "json" && format != "junit" && format != "markdown" && format != "html") {
    *error = "unknown report format '" + format + "' (expected json, junit, markdown or html)";
    return nullptr;
  }
  if (!file->open(path, error)) return nullptr;
  if (format == "json") return detail::make_json_reporter(std::move(file));
  if (format == "junit") return detail::make_junit_reporter(std::move(file));
  if (format == "markdown") return detail::make_markdown_reporter(std::move(file));
  return detail::make_html_reporter(std::move(file));
}

void MultiSink::begin(const RunHeader& h) {
  for (auto& s : sinks_) s->begin(h);
  for (auto* s : borrowed_) s->begin(h);
}
void MultiSink::result(const CaseResult& r) {
  for (auto& s : sinks_) s->result(r);
  for (auto* s : borrowed_) s->result(r);
}
void MultiSink::end(const Summary& sm) {
  for (auto& s : sinks_) s->end(sm);
  for (auto* s : borrowed_) s->end(sm);
}

}  // namespace accord::conformance
