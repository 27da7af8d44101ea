// collective_gloo.cc: the all-reduce over c10d ProcessGroupGloo (built when gloo headers exist).
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include "rendezvous.h"
#include "tensor_io.h"

namespace accord::conformance::live {
#ifdef USE_C10D_GLOO
namespace {

// Loopback rendezvous stays on loopback; otherwise gloo picks the interface of the hostname.
std::shared_ptr<::gloo::transport::Device> gloo_device(const std::string& master_addr) {
  if (master_addr == "localhost" || master_addr.rfind("127.", 0) == 0) {
    return c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1");
  }
  return c10d::ProcessGroupGloo::createDefaultDevice();
}

}  // namespace

Reduced allreduce_gloo(const CollectiveSpec& spec, const std::vector<float>& payload) {
  Reduced out;
  auto t0 = std::chrono::steady_clock::now();
  c10::intrusive_ptr<c10d::Store> store = connect_store(spec);
  out.timings["store_s"] = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  c10::intrusive_ptr<c10d::ProcessGroupGloo> group;
  try {
    auto opts = c10d::ProcessGroupGloo::Options::create(timeout_ms(spec));
    opts->devices.push_back(gloo_device(spec.rank.master_addr));
    group = c10::make_intrusive<c10d::ProcessGroupGloo>(store, spec.rank.global_rank, spec.rank.world_size, opts);
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
  return out;
}

#else  // a LibTorch built without USE_C10D_GLOO has gloo headers but no ProcessGroupGloo

Reduced allreduce_gloo(const CollectiveSpec&, const std::vector<float>&) {
  fail(LiveCode::kBackendUnavailable, {{"backend", "gloo"}, {"reason", "LibTorch was built without USE_C10D_GLOO"}});
}

#endif
}  // namespace accord::conformance::live
