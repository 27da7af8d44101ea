// fixture.h: the typed form of a fixture case and its expectations (fixtures/README.md).
#pragma once

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

namespace accord::conformance {

/// The expected error of an outcome: its code, the field keys that must be present, the field
/// values that must match exactly and an optional ECMAScript regex searched in the message.
struct ErrorExpectation {
  std::string code;
  std::vector<std::string> fields;
  std::map<std::string, std::string> field_values;
  std::string message_regex;                    ///< "" = message not checked
  std::shared_ptr<const std::regex> message_re;  ///< compiled message_regex (null when empty)
};

/// What kind of outcome an expectation asks for.
enum class ExpectationKind { kPlan, kError, kAnyOf };

/// One expectation (`expect`, a value of `expect_by_profile` / `expect_live`, or an `any_of` item).
struct Expectation {
  ExpectationKind kind = ExpectationKind::kPlan;
  nlohmann::json plan = nlohmann::json::object();  ///< kPlan: the partial plan
  ErrorExpectation error;                          ///< kError
  std::vector<Expectation> any_of;                 ///< kAnyOf: at least one must hold
  std::string any_of_reason;                       ///< kAnyOf: why more than one answer is right (lint requires it)
  std::vector<std::string> diagnostics;            ///< codes that must appear
  std::vector<std::string> diagnostics_absent;     ///< codes that must not appear
  bool diagnostics_exact = false;                  ///< the set of codes must equal `diagnostics`
  std::vector<std::string> trace_includes;         ///< rule IDs the trace must contain
  std::string pointer;                             ///< JSON Pointer of this expectation in its file
};

/// One case of the corpus, with where it was read from.
struct Fixture {
  std::string id;
  std::string title;
  std::string origin;
  std::vector<std::string> covers;
  std::vector<std::string> requires_;  ///< capability tags (`requires` on the wire)
  std::vector<std::string> profiles;   ///< empty = every profile whose row says DefaultCases (tables/profiles.def)
  std::vector<std::string> profiles_except;  ///< descendants that do not inherit the case (`profiles_except`)
  nlohmann::json given = nlohmann::json::object();
  bool has_expect = false;
  Expectation expect;
  std::map<std::string, Expectation> expect_by_profile;
  std::map<std::string, Expectation> expect_live;
  std::string file;     ///< path of the file, as given to the loader
  std::string pointer;  ///< JSON Pointer of the case in its file (`/cases/3`)

  /// True when the case applies to `profile`: listed; or no `profiles` given and the profile takes default cases; or
  /// the profile inherits its parent's cases (tables/profiles.def, InheritCases), is not in `profiles_except`, and
  /// the case applies to the parent.
  bool applies_to(const std::string& profile) const;
  /// The expectation for `profile`: `expect_by_profile` of the profile, else of the profile it inherits the case
  /// from (up the parent chain), else `expect`; null when there is none.
  const Expectation* expectation_for(const std::string& profile) const;
};

/// True when a case with these `profiles` / `profiles_except` applies to `profile` (Fixture::applies_to).
bool case_applies(const std::vector<std::string>& profiles, const std::vector<std::string>& profiles_except,
                  const std::string& profile);

/// Reads one case object (already schema-valid) into a Fixture. On a semantic problem (a
/// message_regex that does not compile) returns false and sets `pointer`/`message`; never throws.
bool fixture_from_json(const nlohmann::json& j, const std::string& file, const std::string& case_pointer,
                       Fixture* out, std::string* pointer, std::string* message);

/// Escapes one reference token for a JSON Pointer (`~` -> `~0`, `/` -> `~1`).
std::string pointer_token(const std::string& token);

}  // namespace accord::conformance
