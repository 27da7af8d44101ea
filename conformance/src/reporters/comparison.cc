// comparison.cc: `accord compare` as text and markdown: the implementations, agreement per pair, the differing
// fields grouped by field and by rule, then each differing case with its fields, input and reproducing command.
#include <algorithm>

#include "accord/reference/big_int_json.h"
#include "reporters/comparison_parts.h"

namespace accord::conformance {
namespace detail {

std::string column_letter(std::size_t k) { return k < 26 ? std::string(1, static_cast<char>('A' + k)) : "#" + std::to_string(k + 1); }

bool listed(const ComparisonTable& t, const ComparisonRow& r) { return t.list_all || r.differ || !r.apart.empty(); }

const char* verdict_mark(Verdict v) {
  switch (v) {
    case Verdict::kPassed: return "ok";
    case Verdict::kFailed: return "FAIL";
    case Verdict::kExpectedDivergence: return "xfail";
    case Verdict::kUnexpectedPass: return "xpass";
    case Verdict::kSkipped:
    case Verdict::kErrored:
    case Verdict::kCrashed:
    case Verdict::kTimeout: return "";
  }
  return "";  // LCOV_EXCL_LINE unreachable: every verdict returns above
}

std::string side_text(const ComparisonRow& r, std::size_t k) {
  std::string m = r.answered[k] ? verdict_mark(r.verdicts[k]) : "";
  return r.classes[k] + (m.empty() ? "" : " (" + m + ")");
}

std::string summary_line(const ComparisonTable& t) {
  return std::to_string(t.differing()) + " of " + std::to_string(t.rows.size()) + " cases differ, " + std::to_string(t.apart()) +
         " not compared (skipped, unanswered or not run on a side)" + (t.stopped.empty() ? "" : "; partial: " + t.stopped);
}

std::vector<std::pair<std::string, std::size_t>> by_count(const std::map<std::string, std::size_t>& m) {
  std::vector<std::pair<std::string, std::size_t>> v(m.begin(), m.end());
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return v;
}

std::string field_value(const FieldDifference& d, std::size_t k, std::size_t max) {
  if (!d.present[k]) return "(absent)";
  std::string s = reference::json_text(d.values[k]);
  return s.size() > max ? s.substr(0, max - 3) + "..." : s;
}

}  // namespace detail

namespace {
using namespace detail;

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::string counted(const std::map<std::string, std::size_t>& m, const std::string& indent) {
  std::string out;
  for (const auto& [k, n] : by_count(m)) {
    std::string c = std::to_string(n);
    out += indent + std::string(c.size() < 6 ? 6 - c.size() : 0, ' ') + c + "  " + k + "\n";
  }
  return out;
}

std::string render_text(const ComparisonTable& t) {
  std::string out = "accord compare: " + std::to_string(t.implementations.size()) + " implementations, " +
                    std::to_string(t.rows.size()) + " cases\n";
  for (std::size_t k = 0; k < t.implementations.size(); ++k)
    out += "  " + column_letter(k) + "  " + t.implementations[k].name + "  (--impl " + shell_quote(t.implementations[k].command) +
           ", profile " + t.implementations[k].profile + ")\n";
  out += "\nagreement over the cases both sides answered:\n";
  for (const auto& p : t.agreement())
    out += "  " + column_letter(p.a) + "-" + column_letter(p.b) + "  " + std::to_string(p.same) + " of " + std::to_string(p.compared) +
           " the same (" + percent(p.same, p.compared) + ")\n";
  if (t.differing() > 0) out += "\ndiffering cases by field:\n" + counted(t.by_field(), "") + "\ndiffering cases by rule:\n" + counted(t.by_rule(), "");
  bool any = false;
  for (const auto& r : t.rows) {
    if (!listed(t, r)) continue;
    if (!any) out += "\n", any = true;
    out += (r.differ ? "! " : !r.apart.empty() ? "- " : "  ") + r.id;
    for (std::size_t k = 0; k < r.classes.size(); ++k) out += "  " + column_letter(k) + ": " + side_text(r, k);
    out += "\n";
    if (!r.apart.empty()) out += "    not compared: " + r.apart + "\n";
    if (!r.differ) continue;
    for (const auto& d : r.fields) {
      out += "    " + d.pointer;
      for (std::size_t k = 0; k < d.values.size(); ++k) out += "  " + column_letter(k) + " " + field_value(d, k);
      out += "\n";
    }
    out += "    case: " + r.file + " " + r.pointer + (r.rules.empty() ? "" : "; rules " + joined(r.rules)) +
           "\n    given: " + shown(r.given, 400) + "\n    reproduce: " + t.reproduce(r) + "\n";
  }
  return out + "\n" + summary_line(t) + "\n";
}

std::string render_markdown(const ComparisonTable& t) {
  std::string out = "# accord compare\n\n" + summary_line(t) + ".\n\n| | implementation | --impl | profile |\n|---|---|---|---|\n";
  for (std::size_t k = 0; k < t.implementations.size(); ++k)
    out += "| " + column_letter(k) + " | " + md_cell(t.implementations[k].name) + " | `" + md_cell(t.implementations[k].command) +
           "` | " + md_cell(t.implementations[k].profile) + " |\n";
  out += "\n## Agreement\n\n| pair | the same | of answered by both | |\n|---|---|---|---|\n";
  for (const auto& p : t.agreement())
    out += "| " + column_letter(p.a) + "-" + column_letter(p.b) + " | " + std::to_string(p.same) + " | " + std::to_string(p.compared) +
           " | " + percent(p.same, p.compared) + " |\n";
  if (t.differing() > 0) {
    out += "\n## Differing cases by field\n\n| field | cases |\n|---|---|\n";
    for (const auto& [f, n] : by_count(t.by_field())) out += "| `" + md_cell(f) + "` | " + std::to_string(n) + " |\n";
    out += "\n## Differing cases by rule\n\n| rule | cases |\n|---|---|\n";
    for (const auto& [rule, n] : by_count(t.by_rule())) out += "| `" + md_cell(rule) + "` | " + std::to_string(n) + " |\n";
  }
  out += "\n## Cases\n";
  for (const auto& r : t.rows) {
    if (!listed(t, r)) continue;
    out += "\n### " + std::string(r.differ ? "≠ " : !r.apart.empty() ? "not compared: " : "") + "`" + md_cell(r.id) + "`\n\n";
    for (std::size_t k = 0; k < r.classes.size(); ++k) out += "- " + column_letter(k) + ": `" + md_cell(side_text(r, k)) + "`\n";
    if (!r.apart.empty()) out += "- not compared: " + md_cell(r.apart) + "\n";
    if (r.differ) {
      out += "\n| field |";
      for (std::size_t k = 0; k < r.classes.size(); ++k) out += " " + column_letter(k) + " |";
      out += "\n|---|";
      for (std::size_t k = 0; k < r.classes.size(); ++k) out += "---|";
      out += "\n";
      for (const auto& d : r.fields) {
        out += "| `" + md_cell(d.pointer) + "` |";
        for (std::size_t k = 0; k < d.values.size(); ++k) out += " `" + md_cell(field_value(d, k)) + "` |";
        out += "\n";
      }
      out += "\n- case: `" + md_cell(r.file) + "` `" + md_cell(r.pointer) + "`" + (r.rules.empty() ? "" : ", rules `" + md_cell(joined(r.rules)) + "`") +
             "\n- given: `" + md_cell(shown(r.given, 400)) + "`\n- reproduce: `" + md_cell(t.reproduce(r)) + "`\n";
    }
  }
  return out;
}

}  // namespace

std::string render_comparison(const ComparisonTable& t, const std::string& format) {
  if (format == "markdown") return render_markdown(t);
  if (format == "json") return render_comparison_json(t);
  if (format == "html") return render_comparison_html(t);
  return render_text(t);
}

}  // namespace accord::conformance
