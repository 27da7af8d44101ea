// analyze.cc: runs the corpus on the reference in process and builds the decision-coverage report.
#include <algorithm>
#include <map>
#include <set>

#include "accord/coverage/analysis.h"
#include "accord/reference/diagnostic.h"
#include "accord/reference/resolve.h"
#include "accord/reference/rules.h"

namespace accord::coverage {
namespace {
using reference::Profile;

constexpr size_t kIdsKept = 5;  // case ids listed per rule, code and cell

void count(Tally& t, const std::string& id) {
  ++t.cases;
  if (t.ids.size() < kIdsKept) t.ids.push_back(id);
}

bool rule_in(reference::RuleId r, Profile p) { return reference::rule_in_profile(r, p); }

Matrix empty_matrix(Dim rows, Dim cols) {
  Matrix m{rows, cols, {}};
  m.cells.assign(dim_values(rows).size(), std::vector<CellResult>(dim_values(cols).size()));
  return m;
}

/// Settles every cell: cases decide possible cells at once; the others are probed.
void settle(Matrix& m, Profile p, const std::map<std::pair<size_t, size_t>, std::map<std::string, CellError>>& case_errors) {
  for (size_t r = 0; r < m.cells.size(); ++r) {
    for (size_t c = 0; c < m.cells[r].size(); ++c) {
      CellResult& cell = m.cells[r][c];
      bool possible = cell.ok_cases > 0 || probe_cell(m.rows, static_cast<int>(r), m.cols, static_cast<int>(c), p, cell);
      if (possible) {
        cell.status = cell.cases ? CellStatus::kCovered : CellStatus::kUncovered;
        cell.errors.clear();
        continue;
      }
      auto it = case_errors.find({r, c});
      std::map<std::string, CellError> merged;
      for (const auto& e : cell.errors) merged[e.error] = e;
      if (it != case_errors.end())
        for (const auto& [k, e] : it->second) {
          CellError& m2 = merged[k];
          m2.error = k;
          m2.count += e.count;
          m2.probe_count += e.probe_count;
          m2.depth = std::max(m2.depth, e.depth);
        }
      cell.errors.clear();
      for (const auto& [k, e] : merged) cell.errors.push_back(e);
      std::stable_sort(cell.errors.begin(), cell.errors.end(), [](const CellError& a, const CellError& b) {
        if ((a.probe_count > 0) != (b.probe_count > 0)) return a.probe_count > 0;
        return a.depth != b.depth ? a.depth > b.depth : a.count > b.count;
      });
      cell.status = cell.probes || cell.cases ? CellStatus::kImpossible : CellStatus::kNotApplicable;
    }
  }
}

ProfileReport analyze_profile(const std::vector<CorpusCase>& corpus, Profile p, Report& report) {
  ProfileReport pr{p, 0, 0, {}, {}, {}, {}};
  for (int k = 0; k < reference::rule_count(); ++k)
    if (rule_in(static_cast<reference::RuleId>(k), p)) pr.rules.push_back({reference::rule_wire(static_cast<reference::RuleId>(k)), 0, {}});
  for (int k = 0; k < reference::diag_count(); ++k) pr.codes.push_back({reference::wire_id(static_cast<reference::DiagCode>(k)), 0, {}});
  std::map<std::string, size_t> rule_at, code_at;
  for (size_t k = 0; k < pr.rules.size(); ++k) rule_at[pr.rules[k].name] = k;
  for (size_t k = 0; k < pr.codes.size(); ++k) code_at[pr.codes[k].name] = k;
  for (const auto& [rows, cols] : matrix_pairs()) pr.matrices.push_back(empty_matrix(rows, cols));
  std::vector<std::map<std::pair<size_t, size_t>, std::map<std::string, CellError>>> case_errors(pr.matrices.size());

  for (const auto& kase : corpus) {
    if (std::find(kase.profiles.begin(), kase.profiles.end(), p) == kase.profiles.end()) continue;
    ++pr.cases;
    auto out = reference::resolve(kase.given, p);
    pr.ok += out.ok();
    std::set<std::string> fired, codes;
    for (auto r : out.trace) fired.insert(reference::rule_wire(r));
    if (!out.ok()) codes.insert(reference::wire_id(out.error().code));
    for (const auto& n : out.notes) codes.insert(reference::wire_id(n.code));
    for (const auto& r : fired)
      if (rule_at.count(r)) count(pr.rules[rule_at[r]], kase.id);
    for (const auto& c : codes) count(pr.codes[code_at[c]], kase.id);
    for (const auto& r : kase.covers) {
      auto id = reference::rule_from_wire(r);
      if (id && rule_in(*id, p) && !fired.count(r))
        report.covers_mismatch.push_back(kase.file + ": " + kase.id + " [" + reference::profile_name(p) + "]: covers " + r +
                                         " but it did not fire");
    }
    for (size_t m = 0; m < pr.matrices.size(); ++m) {
      Matrix& mx = pr.matrices[m];
      int r = classify(kase.given, mx.rows), c = classify(kase.given, mx.cols);
      if (r < 0 || c < 0) continue;
      CellResult& cell = mx.cells[static_cast<size_t>(r)][static_cast<size_t>(c)];
      ++cell.cases;
      cell.ok_cases += out.ok();
      if (cell.case_ids.size() < kIdsKept) cell.case_ids.push_back(kase.id);
      if (!out.ok()) add_error(case_errors[m][{static_cast<size_t>(r), static_cast<size_t>(c)}], out, false);
    }
  }
  for (size_t m = 0; m < pr.matrices.size(); ++m) settle(pr.matrices[m], p, case_errors[m]);
  for (const auto& t : pr.rules)
    if (t.cases == 0) pr.missing_rules.push_back(t.name);
  return pr;
}

}  // namespace

const char* status_name(CellStatus s) {
  switch (s) {
    case CellStatus::kCovered: return "covered";
    case CellStatus::kUncovered: return "uncovered";
    case CellStatus::kImpossible: return "impossible";
    case CellStatus::kNotApplicable: return "n/a";
  }
  return "?";  // LCOV_EXCL_LINE unreachable: every status returns above
}

std::string Matrix::element_id(Profile p) const {
  return std::string("m-") + reference::profile_name(p) + "-" + dim_id(rows) + "-x-" + dim_id(cols);
}

const std::vector<std::pair<Dim, Dim>>& matrix_pairs() {
  static const std::vector<std::pair<Dim, Dim>> pairs = {
      {Dim::kAccelerator, Dim::kStrategy}, {Dim::kStrategy, Dim::kPrecision}, {Dim::kAccelerator, Dim::kPrecision},
      {Dim::kClusterEnv, Dim::kStrategy},  {Dim::kHardware, Dim::kAccelerator}, {Dim::kLegacy, Dim::kDevicesForm},
  };
  return pairs;
}

bool Report::ok() const {
  if (!load_errors.empty() || !missing_codes.empty() || !covers_mismatch.empty() || corpus_cases == 0) return false;
  for (const auto& p : profiles)
    if (!p.missing_rules.empty()) return false;
  return true;
}

Report analyze(const std::vector<CorpusCase>& corpus, const std::vector<Profile>& profiles) {
  Report report;
  report.corpus_cases = static_cast<int>(corpus.size());
  for (Profile p : profiles) report.profiles.push_back(analyze_profile(corpus, p, report));
  for (int k = 0; k < reference::diag_count(); ++k) {
    Tally total{reference::wire_id(static_cast<reference::DiagCode>(k)), 0, {}};
    std::set<std::string> ids;
    for (const auto& p : report.profiles) {
      total.cases += p.codes[static_cast<size_t>(k)].cases;
      for (const auto& id : p.codes[static_cast<size_t>(k)].ids)
        if (ids.insert(id).second && total.ids.size() < kIdsKept) total.ids.push_back(id);
    }
    if (total.cases == 0) report.missing_codes.push_back(total.name);
    report.codes_total.push_back(total);
  }
  return report;
}

}  // namespace accord::coverage
