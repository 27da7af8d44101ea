// report_json.cc: the decision-coverage report as JSON.
#include <map>
#include <nlohmann/json.hpp>

#include "accord/coverage/report.h"

namespace accord::coverage {
namespace {
using nlohmann::json;

json tallies(const std::vector<Tally>& ts, const char* key) {
  json a = json::array();
  for (const auto& t : ts) a.push_back({{key, t.name}, {"cases", t.cases}, {"ids", t.ids}});
  return a;
}

json axis(Dim d) { return {{"dim", dim_id(d)}, {"title", dim_title(d)}, {"values", dim_values(d)}}; }

json matrix_json(const Matrix& m, reference::Profile p) {
  json cells = json::array();
  std::map<std::string, int> summary = {{"covered", 0}, {"uncovered", 0}, {"impossible", 0}, {"n/a", 0}};
  for (size_t r = 0; r < m.cells.size(); ++r) {
    for (size_t c = 0; c < m.cells[r].size(); ++c) {
      const CellResult& x = m.cells[r][c];
      ++summary[status_name(x.status)];
      json cell = {{"row", dim_values(m.rows)[r]}, {"col", dim_values(m.cols)[c]}, {"status", status_name(x.status)},
                   {"cases", x.cases}, {"ok_cases", x.ok_cases}, {"case_ids", x.case_ids}, {"probes", x.probes}};
      if (!x.witness.empty()) cell["witness"] = x.witness;
      if (!x.errors.empty()) {
        json e = json::array();
        for (const auto& x2 : x.errors) e.push_back({{"error", x2.error}, {"count", x2.count}, {"probes", x2.probe_count}, {"depth", x2.depth}});
        cell["errors"] = e;
      }
      cells.push_back(cell);
    }
  }
  return {{"id", m.element_id(p)}, {"rows", axis(m.rows)}, {"cols", axis(m.cols)}, {"summary", summary}, {"cells", cells}};
}

}  // namespace

json to_json(const Report& r) {
  json profiles = json::array();
  for (const auto& p : r.profiles) {
    json matrices = json::array();
    for (const auto& m : p.matrices) matrices.push_back(matrix_json(m, p.profile));
    profiles.push_back({{"profile", reference::profile_name(p.profile)}, {"cases", p.cases}, {"ok", p.ok},
                        {"rules", tallies(p.rules, "rule")}, {"codes", tallies(p.codes, "code")},
                        {"missing_rules", p.missing_rules}, {"matrices", matrices}});
  }
  return {{"corpus", r.corpus},
          {"cases", r.corpus_cases},
          {"gate", {{"ok", r.ok()}, {"missing_codes", r.missing_codes}, {"load_errors", r.load_errors}}},
          {"codes", tallies(r.codes_total, "code")},
          {"covers_mismatch", r.covers_mismatch},
          {"profiles", profiles}};
}

}  // namespace accord::coverage
