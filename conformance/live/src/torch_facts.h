// torch_facts.h: what the linked LibTorch says about itself and this machine (no torch types here).
#pragma once

#include <string>

namespace accord::conformance::live {

/// Facts read from LibTorch at run time, plus what this build compiled in.
struct TorchFacts {
  std::string version;                ///< TORCH_VERSION of the headers we built against
  int cuda_devices = 0;               ///< torch::cuda::device_count()
  bool cudnn_available = false;       ///< torch::cuda::cudnn_is_available()
  bool distributed = false;           ///< LibTorch built with USE_DISTRIBUTED
  bool gloo = false;                  ///< c10d ProcessGroupGloo compiled into this library
  bool nccl = false;                  ///< c10d ProcessGroupNCCL compiled into this library
  bool cudnn_benchmark = false;       ///< at::globalContext().benchmarkCuDNN()
  bool cudnn_deterministic = false;   ///< at::globalContext().deterministicCuDNN()
  bool deterministic_algorithms = false;  ///< at::globalContext().deterministicAlgorithms()
  bool warn_only = false;             ///< at::globalContext().deterministicAlgorithmsWarnOnly()
};

/// Reads the facts. Safe on a machine without GPU or driver (device count 0).
[[nodiscard]] TorchFacts torch_facts();

}  // namespace accord::conformance::live
