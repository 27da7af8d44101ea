// worker.h: one rank of a live run: identity, determinism, the collective, a JSON report.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "plan_check.h"
#include "rank_env.h"

namespace accord::conformance::live {

/// Everything a rank needs besides its environment.
struct WorkerConfig {
  nlohmann::json plan;                 ///< the plan (or outcome) being run
  Backend backend = Backend::kGloo;    ///< chosen by the launcher
  double timeout_s = 60;               ///< for each wait inside the rank
  std::optional<double> deadline;      ///< launcher's deadline (seconds since the epoch); waits end by then
  std::optional<int> spawn_index;      ///< spawn/fork launchers: the process index (`--rank`)
  std::optional<RankInfo> identity;    ///< in-process runs: given directly, no environment read
};

/// Runs this process as one rank and returns its report: `{"status": "ok"|"error", "error"?,
/// "rank", "local_rank", "node_rank", "world_size", "source", "pid", "device", "backend",
/// "collective", "determinism", "elapsed_s"}`. Reads ranks from the environment (the cluster
/// environment's variables when it creates processes, else the launcher's). Never throws.
[[nodiscard]] nlohmann::json run_worker(const WorkerConfig& config);

/// Test hook: ACCORD_LIVE_FAULT="<rank|*>:<crash|exit|hang>" makes that rank (or every rank)
/// abort, exit 3, or sleep forever before the rendezvous, so tests can check the launcher's report.
void inject_fault_if_asked(int global_rank);

}  // namespace accord::conformance::live
