// resolve.h: the single entry point of the reference connector.
#pragma once

#include "accord/reference/inputs.h"
#include "accord/reference/plan.h"

namespace accord::reference {

/// Resolves one case under a profile. Pure: reads nothing but its arguments, never throws for any
/// input, and returns a plan or exactly one error (the first in stage order), with the notes emitted
/// before it and the trace of rule IDs that fired.
[[nodiscard]] Outcome resolve(const Case& c, Profile profile);

}  // namespace accord::reference
