// worker.cc: the body of one rank; every failure becomes a field of the report.
#include "worker.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <thread>

#include "accord/conformance/live.h"
#include "collective.h"
#include "launch_spec.h"
#include "live_error.h"

namespace accord::conformance::live {
namespace {

using nlohmann::json;

RankInfo identify(const WorkerConfig& config, const LaunchSpec& spec) {
  if (config.identity) return *config.identity;
  const Environ env = current_environ();
  const RankInfo info = spec.mode == LaunchMode::kExternal
                            ? read_external_rank(spec.env_class, env)
                            : read_launched_rank(env, config.spawn_index, spec.procs_per_node);
  if (info.world_size != spec.world_size) {
    fail(LiveCode::kWorldMismatch, {{"source", info.source},
                                    {"what", "world size"},
                                    {"actual", std::to_string(info.world_size)},
                                    {"expected", std::to_string(spec.world_size)}});
  }
  return info;
}

void describe_identity(json& report, const RankInfo& who) {
  report["rank"] = who.global_rank;
  report["local_rank"] = who.local_rank;
  report["node_rank"] = who.node_rank;
  report["world_size"] = who.world_size;
  report["source"] = who.source;
  report["master"] = who.master_addr + ":" + std::to_string(who.master_port);
}

// Applies the block and checks it; returns the error to report, if any.
std::optional<LiveError> determinism_step(const LaunchSpec& spec, const std::string& device, int rank, json& report) {
  try {
    report["determinism"]["applied"] = apply_determinism(spec.determinism)["applied"];
  } catch (const std::exception& e) {
    return LiveError{LiveCode::kDeterminismMismatch, {{"rank", std::to_string(rank)}, {"detail", e.what()}}};
  }
  const json check = check_determinism(spec.determinism, device);
  report["determinism"]["check"] = check;
  if (check.value("ok", false)) return std::nullopt;
  std::string detail = check.value("error", std::string());
  for (const json& c : check["checks"]) {
    if (!c["ok"].get<bool>()) detail += c["setting"].get<std::string>() + " is " + c["actual"].dump() + " ";
  }
  for (const json& o : check["ops"]) {
    if (!o["ok"].get<bool>() && o["required"].get<bool>()) {
      detail += o["op"].get<std::string>() + " " + o["observed"].get<std::string>() + " instead of " +
                o["expected"].get<std::string>();
    }
  }
  return LiveError{LiveCode::kDeterminismMismatch, {{"rank", std::to_string(rank)}, {"detail", detail}}};
}

// Waits end by the launcher's deadline, so a rank reports its own timeout before it is killed.
double effective_timeout(const WorkerConfig& config) {
  if (!config.deadline) return config.timeout_s;
  const double now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  return std::min(config.timeout_s, std::max(0.5, *config.deadline - now));
}

}  // namespace

void inject_fault_if_asked(int global_rank) {
  const char* fault = std::getenv("ACCORD_LIVE_FAULT");
  if (fault == nullptr) return;
  const std::string text(fault);
  const std::size_t colon = text.find(':');
  const std::string who = colon == std::string::npos ? "" : text.substr(0, colon);
  if (who != "*" && who != std::to_string(global_rank)) return;
  const std::string kind = text.substr(colon + 1);
  if (kind == "crash") std::abort();
  if (kind == "exit") std::_Exit(3);
  if (kind == "hang") {
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
}

json run_worker(const WorkerConfig& config) {
  const auto t0 = std::chrono::steady_clock::now();
  json report = {{"status", "error"}, {"pid", static_cast<int>(getpid())}, {"backend", backend_name(config.backend)}};
  std::optional<LiveError> error;
  try {
    const LaunchSpec spec = read_launch_spec(config.plan);
    const RankInfo who = identify(config, spec);
    describe_identity(report, who);
    const std::string device = device_for(spec, who.local_rank);
    report["device"] = device;
    inject_fault_if_asked(who.global_rank);
    error = determinism_step(spec, device, who.global_rank, report);
    // The collective runs even after a determinism failure, so the other ranks are not left waiting.
    report["collective"] = run_collective(CollectiveSpec{who, device, config.backend, effective_timeout(config)});
  } catch (const LiveFailure& f) {
    error = f.error();
  } catch (const std::exception& e) {
    error = LiveError{LiveCode::kInternal, {{"detail", e.what()}}};
  }
  if (error) {
    report["error"] = to_json(*error);
  } else {
    report["status"] = "ok";
  }
  report["elapsed_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report;
}

}  // namespace accord::conformance::live
