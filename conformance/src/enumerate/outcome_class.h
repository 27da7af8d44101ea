// outcome_class.h: the outcome class of a decision-table cell (a plan signature or an error code).
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "accord/reference/plan.h"

namespace accord::enumerate {

/// `strategy|accelerator|devices|precision|environment` for a plan, e.g. `ddp_spawn|gpu|2|32|Lightning`
/// (devices = number of parallel devices, `x<N>` appended when num_nodes != 1; environment = the
/// cluster environment class without "Environment"); the error code (`err_...`) for an error.
/// Writes into `out` (cleared first) so a worker can reuse one buffer.
void outcome_class(const reference::Outcome& o, std::string* out);
/// The same class from an outcome's wire form (PROTOCOL.md); `!invalid` when it has neither shape.
std::string outcome_class(const nlohmann::json& outcome);

}  // namespace accord::enumerate
