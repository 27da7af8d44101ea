// collective.h: the bring-up collective every rank runs (no torch types; backends live in their TUs).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "plan_check.h"
#include "rank_env.h"

namespace accord::conformance::live {

/// What one rank needs to join the job's process group.
struct CollectiveSpec {
  RankInfo rank;
  std::string device = "cpu";  ///< this rank's device ("cpu", "cuda:1")
  Backend backend = Backend::kGloo;
  double timeout_s = 60;       ///< store, group creation and all-reduce, each
};

/// The reduced payload and how long each step took.
struct Reduced {
  std::vector<float> values;
  nlohmann::json timings = nlohmann::json::object();
};

/// Creates the process group and all-reduces a payload holding a one-hot vector of the rank
/// and rank+1. Returns `{"backend", "device", "sum", "expected", "ranks_seen", "ok", "timings"}`
/// when every rank 0..world-1 took part exactly once and the sum is world*(world+1)/2; throws
/// LiveFailure (PortInUse, StoreTimeout, StoreFailed, DeviceFailed, GroupFailed,
/// CollectiveFailed, CollectiveMismatch, BackendUnavailable) otherwise.
[[nodiscard]] nlohmann::json run_collective(const CollectiveSpec& spec);

/// The payload of one rank: world entries (1 at `rank`), then rank + 1.
[[nodiscard]] std::vector<float> make_payload(int rank, int world);

/// Each backend: rendezvous through a c10d TCPStore, then all-reduce (sum) `payload`.
Reduced allreduce_gloo(const CollectiveSpec& spec, const std::vector<float>& payload);
Reduced allreduce_nccl(const CollectiveSpec& spec, const std::vector<float>& payload);
Reduced allreduce_nccl_direct(const CollectiveSpec& spec, const std::vector<float>& payload);

}  // namespace accord::conformance::live
