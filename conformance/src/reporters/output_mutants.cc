// output_mutants.cc: `accord output-mutants` as text, markdown and JSON: per profile the cases asked and left out,
// then a row per class and a column per profile (caught/changed), then what each class answers and the first cases
// that miss it.
#include <algorithm>
#include <sstream>

#include "accord/conformance/output_mutants.h"
#include "reporters/common.h"

namespace accord::conformance {
namespace {
using detail::percent;
using nlohmann::json;

std::vector<std::string> first(const std::vector<std::string>& ids, int n) {
  return {ids.begin(), ids.begin() + std::min<std::ptrdiff_t>(n, static_cast<std::ptrdiff_t>(ids.size()))};
}

json to_json(const OutputMutantReport& r, int missed) {
  json bases = json::array(), rows = json::array();
  for (const auto& b : r.bases)
    bases.push_back({{"profile", b.profile}, {"cases", b.cases}, {"not_passing", b.not_passing},
                     {"not_passing_ids", first(b.not_passing_ids, missed)}});
  for (const auto& t : r.tallies)
    rows.push_back({{"mutant", output_mutant_name(t.mutant)}, {"profile", t.profile}, {"changed", t.changed},
                    {"caught", t.caught}, {"share", t.share()}, {"missed", t.missed.size()}, {"missed_ids", first(t.missed, missed)}});
  return {{"implementation", r.implementation}, {"corpus", r.corpus}, {"profiles", bases}, {"mutants", rows}};
}

/// One table line: markdown cells, or text columns padded to `width` (the last one not padded).
std::string table_line(const std::vector<std::string>& cells, bool markdown, std::size_t width) {
  std::string line = markdown ? "|" : "";
  for (std::size_t k = 0; k < cells.size(); ++k) {
    if (markdown) line += " " + cells[k] + " |";
    else line += cells[k] + (k + 1 < cells.size() ? std::string(width - std::min(width - 2, cells[k].size()), ' ') : "");
  }
  return line + "\n";
}

std::string to_table(const OutputMutantReport& r, bool markdown, int missed) {
  const std::size_t np = r.bases.size(), width = 22;
  std::ostringstream os;
  if (markdown) os << "# Output mutants: " << r.implementation << " on `" << r.corpus << "`\n\n";
  else os << "accord output-mutants: " << r.corpus << " on " << r.implementation << "\n";
  for (const auto& b : r.bases)
    os << (markdown ? "- " : "  ") << b.profile << ": " << b.cases << " cases, " << b.not_passing
       << " left out (the implementation's own outcome does not pass)\n";
  std::vector<std::string> head = {"class"};
  for (const auto& b : r.bases) head.push_back(b.profile);
  os << "\n" << table_line(head, markdown, width);
  if (markdown) os << "|---|" << [&] { std::string s; for (std::size_t k = 0; k < np; ++k) s += "---|"; return s; }() << "\n";
  for (std::size_t m = 0; m < output_mutants().size(); ++m) {
    std::string name = output_mutant_name(output_mutants()[m]);
    std::vector<std::string> cells = {markdown ? "`" + name + "`" : name};
    for (std::size_t p = 0; p < np; ++p) {
      const auto& t = r.tallies[m * np + p];
      cells.push_back(std::to_string(t.caught) + "/" + std::to_string(t.changed) + " (" + percent(t.caught, t.changed) + ")");
    }
    os << table_line(cells, markdown, width);
  }
  os << "\n" << (markdown ? "## What each class answers, and the first cases that miss it\n\n" : "");
  for (std::size_t m = 0; m < output_mutants().size(); ++m) {
    auto mutant = output_mutants()[m];
    os << (markdown ? "- `" : "") << output_mutant_name(mutant) << (markdown ? "`: " : ": ") << output_mutant_meaning(mutant) << "\n";
    for (std::size_t p = 0; p < np && missed > 0; ++p) {
      const auto& t = r.tallies[m * np + p];
      if (t.missed.empty()) continue;
      os << "    missed on " << t.profile << ":";
      for (const auto& id : first(t.missed, missed)) os << " " << id;
      if (t.missed.size() > static_cast<std::size_t>(missed)) os << " (and " << t.missed.size() - missed << " more)";
      os << "\n";
    }
  }
  return os.str();
}

}  // namespace

std::string render_output_mutants(const OutputMutantReport& r, const std::string& format, int missed) {
  if (format == "json") return to_json(r, missed).dump(2) + "\n";
  return to_table(r, format == "markdown", missed);
}

}  // namespace accord::conformance
