// launch_children.h: start one worker process per rank and turn how they ended into a report.
#pragma once

#include <nlohmann/json.hpp>

#include "accord/conformance/live.h"
#include "launch_spec.h"
#include "plan_check.h"

namespace accord::conformance::live {

/// Where the workers meet.
struct Rendezvous {
  std::string master_addr;
  int master_port = 0;
  double deadline = 0;  ///< seconds since the epoch by which every worker's waits end
};

/// Starts `spec.num_nodes x spec.procs_per_node` workers (re-executed, fork+exec'd or forked
/// as `spec.mode` says), waits for them with the options' deadline and returns
/// `{"status", "error"?, "started", "ranks": [...], "files"?}`. Never throws.
[[nodiscard]] nlohmann::json run_launched(const nlohmann::json& plan, const LaunchSpec& spec, Backend backend,
                                          const Rendezvous& where, const LaunchOptions& options);

}  // namespace accord::conformance::live
