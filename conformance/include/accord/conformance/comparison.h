// comparison.h: `accord compare`: the corpus on several implementations (or one implementation under several
// profiles), case by case, with the fields that differ.
#pragma once

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "accord/conformance/command_line.h"
#include "accord/conformance/fixture.h"
#include "accord/conformance/runner.h"

namespace accord::conformance {

/// One column: what ran and under which profile. `name` is the user's label, else the handshake name plus the
/// profile (`accord-reference (lightning-1.6)`), made unique with `#N`; `command` is the --impl text as given.
struct ComparedImplementation {
  std::string name;
  std::string command;
  std::string profile;
};

/// One field of the outcome fingerprint (outcome_fingerprint: status, plan or error code and fields, sorted
/// diagnostic codes) whose value is not the same on every side; `values[k]` is null where side k lacks it.
struct FieldDifference {
  std::string pointer;
  std::vector<nlohmann::json> values;
  std::vector<bool> present;
};

/// One case across the implementations.
struct ComparisonRow {
  std::string id;
  std::vector<std::string> classes;  ///< per implementation: outcome class or verdict name
  std::vector<Verdict> verdicts;     ///< per implementation, against the fixture's expectation for its profile
  std::vector<bool> answered;        ///< per implementation: an outcome came back
  bool differ = false;               ///< every side answered and the outcomes are not all the same
  /// Why the case was not compared ("" when it was): a side skipped it, did not answer, or did not run it.
  std::string apart;
  std::vector<FieldDifference> fields;  ///< when `differ`
  std::vector<std::string> rules;       ///< the fixture's `covers`
  nlohmann::json given;                 ///< the case input
  std::string file, pointer;            ///< where the case is
  std::size_t order = 0;                ///< corpus position
};

/// Agreement of two implementations over the cases both answered.
struct PairAgreement {
  std::size_t a = 0, b = 0;       ///< column indices, a < b
  std::size_t compared = 0, same = 0;
};

struct ComparisonTable {
  std::vector<ComparedImplementation> implementations;
  std::string corpus;      ///< the corpus directory (for the command that reproduces a case)
  std::vector<ComparisonRow> rows;  ///< differing cases first, then those not compared, then the rest; corpus order within
  std::string stopped;     ///< why the comparison is partial (`interrupted by SIGINT: ...`); "" when complete
  bool list_all = false;   ///< list every case, not only the differing and not-compared ones
  std::size_t differing() const;
  std::size_t apart() const;
  std::vector<PairAgreement> agreement() const;
  /// Differing cases per field pointer and per rule (a case counts once under each rule it covers; `(no rule)`).
  std::map<std::string, std::size_t> by_field() const;
  std::map<std::string, std::size_t> by_rule() const;
  /// `accord compare CORPUS --filter '^ID$' --impl ... --impl-profile ...`: the case alone, every side.
  std::string reproduce(const ComparisonRow& r) const;
};

/// Builds the table from one run per implementation (results in any order); `fixtures` gives each case's input,
/// rules and place.
ComparisonTable build_comparison(std::vector<ComparedImplementation> implementations, const std::vector<Fixture>& fixtures,
                                 const std::vector<std::vector<CaseResult>>& runs);

/// The fields whose values are not the same in every outcome fingerprint (objects key by key, anything else whole).
std::vector<FieldDifference> differing_fields(const std::vector<nlohmann::json>& fingerprints);

/// Renders the table as `text`, `markdown`, `json` or `html`.
std::string render_comparison(const ComparisonTable& t, const std::string& format);

}  // namespace accord::conformance
