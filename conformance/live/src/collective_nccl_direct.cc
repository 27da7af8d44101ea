// collective_nccl_direct.cc: NCCL through dlopen (no NCCL headers), ids exchanged through the store.
#include <c10/core/DeviceGuard.h>

#include "nccl_library.h"
#include "rendezvous.h"
#include "tensor_io.h"

namespace accord::conformance::live {
namespace {

std::string nccl_text(const NcclApi& api, int rc) {
  const char* text = api.get_error_string != nullptr ? api.get_error_string(rc) : nullptr;
  return "ncclResult " + std::to_string(rc) + (text != nullptr ? std::string(" (") + text + ")" : "");
}

LiveFailure nccl_failure(LiveCode code, const CollectiveSpec& spec, const std::string& detail) {
  return from_c10d(std::runtime_error(detail), code, spec);
}

// Rank 0 creates the unique id and publishes it; the others wait for it (store timeout).
NcclUniqueId exchange_id(const NcclApi& api, c10d::Store& store, const CollectiveSpec& spec) {
  NcclUniqueId id{};
  const std::string key = "accord/nccl_unique_id";
  if (spec.rank.global_rank == 0) {
    if (const int rc = api.get_unique_id(&id); rc != 0) {
      throw nccl_failure(LiveCode::kGroupFailed, spec, "ncclGetUniqueId: " + nccl_text(api, rc));
    }
    store.set(key, std::vector<uint8_t>(id.internal, id.internal + sizeof id.internal));
    return id;
  }
  const std::vector<uint8_t> bytes = store.get(key);
  if (bytes.size() != sizeof id.internal) throw nccl_failure(LiveCode::kGroupFailed, spec, "bad NCCL unique id size");
  std::copy(bytes.begin(), bytes.end(), id.internal);
  return id;
}

}  // namespace

Reduced allreduce_nccl_direct(const CollectiveSpec& spec, const std::vector<float>& payload) {
  const NcclApi& api = nccl_api();
  if (!api.ok()) {
    throw LiveFailure({LiveCode::kBackendUnavailable, {{"backend", "nccl-direct"}, {"reason", api.error}}});
  }
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
  void* comm = nullptr;
  try {
    const NcclUniqueId id = exchange_id(api, *store, spec);
    if (const int rc = api.comm_init_rank(&comm, spec.rank.world_size, id, spec.rank.global_rank); rc != 0) {
      throw nccl_failure(LiveCode::kGroupFailed, spec, "ncclCommInitRank: " + nccl_text(api, rc));
    }
  } catch (const LiveFailure&) {
    throw;
  } catch (const std::exception& e) {
    throw from_c10d(e, LiveCode::kGroupFailed, spec);
  }
  out.timings["group_s"] = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  try {
    at::Tensor tensor = to_tensor(payload, spec.device);
    // Stream nullptr is the legacy default stream, which torch's default stream also is, so the
    // copy back in to_vector() is ordered after the reduction.
    const int rc = api.all_reduce(tensor.data_ptr(), tensor.data_ptr(), payload.size(), kNcclFloat32, kNcclSum,
                                  comm, nullptr);
    if (rc != 0) throw nccl_failure(LiveCode::kCollectiveFailed, spec, "ncclAllReduce: " + nccl_text(api, rc));
    out.values = to_vector(tensor);
  } catch (const LiveFailure&) {
    throw;
  } catch (const std::exception& e) {
    throw from_c10d(e, LiveCode::kCollectiveFailed, spec);
  }
  out.timings["allreduce_s"] = seconds_since(t0);
  api.comm_destroy(comm);
  out.timings["checked_out"] = check_out(*store, spec);
  return out;
}

}  // namespace accord::conformance::live
