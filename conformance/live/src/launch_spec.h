// launch_spec.h: the parts of a plan that decide how many processes run where, and how they start.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace accord::conformance::live {

/// How the processes of a plan come to exist.
enum class LaunchMode {
  kInProcess,         ///< no launcher: this process is the only rank
  kSubprocessScript,  ///< launcher "subprocess_script": re-execute this binary per local rank
  kSpawn,             ///< launcher "spawn" (start method spawn/forkserver): fork + exec per rank
  kFork,              ///< launcher "spawn" with start method "fork": fork without exec
  kExternal,          ///< the cluster environment creates the processes; this process is one rank
};

/// The wire name of a mode ("in_process", "subprocess_script", "spawn", "fork", "external").
[[nodiscard]] std::string_view mode_name(LaunchMode mode);

/// A plan reduced to what the live runner needs.
struct LaunchSpec {
  LaunchMode mode = LaunchMode::kInProcess;
  std::string launcher;     ///< the plan's launcher kind ("none" for null)
  std::string env_class;    ///< cluster_environment.class
  std::string accelerator;  ///< the plan's accelerator name
  int num_nodes = 1;
  int procs_per_node = 1;   ///< processes this runner starts per node (1 for in-process/external)
  int world_size = 1;       ///< all processes of the job
  std::vector<std::string> devices;       ///< by local rank ("cpu", "cuda:1"); never empty
  std::vector<std::string> all_devices;   ///< every device the plan names (parallel + root)
  nlohmann::json determinism;             ///< the plan's determinism block (may be null)
};

/// The plan inside `plan_or_outcome` (an outcome `{"status": "ok", "plan": ...}` or a bare plan).
/// Throws LiveFailure (PlanNotOk, PlanInvalid).
[[nodiscard]] const nlohmann::json& plan_of(const nlohmann::json& plan_or_outcome);

/// Reads a plan (or outcome). Throws LiveFailure (PlanInvalid, PlanNotOk, LauncherUnsupported,
/// AcceleratorUnsupported) when the plan is malformed or asks for something no machine here runs.
[[nodiscard]] LaunchSpec read_launch_spec(const nlohmann::json& plan_or_outcome);

/// The device of local rank `local_rank` (the first device when fewer are listed).
[[nodiscard]] const std::string& device_for(const LaunchSpec& spec, int local_rank);

/// True for "cuda" and "cuda:N".
[[nodiscard]] bool is_cuda_device(const std::string& device);

/// N of "cuda:N" (0 for "cuda"); -1 when `device` is not a CUDA device.
[[nodiscard]] int cuda_index(const std::string& device);

}  // namespace accord::conformance::live
