// comparison_page.cc: `accord compare` as JSON (every field of the table) and as a self-contained HTML page
// (summary and agreement first, then the differing cases with their fields, a client-side filter).
#include "accord/reference/big_int_json.h"
#include "reporters/comparison_parts.h"

namespace accord::conformance::detail {
namespace {
using nlohmann::json;

json row_json(const ComparisonTable& t, const ComparisonRow& r) {
  json sides = json::array();
  for (std::size_t k = 0; k < r.classes.size(); ++k)
    sides.push_back({{"class", r.classes[k]}, {"verdict", verdict_name(r.verdicts[k])}, {"answered", static_cast<bool>(r.answered[k])}});
  json fields = json::array();
  if (r.differ)
    for (const auto& d : r.fields) {
      json values = json::array();
      for (std::size_t k = 0; k < d.values.size(); ++k) values.push_back(d.present[k] ? d.values[k] : json({{"absent", true}}));
      fields.push_back({{"pointer", d.pointer}, {"values", values}});
    }
  json j = {{"id", r.id}, {"differ", r.differ}, {"results", sides}, {"rules", r.rules}, {"file", r.file}, {"pointer", r.pointer}};
  if (!r.apart.empty()) j["not_compared"] = r.apart;
  if (r.differ) j["fields"] = fields, j["given"] = r.given, j["reproduce"] = t.reproduce(r);
  return j;
}

const char* kStyle =
    ".differ{background:#ffe0e0}.apart{background:#eee}.FAIL{color:#b00}"
    "table.field,table.rule{display:inline-table;margin-right:2em}";

std::string td(const std::string& s) { return "<td>" + xml_escape(s) + "</td>"; }
std::string code(const std::string& s) { return "<code>" + xml_escape(s) + "</code>"; }

std::string counts_table(const char* what, const std::map<std::string, std::size_t>& m) {
  std::string out = "<table class=\"" + std::string(what) + "\">\n<tr><th>" + what + "</th><th>differing cases</th></tr>\n";
  for (const auto& [k, n] : by_count(m)) out += "<tr><td>" + code(k) + "</td>" + td(std::to_string(n)) + "</tr>\n";
  return out + "</table>\n";
}

std::string case_row(const ComparisonTable& t, const ComparisonRow& r) {
  std::string cls = r.differ ? "case differ" : !r.apart.empty() ? "case apart" : "case";
  std::string out = "<tr class=\"" + cls + "\"><td>" + code(r.id) + "</td>";
  for (std::size_t k = 0; k < r.classes.size(); ++k) {
    std::string m = r.answered[k] ? verdict_mark(r.verdicts[k]) : "";
    out += "<td>" + code(r.classes[k]) + (m.empty() ? "" : " <span class=\"" + m + "\">" + m + "</span>") + "</td>";
  }
  out += "<td>";
  if (!r.apart.empty()) out += "not compared: " + xml_escape(r.apart);
  if (r.differ) {
    out += "<table><tr><th>field</th>";
    for (std::size_t k = 0; k < r.classes.size(); ++k) out += "<th>" + xml_escape(column_letter(k)) + "</th>";
    out += "</tr>";
    for (const auto& d : r.fields) {
      out += "<tr><td>" + code(d.pointer) + "</td>";
      for (std::size_t k = 0; k < d.values.size(); ++k) out += "<td>" + code(field_value(d, k)) + "</td>";
      out += "</tr>";
    }
    out += "</table>case " + code(r.file + " " + r.pointer);
    if (!r.rules.empty()) {
      out += "; rules";
      for (const auto& rule : r.rules) out += " " + code(rule);
    }
    out += "<br>given " + code(shown(r.given, 400)) + "<br>reproduce <pre>" + xml_escape(t.reproduce(r)) + "</pre>";
  }
  return out + "</td></tr>\n";
}

}  // namespace

std::string render_comparison_json(const ComparisonTable& t) {
  json impls = json::array();
  for (const auto& i : t.implementations) impls.push_back({{"name", i.name}, {"command", i.command}, {"profile", i.profile}});
  json agreement = json::array();
  for (const auto& p : t.agreement())
    agreement.push_back({{"a", t.implementations[p.a].name}, {"b", t.implementations[p.b].name}, {"answered_by_both", p.compared}, {"same", p.same}});
  json rows = json::array();
  for (const auto& r : t.rows)
    if (listed(t, r)) rows.push_back(row_json(t, r));
  json j = {{"implementations", impls}, {"cases", t.rows.size()},  {"differing", t.differing()}, {"not_compared", t.apart()},
            {"agreement", agreement},   {"by_field", t.by_field()}, {"by_rule", t.by_rule()},     {"listed", t.list_all ? "all" : "differing and not compared"},
            {"rows", rows},             {"stopped", t.stopped}};
  return reference::json_text(j) + "\n";
}

std::string render_comparison_html(const ComparisonTable& t) {
  std::string out = "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>accord compare</title>\n<style>" +
                    std::string(kPageStyle) + kStyle + "</style>\n</head>\n<body>\n<h1>accord compare</h1>\n<p class=\"summary\"><b>" +
                    xml_escape(summary_line(t)) + "</b></p>\n<table class=\"implementations\">\n<tr><th></th><th>implementation</th>"
                    "<th>--impl</th><th>profile</th></tr>\n";
  for (std::size_t k = 0; k < t.implementations.size(); ++k)
    out += "<tr>" + td(column_letter(k)) + td(t.implementations[k].name) + "<td>" + code(t.implementations[k].command) + "</td>" +
           td(t.implementations[k].profile) + "</tr>\n";
  out += "</table>\n<h2>Agreement</h2>\n<table class=\"agreement\">\n<tr><th>pair</th><th>the same</th><th>answered by both</th></tr>\n";
  for (const auto& p : t.agreement())
    out += "<tr>" + td(column_letter(p.a) + "-" + column_letter(p.b)) + td(std::to_string(p.same)) + td(std::to_string(p.compared)) + "</tr>\n";
  out += "</table>\n";
  if (t.differing() > 0) out += "<h2>Differing cases by field and by rule</h2>\n" + counts_table("field", t.by_field()) + counts_table("rule", t.by_rule());
  out += "<h2>Cases</h2>\n" + filter_box("filter cases (id, class, field, value)") + "<table class=\"cases\">\n<tr><th>case</th>";
  for (std::size_t k = 0; k < t.implementations.size(); ++k) out += "<th>" + xml_escape(column_letter(k)) + "</th>";
  out += "<th>details</th></tr>\n";
  for (const auto& r : t.rows)
    if (listed(t, r)) out += case_row(t, r);
  return out + "</table>\n</body>\n</html>\n";
}

}  // namespace accord::conformance::detail
