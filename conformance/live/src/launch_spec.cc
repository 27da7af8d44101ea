// launch_spec.cc: reads launcher, cluster environment, process counts and devices out of a plan.
#include "launch_spec.h"

#include <cstdlib>

#include "live_error.h"

namespace accord::conformance::live {
namespace {

using nlohmann::json;

[[noreturn]] void invalid(const std::string& reason) { fail(LiveCode::kPlanInvalid, {{"reason", reason}}); }

int positive_int(const json& plan, const char* key, int fallback) {
  if (!plan.contains(key) || plan.at(key).is_null()) return fallback;
  const json& v = plan.at(key);
  if (!v.is_number_integer() || v.get<long long>() < 1 || v.get<long long>() > 4096) {
    invalid(std::string("`") + key + "` must be a positive integer, got " + v.dump());
  }
  return v.get<int>();
}

std::string string_or(const json& obj, const char* key, const std::string& fallback) {
  if (!obj.is_object() || !obj.contains(key) || obj.at(key).is_null()) return fallback;
  if (!obj.at(key).is_string()) invalid(std::string("`") + key + "` must be a string, got " + obj.at(key).dump());
  return obj.at(key).get<std::string>();
}

bool bool_or(const json& obj, const char* key, bool fallback) {
  if (!obj.is_object() || !obj.contains(key) || obj.at(key).is_null()) return fallback;
  if (!obj.at(key).is_boolean()) invalid(std::string("`") + key + "` must be a bool, got " + obj.at(key).dump());
  return obj.at(key).get<bool>();
}

LaunchMode mode_for(const std::string& kind, const std::string& start_method, bool external) {
  if (external) return LaunchMode::kExternal;  // Lightning's launchers skip spawning here too
  if (kind == "none") return LaunchMode::kInProcess;
  if (kind == "subprocess_script") return LaunchMode::kSubprocessScript;
  if (kind == "spawn" || kind == "fork") {
    return start_method == "fork" || kind == "fork" ? LaunchMode::kFork : LaunchMode::kSpawn;
  }
  fail(LiveCode::kLauncherUnsupported,
       {{"launcher", kind}, {"reason", "only subprocess_script, spawn/fork and no launcher start processes here"}});
}

std::vector<std::string> string_list(const json& plan, const char* key) {
  std::vector<std::string> out;
  if (!plan.contains(key) || plan.at(key).is_null()) return out;
  if (!plan.at(key).is_array()) invalid(std::string("`") + key + "` must be a list of device strings");
  for (const json& d : plan.at(key)) {
    if (!d.is_string()) invalid(std::string("`") + key + "` must be a list of device strings, got " + d.dump());
    out.push_back(d.get<std::string>());
  }
  return out;
}

void check_devices_supported(const LaunchSpec& spec) {
  for (const std::string& d : spec.all_devices) {
    if (d != "cpu" && !is_cuda_device(d)) {
      fail(LiveCode::kAcceleratorUnsupported, {{"accelerator", spec.accelerator + " (device " + d + ")"}});
    }
  }
}

}  // namespace

std::string_view mode_name(LaunchMode mode) {
  switch (mode) {
    case LaunchMode::kInProcess: return "in_process";
    case LaunchMode::kSubprocessScript: return "subprocess_script";
    case LaunchMode::kSpawn: return "spawn";
    case LaunchMode::kFork: return "fork";
    case LaunchMode::kExternal: return "external";
  }
  return "unknown";
}

const std::string& device_for(const LaunchSpec& spec, int local_rank) {
  const std::size_t i = static_cast<std::size_t>(local_rank);
  return i < spec.devices.size() ? spec.devices[i] : spec.devices.front();
}

bool is_cuda_device(const std::string& device) { return cuda_index(device) >= 0; }

int cuda_index(const std::string& device) {
  if (device == "cuda") return 0;
  if (device.rfind("cuda:", 0) != 0 || device.size() == 5) return -1;
  char* end = nullptr;
  const long v = std::strtol(device.c_str() + 5, &end, 10);
  return *end == '\0' && v >= 0 && v < 1024 ? static_cast<int>(v) : -1;
}

const json& plan_of(const json& plan_or_outcome) {
  if (!plan_or_outcome.is_object()) invalid("expected a JSON object (a plan or an outcome)");
  if (!plan_or_outcome.contains("status")) return plan_or_outcome;
  if (plan_or_outcome.at("status") != "ok") {
    const json err = plan_or_outcome.value("error", json::object());
    const bool named = err.is_object() && err.contains("code") && err.at("code").is_string();
    fail(LiveCode::kPlanNotOk, {{"code", named ? err.at("code").get<std::string>() : "?"}});
  }
  if (!plan_or_outcome.contains("plan") || !plan_or_outcome.at("plan").is_object()) invalid("the outcome has no `plan`");
  return plan_or_outcome.at("plan");
}

LaunchSpec read_launch_spec(const json& plan_or_outcome) {
  const json& plan = plan_of(plan_or_outcome);
  LaunchSpec spec;
  const json env = plan.value("cluster_environment", json::object());
  const json launcher = plan.value("launcher", json());
  const bool external = bool_or(env, "creates_processes_externally", false);
  spec.launcher = string_or(launcher, "kind", "none");
  spec.env_class = string_or(env, "class", "LightningEnvironment");
  spec.accelerator = string_or(plan, "accelerator", "cpu");
  spec.mode = mode_for(spec.launcher, string_or(launcher, "start_method", ""), external);
  spec.num_nodes = positive_int(plan, "num_nodes", 1);
  const int processes = positive_int(plan, "num_processes", 1);
  const bool in_process = spec.mode == LaunchMode::kInProcess;
  const bool starts_ranks = !in_process && spec.mode != LaunchMode::kExternal;
  const int env_world = env.is_object() && env.contains("world_size") && env.at("world_size").is_number_integer()
                            ? env.at("world_size").get<int>() : (in_process ? 1 : spec.num_nodes * processes);
  spec.procs_per_node = starts_ranks ? processes : 1;
  spec.world_size = spec.mode == LaunchMode::kExternal ? env_world : starts_ranks ? spec.num_nodes * processes : 1;
  // Without a launcher one process drives every device (DataParallel: num_processes counts devices).
  if (in_process && env_world != 1) invalid("no launcher, but world size " + std::to_string(env_world));
  if (starts_ranks && env_world != spec.world_size) {
    invalid("cluster_environment.world_size " + std::to_string(env_world) + " != num_nodes x num_processes " +
            std::to_string(spec.world_size));
  }
  const std::vector<std::string> parallel = string_list(plan, "parallel_devices");
  const json strategy = plan.value("strategy", json::object());
  const std::string root = string_or(strategy, "root_device", parallel.empty() ? "cpu" : parallel.front());
  spec.all_devices = parallel;
  spec.all_devices.push_back(root);
  if (starts_ranks && !parallel.empty() && static_cast<int>(parallel.size()) < processes) {
    invalid(std::to_string(processes) + " processes per node but only " + std::to_string(parallel.size()) +
            " parallel_devices");
  }
  // In-process runs use the root device; launched and external ranks use parallel_devices[local_rank].
  if (spec.mode == LaunchMode::kInProcess || parallel.empty()) {
    spec.devices.push_back(root);
  } else {
    spec.devices = parallel;
  }
  spec.determinism = plan.value("determinism", json());
  check_devices_supported(spec);
  return spec;
}

}  // namespace accord::conformance::live
