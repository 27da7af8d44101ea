// plan_check.h: can this machine honour a plan? Decided before any process starts.
#pragma once

#include <string>
#include <string_view>

#include "accord/conformance/live.h"
#include "launch_spec.h"

namespace accord::conformance::live {

/// Collective backends a worker can use.
enum class Backend { kGloo, kNccl, kNcclDirect };

/// "gloo", "nccl" or "nccl-direct".
[[nodiscard]] std::string_view backend_name(Backend backend);

/// Parses a backend name (not "auto"); throws LiveFailure(BackendUnavailable) for others.
[[nodiscard]] Backend parse_backend(const std::string& name);

/// Picks the backend for `spec`: `requested` unless "auto"; for "auto", gloo on CPU and on CUDA
/// the c10d NCCL process group when compiled in, else NCCL through dlopen ("nccl-direct").
[[nodiscard]] Backend choose_backend(const LaunchSpec& spec, const std::string& requested, const HardwareProbe& hw);

/// Checks the plan against the machine, one named predicate per failure, in this order:
/// devices present, fork available, torch.distributed present, backend usable, nodes simulable.
/// Throws LiveFailure for the first that fails.
void check_against_machine(const LaunchSpec& spec, Backend backend, const HardwareProbe& hw);

}  // namespace accord::conformance::live
