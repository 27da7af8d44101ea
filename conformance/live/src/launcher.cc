// launcher.cc: launch(): check the plan against the machine, then run it in-process or in workers.
#include <unistd.h>

#include <chrono>
#include <cstdlib>

#include "accord/conformance/live.h"
#include "launch_children.h"
#include "launch_spec.h"
#include "live_error.h"
#include "plan_check.h"
#include "ports.h"
#include "worker.h"

namespace accord::conformance {
namespace {

using nlohmann::json;
using live::Backend;
using live::Environ;
using live::LaunchMode;
using live::LaunchSpec;
using live::LiveCode;
using live::LiveError;
using live::LiveFailure;
using live::RankInfo;
using live::WorkerConfig;

// MASTER_PORT for runs whose launcher owns the port: --port, then MASTER_PORT, then a free one.
int owned_port(const LaunchOptions& options) {
  int port = options.port;
  if (port <= 0) {
    Environ env = live::current_environ();
    for (const auto& [k, v] : options.env) env[k] = v;
    port = env.count("MASTER_PORT") != 0 ? live::env_int(env, "MASTER_PORT") : live::pick_free_port();
  }
  if (port <= 0 || port > 65535) live::fail(LiveCode::kPlanInvalid, {{"reason", "no usable MASTER_PORT"}});
  if (live::port_in_use(port)) live::fail(LiveCode::kPortInUse, {{"port", std::to_string(port)}, {"address", "0.0.0.0"}});
  return port;
}

// One rank in this process (no launcher, or the cluster created this process).
json run_here(const json& plan, const LaunchSpec& spec, Backend backend, const LaunchOptions& options) {
  for (const auto& [k, v] : options.env) setenv(k.c_str(), v.c_str(), 1);
  WorkerConfig config{plan, backend, options.timeout_s, std::nullopt, std::nullopt, std::nullopt};
  if (spec.mode == LaunchMode::kInProcess) {
    RankInfo me;
    me.master_addr = options.master_addr;
    me.master_port = owned_port(options);
    me.source = "in_process";
    config.identity = me;
  }
  json report = live::run_worker(config);
  json out = {{"status", report["status"]},
              {"started", 1},
              {"ranks", json::array({{{"rank", report.value("rank", 0)}, {"pid", static_cast<int>(getpid())},
                                      {"end", "ran in this process"}, {"report", report}}})}};
  if (report.contains("error")) out["error"] = report["error"];
  return out;
}

json describe(const LaunchSpec& spec, Backend backend) {
  return {{"mode", std::string(live::mode_name(spec.mode))},
          {"launcher", spec.launcher},
          {"cluster_environment", spec.env_class},
          {"backend", std::string(live::backend_name(backend))},
          {"world_size", spec.world_size},
          {"num_nodes", spec.num_nodes},
          {"devices", spec.devices}};
}

}  // namespace

json launch(const json& plan, const LaunchOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  json report = {{"status", "error"}, {"started", 0}};
  try {
    const LaunchSpec spec = live::read_launch_spec(plan);
    const HardwareProbe hw = options.hardware ? *options.hardware : probe_hardware();
    const Backend backend = live::choose_backend(spec, options.backend, hw);
    live::check_against_machine(spec, backend, hw);
    report.update(describe(spec, backend));
    if (spec.mode == LaunchMode::kInProcess || spec.mode == LaunchMode::kExternal) {
      report.update(run_here(plan, spec, backend, options));
    } else {
      const double now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
      const live::Rendezvous where{options.master_addr, owned_port(options), now + options.timeout_s};
      report["master"] = where.master_addr + ":" + std::to_string(where.master_port);
      report.update(live::run_launched(plan, spec, backend, where, options));
    }
  } catch (const LiveFailure& f) {
    report["error"] = live::to_json(f.error());
  } catch (const std::exception& e) {
    report["error"] = live::to_json(LiveError{LiveCode::kInternal, {{"detail", e.what()}}});
  }
  report["elapsed_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report;
}

}  // namespace accord::conformance
