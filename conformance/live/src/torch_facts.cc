// torch_facts.cc: the one cheap LibTorch TU for the probe (ATen/Context.h and torch/cuda.h only).
#include "torch_facts.h"

#include <ATen/Context.h>
#include <torch/cuda.h>
#include <torch/version.h>

namespace accord::conformance::live {

TorchFacts torch_facts() {
  TorchFacts f;
  f.version = TORCH_VERSION;
  f.cuda_devices = static_cast<int>(torch::cuda::device_count());
  f.cudnn_available = f.cuda_devices > 0 && torch::cuda::cudnn_is_available();
#ifdef USE_DISTRIBUTED
  f.distributed = true;
#endif
#if defined(ACCORD_LIVE_WITH_GLOO) && defined(USE_C10D_GLOO)
  f.gloo = true;
#endif
#ifdef ACCORD_LIVE_WITH_NCCL
  f.nccl = true;
#endif
  const at::Context& ctx = at::globalContext();
  f.cudnn_benchmark = ctx.benchmarkCuDNN();
  f.cudnn_deterministic = ctx.deterministicCuDNN();
  f.deterministic_algorithms = ctx.deterministicAlgorithms();
  f.warn_only = ctx.deterministicAlgorithmsWarnOnly();
  return f;
}

}  // namespace accord::conformance::live
