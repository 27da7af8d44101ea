// outcome_text.h: an outcome written as JSON text straight from the reference's Outcome, byte for byte as
// reference::outcome_to_json(o).dump() writes it, without building the tree (serve, resolve --batch).
#pragma once

#include <string>

#include "accord/reference/plan.h"

namespace accord::conformance {

/// What of an outcome to write.
enum class OutcomeParts {
  kWhole,     ///< the outcome as PROTOCOL.md has it: outcome_to_json(o).dump() (a test checks every fixture's)
  kPlanOnly,  ///< `status` with the `plan`, or with the `error`'s code and fields; no notes, messages or trace
};

/// Appends the outcome's JSON text (one line, no newline) to `out`.
void write_outcome_text(std::string* out, const reference::Outcome& o, OutcomeParts parts = OutcomeParts::kWhole);

}  // namespace accord::conformance
