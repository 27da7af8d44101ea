// hardware_probe.cc: builds the PROTOCOL.md `hardware` block for this machine.
#include <unistd.h>

#include "accord/conformance/live.h"
#include "cuda_driver.h"
#include "nccl_library.h"
#include "torch_facts.h"

namespace accord::conformance {
namespace {

nlohmann::json driver_json(const live::CudaDriverInfo& d) {
  return {{"loaded", d.loaded},           {"version", d.driver_version}, {"devices", d.device_count},
          {"names", d.names},             {"error", d.error.empty() ? nlohmann::json() : nlohmann::json(d.error)}};
}

nlohmann::json torch_json(const live::TorchFacts& t) {
  return {{"version", t.version},
          {"cuda_devices", t.cuda_devices},
          {"cudnn_available", t.cudnn_available},
          {"distributed", t.distributed},
          {"deterministic_algorithms", t.deterministic_algorithms},
          {"warn_only", t.warn_only},
          {"cudnn_deterministic", t.cudnn_deterministic}};
}

// One line a person reads first: what this machine can run.
std::string summary(const live::TorchFacts& t, const live::CudaDriverInfo& d) {
  if (!d.loaded) return "no CUDA driver (" + d.error + "); CPU only";
  if (!d.error.empty()) return "CUDA driver present but unusable (" + d.error + "); CPU only";
  if (t.cuda_devices == 0 && d.device_count > 0) {
    return "driver sees " + std::to_string(d.device_count) + " GPU(s) but LibTorch " + t.version +
           " has no CUDA; CPU only";
  }
  return std::to_string(t.cuda_devices) + " CUDA device(s) usable through LibTorch " + t.version;
}

}  // namespace

HardwareProbe probe_hardware() {
  const live::TorchFacts t = live::torch_facts();
  const live::CudaDriverInfo d = live::probe_cuda_driver();
  const live::NcclApi& nccl = live::nccl_api();
  const std::string nccl_version = live::nccl_version();

  nlohmann::json names = nlohmann::json::array();
  for (int i = 0; i < t.cuda_devices; ++i) {
    names.push_back(i < static_cast<int>(d.names.size()) ? d.names[i] : std::string("unknown"));
  }
  HardwareProbe p;
  p.hardware = {{"cuda_devices", t.cuda_devices},
                {"cuda_names", names},
                {"mps", false},  // Metal exists only on macOS
                {"tpu", false},
                {"ipu", false},
                {"hpu", false},
                {"fork", true},  // Linux always has fork()
                {"torch_distributed", t.distributed},
                {"cudnn_benchmark", t.cudnn_benchmark},
                {"packages", nlohmann::json::array()},
                {"gpu_busy", nlohmann::json::array()},
                {"nccl_version", nccl_version.empty() ? nlohmann::json() : nlohmann::json(nccl_version)}};
  p.interactive = isatty(STDIN_FILENO) == 1;
  p.details = {{"summary", summary(t, d)},
               {"torch", torch_json(t)},
               {"cuda_driver", driver_json(d)},
               {"nccl", {{"library", nccl.library},
                         {"version", p.hardware["nccl_version"]},
                         {"error", nccl.ok() ? nlohmann::json() : nlohmann::json(nccl.error)}}},
               {"backends", {{"gloo", t.gloo}, {"nccl", t.nccl}, {"nccl-direct", nccl.ok() && t.cuda_devices > 0}}},
               {"packages", "not probed: Python packages are invisible to C++"}};
  return p;
}

nlohmann::json to_json(const HardwareProbe& probe) {
  return {{"hardware", probe.hardware}, {"interactive", probe.interactive}, {"details", probe.details}};
}

}  // namespace accord::conformance
