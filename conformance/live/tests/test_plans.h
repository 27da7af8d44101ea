// test_plans.h: hand-written plans in the PROTOCOL.md shape, for the live tests.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace accord::conformance::testing {

/// A determinism block; `mode` is "off", "true" or "warn" (Trainer(deterministic=...)).
inline nlohmann::json determinism_block(const std::string& mode) {
  if (mode == "off") {
    return {{"use_deterministic_algorithms", false}, {"warn_only", false}, {"cudnn_benchmark", nullptr},
            {"cudnn_deterministic", nullptr}, {"env", nullptr}};
  }
  return {{"use_deterministic_algorithms", true}, {"warn_only", mode == "warn"}, {"cudnn_benchmark", false},
          {"cudnn_deterministic", true}, {"env", {{"CUBLAS_WORKSPACE_CONFIG", ":4096:8"}}}};
}

/// A plan on `n` devices of `device_kind` ("cpu" or "cuda") with the given launcher
/// (`kind` null for none) and cluster environment.
inline nlohmann::json make_plan(int n, const std::string& device_kind, const nlohmann::json& launcher,
                                const std::string& env_class = "LightningEnvironment", bool external = false,
                                const std::string& deterministic = "off") {
  nlohmann::json devices = nlohmann::json::array();
  for (int i = 0; i < n; ++i) devices.push_back(device_kind == "cpu" ? "cpu" : "cuda:" + std::to_string(i));
  const bool spawn = launcher.is_object() && launcher.contains("kind") && launcher.at("kind") == "spawn";
  return {{"accelerator", device_kind == "cpu" ? "cpu" : "gpu"},
          {"accelerator_class", device_kind == "cpu" ? "CPUAccelerator" : "GPUAccelerator"},
          {"devices", n},
          {"parallel_devices", devices},
          {"num_nodes", 1},
          {"num_processes", n},
          {"cluster_environment", {{"class", env_class}, {"creates_processes_externally", external},
                                   {"world_size", n}, {"global_rank", 0}, {"local_rank", 0}, {"node_rank", 0}}},
          {"strategy", {{"name", spawn ? "ddp_spawn" : "ddp"}, {"class", spawn ? "DDPSpawnStrategy" : "DDPStrategy"},
                        {"family", spawn ? "ddp_spawn" : "ddp"}, {"params", nlohmann::json::object()},
                        {"root_device", devices.front()}}},
          {"launcher", launcher},
          {"precision", {{"value", "32"}, {"plugin", "PrecisionPlugin"}}},
          {"checkpoint_io", "TorchCheckpointIO"},
          {"layer_sync", nullptr},
          {"is_distributed", n > 1},
          {"determinism", determinism_block(deterministic)}};
}

/// Trainer(strategy="ddp", accelerator="cpu", devices=n): the subprocess-script launcher.
inline nlohmann::json ddp_plan(int n, const std::string& deterministic = "off") {
  return make_plan(n, "cpu", {{"kind", "subprocess_script"}, {"start_method", "popen"}, {"interactive_compatible", false}},
                   "LightningEnvironment", false, deterministic);
}

/// Trainer(strategy="ddp_spawn", ...) with the given start method ("spawn" or "fork").
inline nlohmann::json spawn_plan(int n, const std::string& start_method = "spawn") {
  return make_plan(n, "cpu", {{"kind", "spawn"}, {"start_method", start_method},
                              {"interactive_compatible", start_method == "fork"}});
}

/// A plan whose processes the cluster (SLURM, TorchElastic, ...) creates.
inline nlohmann::json external_plan(int n, const std::string& env_class) {
  return make_plan(n, "cpu", {{"kind", "subprocess_script"}, {"start_method", "popen"}, {"interactive_compatible", false}},
                   env_class, true);
}

/// Trainer(accelerator="cpu", devices=1): no launcher, one process.
inline nlohmann::json single_plan(const std::string& deterministic = "off") {
  nlohmann::json plan = make_plan(1, "cpu", nullptr, "LightningEnvironment", false, deterministic);
  plan["strategy"] = {{"name", "single_device"}, {"class", "SingleDeviceStrategy"}, {"family", "single_device"},
                      {"params", nlohmann::json::object()}, {"root_device", "cpu"}};
  plan["is_distributed"] = false;
  return plan;
}

}  // namespace accord::conformance::testing
