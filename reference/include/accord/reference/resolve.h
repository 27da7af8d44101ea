// resolve.h: the single entry point of the reference connector.
#pragma once

#include "accord/reference/inputs.h"
#include "accord/reference/plan.h"

namespace accord::reference {

/// Resolves one case under a profile. Pure: reads nothing but its arguments, never throws for any
/// input, and returns a plan or exactly one error (the first in stage order), with the notes emitted
/// before it and the trace of rule IDs that fired.
[[nodiscard]] Outcome resolve(const Case& c, Profile profile);

/// The same outcome, written into `out` (whatever it held before is replaced): a caller that resolves case after case
/// into one Outcome (a batch worker, a server) reuses the storage of its trace and notes instead of allocating it anew.
void resolve(const Case& c, Profile profile, Outcome& out);

}  // namespace accord::reference
