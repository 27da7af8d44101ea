// comparison.cc: `accord compare`: one table of every case across implementations, differing rows first.
#include <algorithm>
#include <map>

#include "reporters/common.h"

namespace accord::conformance {
namespace {
using nlohmann::json;
using detail::md_cell;
using detail::xml_escape;

/// The mark after a class: whether the implementation met the fixture's expectation.
const char* mark(Verdict v) {
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

std::string entry(const ComparisonRow& r, std::size_t k) {
  std::string m = mark(r.verdicts[k]);
  return r.classes[k] + (m.empty() ? "" : " (" + m + ")");
}

std::string render_text(const ComparisonTable& t) {
  std::vector<std::size_t> width(t.implementations.size() + 1, 4);
  for (std::size_t k = 0; k < t.implementations.size(); ++k) width[k + 1] = t.implementations[k].size();
  for (const auto& r : t.rows) {
    width[0] = std::max(width[0], r.id.size());
    for (std::size_t k = 0; k < r.classes.size(); ++k) width[k + 1] = std::max(width[k + 1], entry(r, k).size());
  }
  auto pad = [](const std::string& s, std::size_t w) { return s + std::string(w > s.size() ? w - s.size() : 0, ' '); };
  std::string out = "  " + pad("case", width[0]);
  for (std::size_t k = 0; k < t.implementations.size(); ++k) out += "  " + pad(t.implementations[k], width[k + 1]);
  while (out.back() == ' ') out.pop_back();
  out += "\n";
  for (const auto& r : t.rows) {
    out += (r.differ ? "! " : "  ") + pad(r.id, width[0]);
    for (std::size_t k = 0; k < r.classes.size(); ++k) out += "  " + pad(entry(r, k), width[k + 1]);
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += "\n";
  }
  return out + "\n" + std::to_string(t.differing()) + " of " + std::to_string(t.rows.size()) +
         " cases differ (profile " + t.profile + ")\n" + (t.stopped.empty() ? "" : "partial: " + t.stopped + "\n");
}

std::string render_markdown(const ComparisonTable& t) {
  std::string out = "# accord compare (profile `" + t.profile + "`)\n\n" + std::to_string(t.differing()) + " of " +
                    std::to_string(t.rows.size()) + " cases differ.\n\n" +
                    (t.stopped.empty() ? "" : "> **partial: " + md_cell(t.stopped) + "**\n\n") + "| | case |";
  for (const auto& n : t.implementations) out += " " + md_cell(n) + " |";
  out += "\n|---|---|";
  for (std::size_t k = 0; k < t.implementations.size(); ++k) out += "---|";
  out += "\n";
  for (const auto& r : t.rows) {
    out += std::string("| ") + (r.differ ? "≠" : "") + " | `" + md_cell(r.id) + "` |";
    for (std::size_t k = 0; k < r.classes.size(); ++k) out += " `" + md_cell(r.classes[k]) + "` " + mark(r.verdicts[k]) + " |";
    out += "\n";
  }
  return out;
}

std::string render_json(const ComparisonTable& t) {
  json rows = json::array();
  for (const auto& r : t.rows) {
    json per = json::array();
    for (std::size_t k = 0; k < r.classes.size(); ++k) per.push_back({{"class", r.classes[k]}, {"verdict", verdict_name(r.verdicts[k])}});
    rows.push_back({{"id", r.id}, {"differ", r.differ}, {"results", per}});
  }
  return json({{"profile", t.profile}, {"implementations", t.implementations}, {"differing", t.differing()}, {"rows", rows},
               {"stopped", t.stopped}})
             .dump(2) +
         "\n";
}

std::string render_html(const ComparisonTable& t) {
  std::string out = "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>accord compare</title>\n<style>"
                    "body{font-family:system-ui,sans-serif;margin:2em}table{border-collapse:collapse}"
                    "td,th{border:1px solid #ccc;padding:2px 8px}.differ{background:#ffe0e0}.FAIL{color:#b00}"
                    "</style>\n</head>\n<body>\n<h1>accord compare (profile " + xml_escape(t.profile) + ")</h1>\n<p>" +
                    std::to_string(t.differing()) + " of " + std::to_string(t.rows.size()) +
                    " cases differ.</p>\n" +
                    (t.stopped.empty() ? "" : "<p class=\"stopped\"><b>partial: " + xml_escape(t.stopped) + "</b></p>\n") +
                    "<table>\n<tr><th>case</th>";
  for (const auto& n : t.implementations) out += "<th>" + xml_escape(n) + "</th>";
  out += "</tr>\n";
  for (const auto& r : t.rows) {
    out += std::string("<tr") + (r.differ ? " class=\"differ\"" : "") + "><td><code>" + xml_escape(r.id) + "</code></td>";
    for (std::size_t k = 0; k < r.classes.size(); ++k)
      out += "<td><code>" + xml_escape(r.classes[k]) + "</code> <span class=\"" + mark(r.verdicts[k]) + "\">" +
             mark(r.verdicts[k]) + "</span></td>";
    out += "</tr>\n";
  }
  return out + "</table>\n</body>\n</html>\n";
}

}  // namespace

std::size_t ComparisonTable::differing() const {
  return static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), [](const ComparisonRow& r) { return r.differ; }));
}

ComparisonTable build_comparison(const std::vector<std::string>& names, const std::string& profile,
                                 const std::vector<std::vector<CaseResult>>& runs) {
  ComparisonTable t{names, profile, {}, ""};
  std::map<std::string, std::size_t> at;     // id -> row
  std::map<std::string, std::size_t> order;  // id -> corpus position
  std::vector<std::vector<std::string>> keys;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    for (const auto& r : runs[k]) {
      auto [it, fresh] = at.emplace(r.id, t.rows.size());
      if (fresh) {
        t.rows.push_back({r.id, std::vector<std::string>(names.size(), "not run"),
                          std::vector<Verdict>(names.size(), Verdict::kSkipped), false});
        keys.emplace_back(names.size(), "#not run");
        order[r.id] = r.index;
      }
      ComparisonRow& row = t.rows[it->second];
      bool has = r.outcome.is_object();
      row.classes[k] = has ? outcome_class(r.outcome) : verdict_name(r.verdict);
      row.verdicts[k] = r.verdict;
      keys[it->second][k] = has ? outcome_fingerprint(r.outcome).dump() : std::string("#") + verdict_name(r.verdict);
    }
  }
  for (std::size_t i = 0; i < t.rows.size(); ++i)
    t.rows[i].differ = std::adjacent_find(keys[i].begin(), keys[i].end(), std::not_equal_to<>()) != keys[i].end();
  std::stable_sort(t.rows.begin(), t.rows.end(), [&](const ComparisonRow& a, const ComparisonRow& b) {
    if (a.differ != b.differ) return a.differ;
    return order[a.id] < order[b.id];
  });
  return t;
}

std::string render_comparison(const ComparisonTable& t, const std::string& format) {
  if (format == "markdown") return render_markdown(t);
  if (format == "json") return render_json(t);
  if (format == "html") return render_html(t);
  return render_text(t);
}

}  // namespace accord::conformance
