// output_mutants.h: wrong implementations made by changing one part of a correct outcome (tables/output_mutants.def),
// and how much of what each changes the corpus catches: a measure of the corpus that does not depend on how any
// implementation is written.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "accord/conformance/adapter.h"
#include "accord/conformance/fixture.h"

namespace accord::conformance {

/// One class of wrong implementation: its row of tables/output_mutants.def (by position; named by
/// output_mutant_name, found by parse_output_mutant).
enum class OutputMutant : int {};

/// Every class, in table order.
const std::vector<OutputMutant>& output_mutants();
/// Wire id (`strategy-sibling`).
const char* output_mutant_name(OutputMutant m);
/// What the wrong implementation answers (the table's last column).
const char* output_mutant_meaning(OutputMutant m);
/// The class of a wire id; nullopt for an unknown one.
std::optional<OutputMutant> parse_output_mutant(const std::string& wire);

/// `outcome` as the wrong implementation `m` answers it; equal to `outcome` when the class does not apply to it.
nlohmann::json mutate_outcome(OutputMutant m, const nlohmann::json& outcome);

/// One class on one profile: of the cases whose correct outcome the class changes, how many the corpus catches
/// (the case no longer passes) and which it misses.
struct OutputMutantTally {
  OutputMutant mutant{};
  std::string profile;
  std::size_t changed = 0;
  std::size_t caught = 0;
  std::vector<std::string> missed;  ///< ids of the cases that still pass, in corpus order
  double share() const { return changed ? static_cast<double>(caught) / static_cast<double>(changed) : 1.0; }
};

/// Per profile: the cases asked, and those left out because the implementation's own outcome did not pass (a
/// mutant of a wrong answer measures nothing) or came with no outcome.
struct OutputMutantBase {
  std::string profile;
  std::size_t cases = 0;
  std::size_t not_passing = 0;
  std::vector<std::string> not_passing_ids;
};

struct OutputMutantReport {
  std::string implementation;  ///< handshake name
  std::string corpus;
  std::vector<OutputMutantBase> bases;   ///< one per profile
  std::vector<OutputMutantTally> tallies;  ///< per class, then per profile
};

/// The report as `text`, `markdown` or `json`, listing at most `missed` missed case ids per class and profile.
std::string render_output_mutants(const OutputMutantReport& r, const std::string& format, int missed);

/// Checks `floors`, `{"floors": {"<class>": {"<profile>": percent}}}`, against `r`. False with `error`
/// (`/floors/<class>: ...`) when the document is not of that shape or names an unknown class; otherwise true, with one
/// line per share below its floor in `shortfalls` (`strategy-sibling on spec: caught 33 of 89 (37.1%), below the floor
/// 40%`).
bool check_output_mutant_floors(const OutputMutantReport& r, const nlohmann::json& floors, std::vector<std::string>* shortfalls,
                                std::string* error);

/// Resolves every case of `fixtures` that applies to each of `profiles` on `impl` (started), keeps the cases whose
/// outcome passes, and judges each class's change of that outcome against the case's expectation.
OutputMutantReport measure_output_mutants(const std::vector<Fixture>& fixtures, Adapter& impl,
                                          const std::vector<std::string>& profiles);

}  // namespace accord::conformance
