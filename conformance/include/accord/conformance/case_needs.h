// case_needs.h: the capability tags (tables/capabilities.def) a case uses, read off its input. A fixture states its
// `requires`; a generated case (accord differential) has none, so the harness derives them, and an implementation
// that does not declare one of them is not asked the case.
#pragma once

#include <string>
#include <vector>

#include "accord/reference/inputs.h"

namespace accord::conformance {

/// Sorted, without repeats: `flag:<name>` for each flag passed (and `flag:legacy_devices` for gpus, tpu_cores, ipus,
/// num_processes), `accelerator:<name>` for an accelerator named by string or present as hardware (tpu, ipu, hpu),
/// `instances` for a class instance as a flag value, `env` and `env:<cluster>` for environment variables,
/// `package:<name>`, `hardware:mps|no_fork|no_distributed|gpu_busy` and `interactive`. Only tags of the table.
std::vector<std::string> case_needs(const reference::Case& c);

}  // namespace accord::conformance
