// compare.h: checks an outcome (conformance/PROTOCOL.md) against an expectation, field by field.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "accord/conformance/fixture.h"

namespace accord::conformance {

/// One difference: where in the outcome (JSON Pointer), what was expected, what was there.
/// `actual` is null (with note "missing") when the field is absent.
struct Diff {
  std::string pointer;
  nlohmann::json expected;
  nlohmann::json actual;
  std::string note;  ///< short explanation ("missing", "must not appear", "any_of[1]: ...")
};

/// The verdict of one comparison; `diffs` is empty exactly when `pass` is true.
struct Comparison {
  bool pass = true;
  std::vector<Diff> diffs;
};

/// Compares `outcome` with `e`: plans partially (objects recursively, arrays and scalars exactly),
/// errors by code, field presence, field values and message regex; then diagnostics and trace.
/// `trace_includes` is checked only when `check_trace` (the implementation declares `trace`).
/// A malformed outcome fails with a diff naming the malformed part; never throws.
Comparison compare(const nlohmann::json& outcome, const Expectation& e, bool check_trace = true);

/// True when `e` checks nothing worth a case: a plan expectation with an empty plan and no
/// diagnostics/trace checks, or an any_of with an alternative that checks nothing.
bool checks_nothing(const Expectation& e);

/// A short class of an outcome for comparison tables: `<strategy>/<accelerator>/<processes>` for a
/// plan (e.g. `ddp_spawn/gpu/2`), the code for an error, `invalid outcome` otherwise.
std::string outcome_class(const nlohmann::json& outcome);

/// The part of an outcome that decides equality across implementations: the status, the plan or
/// the error code and fields, and the sorted diagnostic codes (messages and trace excluded).
nlohmann::json outcome_fingerprint(const nlohmann::json& outcome);

/// One line per diff: `  /plan/strategy/name: expected "ddp_spawn", got "ddp"`.
std::string format_diffs(const std::vector<Diff>& diffs, const std::string& indent = "  ");

}  // namespace accord::conformance
