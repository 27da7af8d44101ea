// report_html.cc: the decision-coverage report as one self-contained HTML page (inline CSS grid heatmaps).
#include <algorithm>
#include <cmath>
#include <sstream>

#include "accord/conformance/report.h"
#include "accord/coverage/report.h"
#include "accord/reference/inputs.h"

namespace accord::coverage {
namespace {

constexpr const char* kStyle = R"css(
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#1d2330;background:#fafbfc}
h1{font-size:24px;margin:0 0 6px}h2{font-size:19px;margin:28px 0 8px;border-bottom:2px solid #dde3ea;padding-bottom:4px}
h3{font-size:15px;margin:0 0 4px}.muted{color:#5b6472}.badge{display:inline-block;padding:2px 10px;border-radius:10px;font-weight:700;color:#fff}
.pass{background:#1e8e3e}.fail{background:#c5221f}
.cards{display:flex;gap:12px;flex-wrap:wrap;margin:12px 0}.card{background:#fff;border:1px solid #dde3ea;border-radius:8px;padding:10px 14px;min-width:170px}
.card b{font-size:20px;display:block}.pair{display:flex;gap:28px;flex-wrap:wrap;align-items:flex-start;margin-bottom:18px}
.matrix{background:#fff;border:1px solid #dde3ea;border-radius:8px;padding:10px 12px}
.grid{display:grid;gap:2px;align-items:end})css"
R"css(.ch{writing-mode:vertical-rl;transform:rotate(180deg);font-size:11px;height:118px;text-align:left;white-space:nowrap;overflow:hidden;color:#394150}
.rh{font-size:12px;text-align:right;padding-right:6px;white-space:nowrap;overflow:hidden;color:#394150;align-self:center}
.c{height:26px;border-radius:3px;font-size:11px;display:flex;align-items:center;justify-content:center;font-weight:600}
.cov{color:#fff}.unc{background:#f6b26b;color:#6b3a00}.imp{background:repeating-linear-gradient(45deg,#c9ced6 0 4px,#e4e7ec 4px 8px);color:#4a5160}
.na{background:#fff;border:1px dashed #d5dae1}
.legend{display:flex;gap:14px;flex-wrap:wrap;font-size:12px;margin:6px 0 12px}.legend span{display:inline-flex;align-items:center;gap:5px}
.legend i{display:inline-block;width:18px;height:14px;border-radius:3px}
.miss{background:#fff4f4;border:1px solid #f1c0c0;border-radius:8px;padding:8px 12px;margin:8px 0}.miss code{background:#fde2e2;padding:0 4px;border-radius:3px}
table.t{border-collapse:collapse;font-size:12px;background:#fff}table.t td,table.t th{border-bottom:1px solid #eef1f4;padding:2px 8px;text-align:left}
.bar{display:inline-block;height:9px;background:#4a8bd6;border-radius:2px;vertical-align:middle}.zero{color:#c5221f;font-weight:700}
.cols{display:flex;gap:24px;flex-wrap:wrap;align-items:flex-start}
)css";

std::string esc(const std::string& s) { return conformance::xml_escape(s); }

/// Covered cells darken with the number of cases (log scale): 1 case light green, 30+ dark green.
std::string green(int cases) {
  double t = std::min(1.0, std::log(static_cast<double>(cases)) / std::log(30.0));
  int light = static_cast<int>(58 - 30 * t);
  return "background:hsl(140,55%," + std::to_string(light) + "%)";
}

std::string tooltip(const Matrix& m, size_t r, size_t c) {
  const CellResult& x = m.cells[r][c];
  std::string t = dim_values(m.rows)[r] + " × " + dim_values(m.cols)[c] + ": " + status_name(x.status) + "\n" +
                  std::to_string(x.cases) + " case(s), " + std::to_string(x.ok_cases) + " resolve to a plan";
  for (const auto& id : x.case_ids) t += "\n  " + id;
  if (x.probes) t += "\n" + std::to_string(x.probes) + " probe(s) resolved";
  if (!x.witness.empty()) t += "\nwitness: " + x.witness;
  for (size_t k = 0; k < x.errors.size() && k < 4; ++k)
    t += std::string(k ? "\n  also " : "\nbecause: ") + x.errors[k].error + " ×" + std::to_string(x.errors[k].count);
  return t;
}

void cell_html(std::ostringstream& os, const Matrix& m, size_t r, size_t c) {
  const CellResult& x = m.cells[r][c];
  std::string cls, style, text;
  switch (x.status) {
    case CellStatus::kCovered: cls = "cov"; style = green(x.cases); text = std::to_string(x.cases); break;
    case CellStatus::kUncovered: cls = "unc"; text = "0"; break;
    case CellStatus::kImpossible: cls = "imp"; text = x.cases ? "✗" + std::to_string(x.cases) : "✗"; break;
    case CellStatus::kNotApplicable: cls = "na"; break;
  }
  os << "<div class=\"c " << cls << "\" style=\"" << style << "\" title=\"" << esc(tooltip(m, r, c)) << "\">" << esc(text) << "</div>";
}

void matrix_html(std::ostringstream& os, const Matrix& m, reference::Profile p) {
  int n[4] = {0, 0, 0, 0};
  for (const auto& row : m.cells)
    for (const auto& c : row) ++n[static_cast<int>(c.status)];
  const auto& cols = dim_values(m.cols);
  os << "<section class=\"matrix\" id=\"" << m.element_id(p) << "\"><h3>" << esc(dim_title(m.rows)) << " × " << esc(dim_title(m.cols))
     << " <span class=\"muted\">· " << reference::profile_name(p) << "</span></h3><div class=\"muted\">covered " << n[0]
     << " · uncovered " << n[1] << " · impossible " << n[2] << " · n/a " << n[3] << "</div>"
     << "<div class=\"grid\" style=\"grid-template-columns:104px repeat(" << cols.size() << ",28px)\"><div></div>";
  for (const auto& v : cols) os << "<div class=\"ch\">" << esc(v) << "</div>";
  for (size_t r = 0; r < m.cells.size(); ++r) {
    os << "<div class=\"rh\">" << esc(dim_values(m.rows)[r]) << "</div>";
    for (size_t c = 0; c < m.cells[r].size(); ++c) cell_html(os, m, r, c);
  }
  os << "</div></section>";
}

void tally_html(std::ostringstream& os, const std::vector<Tally>& ts, const std::string& title) {
  int hit = 0, top = 1;
  for (const auto& t : ts) {
    hit += t.cases > 0;
    top = std::max(top, t.cases);
  }
  os << "<div><h3>" << esc(title) << ": " << hit << " of " << ts.size() << " exercised</h3><table class=\"t\">";
  for (const auto& t : ts) {
    os << "<tr><td><code>" << esc(t.name) << "</code></td><td>";
    if (t.cases) os << "<span class=\"bar\" style=\"width:" << 4 + 116 * t.cases / top << "px\"></span> " << t.cases;
    else os << "<span class=\"zero\">0</span>";
    os << "</td></tr>";
  }
  os << "</table></div>";
}

/// A list of gaps; `folded` lists (advisory ones) start collapsed so the heatmaps stay in view.
void missing_html(std::ostringstream& os, const std::string& what, const std::vector<std::string>& names, bool folded = false) {
  if (names.empty()) return;
  os << "<details class=\"miss\"" << (folded ? "" : " open") << "><summary><b>" << esc(what) << " (" << names.size() << ")</b></summary>";
  for (size_t k = 0; k < names.size(); ++k) os << (k ? " " : "") << "<code>" << esc(names[k]) << "</code>";
  os << "</details>";
}

void summary_html(std::ostringstream& os, const Report& r) {
  os << "<h1>Decision coverage <span class=\"badge " << (r.ok() ? "pass\">PASS" : "fail\">FAIL") << "</span></h1>"
     << "<div class=\"muted\">corpus <code>" << esc(r.corpus) << "</code> · " << r.corpus_cases << " cases</div><div class=\"cards\">";
  int codes_hit = 0;
  for (const auto& t : r.codes_total) codes_hit += t.cases > 0;
  os << "<div class=\"card\">diagnostic codes<b>" << codes_hit << " / " << r.codes_total.size() << "</b></div>";
  for (const auto& p : r.profiles) {
    int cells = 0, covered = 0;
    for (const auto& m : p.matrices)
      for (const auto& row : m.cells)
        for (const auto& c : row) {
          cells += c.status == CellStatus::kCovered || c.status == CellStatus::kUncovered;
          covered += c.status == CellStatus::kCovered;
        }
    os << "<div class=\"card\">" << reference::profile_name(p.profile) << ": rules<b>" << p.rules.size() - p.missing_rules.size()
       << " / " << p.rules.size() << "</b>" << p.cases << " cases · possible cells covered " << covered << " / " << cells << "</div>";
  }
  os << "</div>";
  for (const auto& e : r.load_errors) os << "<div class=\"miss\">load error: " << esc(e) << "</div>";
  for (const auto& p : r.profiles)
    missing_html(os, std::string("rules of ") + reference::profile_name(p.profile) + " without a case", p.missing_rules);
  missing_html(os, "diagnostic codes without a case", r.missing_codes);
  missing_html(os, "fixtures whose `covers` names a rule that did not fire", r.covers_mismatch, true);
}

}  // namespace

std::string to_html(const Report& r) {
  std::ostringstream os;
  os << "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>accord decision coverage</title><style>" << kStyle
     << "</style></head><body>";
  summary_html(os, r);
  os << "<h2>Pairwise matrices</h2><div class=\"legend\"><span><i style=\"" << green(1) << "\"></i>covered (cases)</span><span><i style=\""
     << green(30) << "\"></i>many cases</span><span><i class=\"unc\"></i>uncovered: a plan is possible, no case</span>"
     << "<span><i class=\"imp\"></i>impossible: every probe is an error (hover for the code)</span><span><i class=\"na\"></i>n/a</span></div>";
  for (size_t k = 0; k < matrix_pairs().size(); ++k) {
    os << "<div class=\"pair\">";
    for (const auto& p : r.profiles) matrix_html(os, p.matrices[k], p.profile);
    os << "</div>";
  }
  os << "<h2>Rules and codes</h2><div class=\"cols\">";
  tally_html(os, r.codes_total, "diagnostic codes (case × profile runs)");
  for (const auto& p : r.profiles) tally_html(os, p.rules, std::string("rules of ") + reference::profile_name(p.profile));
  os << "</div></body></html>\n";
  return os.str();
}

}  // namespace accord::coverage
