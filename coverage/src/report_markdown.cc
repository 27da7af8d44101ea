// report_markdown.cc: the decision-coverage report as markdown tables.
#include <sstream>

#include "accord/coverage/report.h"
#include "accord/reference/inputs.h"

namespace accord::coverage {
namespace {

std::string cell_symbol(const CellResult& c) {
  switch (c.status) {
    case CellStatus::kCovered: return std::to_string(c.cases);
    case CellStatus::kUncovered: return "·";
    case CellStatus::kImpossible: return c.cases ? "✗" + std::to_string(c.cases) : "✗";
    case CellStatus::kNotApplicable: return "–";
  }
  return "?";  // LCOV_EXCL_LINE unreachable: every status returns above
}

void tally_table(std::ostringstream& os, const std::vector<Tally>& ts, const char* what) {
  int hit = 0;
  for (const auto& t : ts) hit += t.cases > 0;
  os << "\n### " << what << ": " << hit << " of " << ts.size() << " exercised\n\n| " << what << " | cases | e.g. |\n|---|---:|---|\n";
  for (const auto& t : ts) {
    os << "| `" << t.name << "` | " << (t.cases ? std::to_string(t.cases) : "**0**") << " | ";
    for (size_t k = 0; k < t.ids.size() && k < 2; ++k) os << (k ? ", " : "") << "`" << t.ids[k] << "`";
    os << " |\n";
  }
}

void matrix_md(std::ostringstream& os, const Matrix& m, reference::Profile p) {
  int n[4] = {0, 0, 0, 0};
  for (const auto& row : m.cells)
    for (const auto& c : row) ++n[static_cast<int>(c.status)];
  os << "\n### " << dim_title(m.rows) << " × " << dim_title(m.cols) << " (`" << m.element_id(p) << "`)\n\n"
     << "covered " << n[0] << ", uncovered " << n[1] << ", impossible " << n[2] << ", n/a " << n[3] << "\n\n|   |";
  for (const auto& v : dim_values(m.cols)) os << " " << v << " |";
  os << "\n|---|";
  for (size_t k = 0; k < dim_values(m.cols).size(); ++k) os << "---|";
  os << "\n";
  for (size_t r = 0; r < m.cells.size(); ++r) {
    os << "| **" << dim_values(m.rows)[r] << "** |";
    for (const auto& c : m.cells[r]) os << " " << cell_symbol(c) << " |";
    os << "\n";
  }
  bool any = false;
  for (size_t r = 0; r < m.cells.size(); ++r)
    for (size_t c = 0; c < m.cells[r].size(); ++c) {
      const CellResult& x = m.cells[r][c];
      if (x.status == CellStatus::kUncovered) {
        if (!any) os << "\n";
        any = true;
        os << "- uncovered " << dim_values(m.rows)[r] << " × " << dim_values(m.cols)[c] << ": e.g. " << x.witness << "\n";
      } else if (x.status == CellStatus::kImpossible && !x.errors.empty()) {
        if (!any) os << "\n";
        any = true;
        os << "- impossible " << dim_values(m.rows)[r] << " × " << dim_values(m.cols)[c] << ": `" << x.errors[0].error << "` ("
           << x.errors[0].count << " of " << x.probes + x.cases << " probes and cases)"
           << (x.errors.size() > 1 ? " (+" + std::to_string(x.errors.size() - 1) + " other errors)" : "") << "\n";
      }
    }
}

}  // namespace

std::string to_markdown(const Report& r) {
  std::ostringstream os;
  os << "# Decision coverage\n\nCorpus `" << r.corpus << "`: " << r.corpus_cases << " cases. Gate: **"
     << (r.ok() ? "PASS" : "FAIL") << "**.\n\n";
  for (const auto& e : r.load_errors) os << "- load error: " << e << "\n";
  for (const auto& p : r.profiles) {
    os << "- rules of `" << reference::profile_name(p.profile) << "` without a case: ";
    if (p.missing_rules.empty()) os << "none";
    for (size_t k = 0; k < p.missing_rules.size(); ++k) os << (k ? ", " : "") << "`" << p.missing_rules[k] << "`";
    os << "\n";
  }
  os << "- diagnostic codes without a case: ";
  if (r.missing_codes.empty()) os << "none";
  for (size_t k = 0; k < r.missing_codes.size(); ++k) os << (k ? ", " : "") << "`" << r.missing_codes[k] << "`";
  os << "\n";
  for (const auto& m : r.covers_mismatch) os << "- " << m << "\n";
  os << "\nCells: a number is the cases in a covered cell; `·` uncovered (a plan is possible, no case); `✗` impossible "
        "(every probe and case is an error; the error and the last rule that fired are cited); `–` n/a.\n";
  tally_table(os, r.codes_total, "code");
  for (const auto& p : r.profiles) {
    os << "\n## Profile `" << reference::profile_name(p.profile) << "`: " << p.cases << " cases, " << p.ok << " resolve to a plan\n";
    tally_table(os, p.rules, "rule");
    for (const auto& m : p.matrices) matrix_md(os, m, p.profile);
  }
  return os.str();
}

}  // namespace accord::coverage
