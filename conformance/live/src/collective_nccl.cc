// collective_nccl.cc: the all-reduce over c10d ProcessGroupNCCL (built only with a CUDA LibTorch).
#include <c10/core/DeviceGuard.h>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>

#include "rendezvous.h"
#include "tensor_io.h"

namespace accord::conformance::live {

Reduced allreduce_nccl(const CollectiveSpec& spec, const std::vector<float>& payload) {
  Reduced out;
  std::optional<c10::DeviceGuard> guard;
  try {
    guard.emplace(at::Device(spec.device));
  } catch (const std::exception& e) {
    throw from_c10d(e, LiveCode::kDeviceFailed, spec);
  }
  auto t0 = std::chrono::steady_clock::now();
  c10::intrusive_ptr<c10d::Store> store = connect_store(spec);
  out.timings["store_s"] = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  c10::intrusive_ptr<c10d::ProcessGroupNCCL> group;
  try {
    auto opts = c10d::ProcessGroupNCCL::Options::create();
    opts->timeout = timeout_ms(spec);
    group = c10::make_intrusive<c10d::ProcessGroupNCCL>(store, spec.rank.global_rank, spec.rank.world_size, opts);
  } catch (const std::exception& e) {
    throw from_c10d(e, LiveCode::kGroupFailed, spec);
  }
  out.timings["group_s"] = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  try {
    std::vector<at::Tensor> tensors{to_tensor(payload, spec.device)};
    group->allreduce(tensors)->wait(timeout_ms(spec));
    out.values = to_vector(tensors.front());
  } catch (const std::exception& e) {
    throw from_c10d(e, LiveCode::kCollectiveFailed, spec);
  }
  out.timings["allreduce_s"] = seconds_since(t0);
  out.timings["checked_out"] = check_out(*store, spec);
  // Deliberately leaked: tearing a NCCL group down can block on its watchdog, and this process
  // is about to report and exit. The communicator dies with the process.
  (void)group.release();
  return out;
}

}  // namespace accord::conformance::live
