// collective.cc: payload, result check and backend dispatch of the bring-up collective.
#include "collective.h"

#include <cmath>
#include <sstream>

#include "live_error.h"

namespace accord::conformance::live {
namespace {

using nlohmann::json;

std::string list_text(const std::vector<int>& v) {
  std::ostringstream out;
  out << '[';
  for (std::size_t i = 0; i < v.size(); ++i) out << (i ? ", " : "") << v[i];
  out << ']';
  return out.str();
}

}  // namespace

#ifndef ACCORD_LIVE_WITH_GLOO
Reduced allreduce_gloo(const CollectiveSpec&, const std::vector<float>&) {
  fail(LiveCode::kBackendUnavailable, {{"backend", "gloo"}, {"reason", "c10d ProcessGroupGloo is not compiled in"}});
}
#endif
#ifndef ACCORD_LIVE_WITH_NCCL
Reduced allreduce_nccl(const CollectiveSpec&, const std::vector<float>&) {
  fail(LiveCode::kBackendUnavailable, {{"backend", "nccl"}, {"reason", "c10d ProcessGroupNCCL is not compiled in"}});
}
#endif

std::vector<float> make_payload(int rank, int world) {
  std::vector<float> p(static_cast<std::size_t>(world) + 1, 0.0F);
  p[static_cast<std::size_t>(rank)] = 1.0F;
  p.back() = static_cast<float>(rank + 1);
  return p;
}

json run_collective(const CollectiveSpec& spec) {
  const int world = spec.rank.world_size;
  const std::vector<float> payload = make_payload(spec.rank.global_rank, world);
  Reduced reduced;
  switch (spec.backend) {
    case Backend::kGloo: reduced = allreduce_gloo(spec, payload); break;
    case Backend::kNccl: reduced = allreduce_nccl(spec, payload); break;
    case Backend::kNcclDirect: reduced = allreduce_nccl_direct(spec, payload); break;
  }
  std::vector<int> seen;
  bool each_once = reduced.values.size() == payload.size();
  for (int i = 0; each_once && i < world; ++i) {
    const float v = reduced.values[static_cast<std::size_t>(i)];
    if (v > 0.5F) seen.push_back(i);
    each_once = each_once && std::fabs(v - 1.0F) < 1e-3F;
  }
  const double expected = world * (world + 1) / 2.0;
  const double sum = reduced.values.empty() ? NAN : reduced.values.back();
  const bool ok = each_once && std::fabs(sum - expected) < 1e-3;
  if (!ok) {
    fail(LiveCode::kCollectiveMismatch, {{"rank", std::to_string(spec.rank.global_rank)},
                                         {"sum", std::to_string(sum)},
                                         {"expected", std::to_string(expected)},
                                         {"ranks_seen", list_text(seen)},
                                         {"world_size", std::to_string(world)}});
  }
  return {{"backend", std::string(backend_name(spec.backend))},
          {"device", spec.device},
          {"sum", sum},
          {"expected", expected},
          {"ranks_seen", seen},
          {"ok", ok},
          {"timings", reduced.timings}};
}

}  // namespace accord::conformance::live
