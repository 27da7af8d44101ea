// live.h: run accord plans on the real machine: hardware probe, determinism, process bring-up.
//
// Everything here is JSON in, JSON out; LibTorch stays behind this header (library
// `accord::conformance_live`, built only when LibTorch is found). Error codes are the `live_*`
// wire ids of conformance/live/src/live_codes.def.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace CLI {
class App;
}

namespace accord::conformance {

/// What probe_hardware() found on this machine.
struct HardwareProbe {
  /// The PROTOCOL.md `hardware` object (cuda_devices, mps, tpu, ipu, hpu, fork, torch_distributed,
  /// cudnn_benchmark, packages, gpu_busy) plus the extra keys `cuda_names` and `nccl_version`.
  nlohmann::json hardware = nlohmann::json::object();
  /// PROTOCOL.md `interactive`: true when stdin is a terminal.
  bool interactive = false;
  /// How each fact was found: torch version, CUDA driver status, compiled collective backends.
  nlohmann::json details = nlohmann::json::object();
};

/// Probes this machine. Never throws and never needs a GPU or a driver: the CUDA driver and NCCL
/// are opened with dlopen, and their absence is reported in `details`.
[[nodiscard]] HardwareProbe probe_hardware();

/// `{"hardware": ..., "interactive": ..., "details": ...}`; the first two merge into a case.
[[nodiscard]] nlohmann::json to_json(const HardwareProbe& probe);

/// Applies a plan's `determinism` block through LibTorch (deterministic algorithms + warn_only,
/// cuDNN benchmark, cuDNN deterministic, environment variables). Null fields, and a null block,
/// leave the setting untouched. Returns `{"applied": {...}}` naming what was set.
/// Throws std::invalid_argument when a field has the wrong JSON type.
nlohmann::json apply_determinism(const nlohmann::json& determinism);

/// Reads every setting back and compares it with the block (null fields are not compared), then
/// runs a nondeterministic operation on `device` ("cpu", "cuda:0", ...) and checks that it raises
/// under deterministic algorithms, only warns under warn_only, and is silent otherwise.
/// Returns `{"ok": bool, "checks": [...], "ops": [...]}`; never throws.
[[nodiscard]] nlohmann::json check_determinism(const nlohmann::json& determinism,
                                               const std::string& device = "cpu");

/// Knobs for launch().
struct LaunchOptions {
  /// Limit for the whole bring-up: store rendezvous, collectives and waiting on the workers.
  double timeout_s = 60.0;
  /// MASTER_PORT; 0 takes MASTER_PORT from `env` or the process environment, else a free port.
  int port = 0;
  /// Rendezvous address given to the workers as MASTER_ADDR.
  std::string master_addr = "127.0.0.1";
  /// Extra environment for the workers (for in-process runs: set in this process).
  std::map<std::string, std::string> env;
  /// Command that starts one worker; empty means {"/proc/self/exe", "launch-worker"}.
  std::vector<std::string> worker_command;
  /// Collective backend: "auto", "gloo", "nccl" (c10d ProcessGroupNCCL) or "nccl-direct".
  std::string backend = "auto";
  /// Facts the plan is checked against; empty means probe_hardware().
  std::optional<HardwareProbe> hardware;
  /// Keep the scratch directory (plan, per-rank reports and logs) and name it in the report.
  bool keep_files = false;
};

/// Starts the processes the plan calls for (its launcher, or none when the cluster environment
/// creates them), runs in each a c10d all-reduce and the determinism check, and gathers a report
/// `{"status": "ok"|"error", "error"?: {code, fields, message}, "mode", "world_size", "ranks": [...]}`.
/// A plan the machine cannot honour fails before anything starts. Never hangs: the workers' waits
/// end `timeout_s` after the start, and workers still running max(5 s, timeout_s / 4) later are
/// killed (SIGTERM, then SIGKILL). Accepts a plan or a whole outcome.
[[nodiscard]] nlohmann::json launch(const nlohmann::json& plan, const LaunchOptions& options);

/// Adds the subcommands `probe`, `launch` and the hidden `launch-worker` to `app`. Their callbacks
/// throw CLI::RuntimeError(code) on a nonzero exit status, so `CLI11_PARSE` returns that status.
void register_live_commands(CLI::App& app);

/// A complete command line made of the live subcommands only (for test drivers and tools whose
/// own main re-executes itself as a worker). Returns the exit status.
int live_main(int argc, char** argv);

}  // namespace accord::conformance
