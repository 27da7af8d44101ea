// plan_check.cc: named predicates that reject a plan this machine cannot run, each with one code.
#include "plan_check.h"

#include <set>

#include "live_error.h"

namespace accord::conformance::live {
namespace {

using nlohmann::json;

bool flag(const json& obj, const char* key) { return obj.is_object() && obj.value(key, false); }

std::string join(const std::set<int>& cuda) {
  std::string out;
  for (int i : cuda) out += (out.empty() ? "cuda:" : ", cuda:") + std::to_string(i);
  return out;
}

bool needs_cuda(const LaunchSpec& spec) {
  for (const std::string& d : spec.all_devices) {
    if (is_cuda_device(d)) return true;
  }
  return false;
}

// Every CUDA device the plan names must exist (PROTOCOL hardware.cuda_devices).
void check_cuda_devices(const LaunchSpec& spec, const HardwareProbe& hw) {
  std::set<int> wanted;
  for (const std::string& d : spec.all_devices) {
    if (is_cuda_device(d)) wanted.insert(cuda_index(d));
  }
  const int have = hw.hardware.value("cuda_devices", 0);
  if (wanted.empty() || *wanted.rbegin() < have) return;
  const std::string why = hw.details.is_object() ? hw.details.value("summary", std::string()) : std::string();
  fail(LiveCode::kHardwareMissing,
       {{"requested", join(wanted)},
        {"available", std::to_string(have) + " CUDA device(s)" + (why.empty() ? "" : " (" + why + ")")}});
}

// The fork start method needs fork(), and CUDA cannot be used in a forked child once the parent
// initialised it (Lightning refuses the same combination).
void check_fork(const LaunchSpec& spec, const HardwareProbe& hw) {
  if (spec.mode != LaunchMode::kFork) return;
  if (!hw.hardware.value("fork", true)) {
    fail(LiveCode::kHardwareMissing, {{"requested", "fork()"}, {"available", "no fork on this platform"}});
  }
  if (needs_cuda(spec)) {
    fail(LiveCode::kLauncherUnsupported,
         {{"launcher", "spawn (start_method=fork)"}, {"reason", "CUDA cannot be used in forked processes"}});
  }
}

void check_distributed(const LaunchSpec& spec, const HardwareProbe& hw) {
  if (spec.world_size > 1 && !hw.hardware.value("torch_distributed", false)) {
    fail(LiveCode::kHardwareMissing, {{"requested", "torch.distributed"}, {"available", "a LibTorch without it"}});
  }
}

void check_backend(const LaunchSpec& spec, Backend backend, const HardwareProbe& hw) {
  const json backends = hw.details.is_object() ? hw.details.value("backends", json::object()) : json::object();
  const std::string name(backend_name(backend));
  if (backend != Backend::kGloo && !needs_cuda(spec)) {
    fail(LiveCode::kBackendUnavailable, {{"backend", name}, {"reason", "NCCL needs CUDA devices, the plan uses cpu"}});
  }
  if (!flag(backends, name.c_str())) {
    const char* why = backend == Backend::kGloo  ? "c10d ProcessGroupGloo is not compiled into this build"
                      : backend == Backend::kNccl ? "c10d ProcessGroupNCCL is not compiled into this build"
                                                  : "no loadable libnccl.so.2 or no CUDA device";
    fail(LiveCode::kBackendUnavailable, {{"backend", name}, {"reason", why}});
  }
}

// Several nodes are simulated on this one machine, which only works for CPU ranks.
void check_nodes(const LaunchSpec& spec) {
  if (spec.num_nodes > 1 && spec.mode != LaunchMode::kExternal && needs_cuda(spec)) {
    fail(LiveCode::kHardwareMissing, {{"requested", std::to_string(spec.num_nodes) + " nodes with CUDA devices"},
                                      {"available", "one node (simulated nodes would share GPUs)"}});
  }
}

}  // namespace

std::string_view backend_name(Backend backend) {
  switch (backend) {
    case Backend::kGloo: return "gloo";
    case Backend::kNccl: return "nccl";
    case Backend::kNcclDirect: return "nccl-direct";
  }
  return "unknown";
}

Backend parse_backend(const std::string& name) {
  if (name == "gloo") return Backend::kGloo;
  if (name == "nccl") return Backend::kNccl;
  if (name == "nccl-direct") return Backend::kNcclDirect;
  fail(LiveCode::kBackendUnavailable, {{"backend", name}, {"reason", "use auto, gloo, nccl or nccl-direct"}});
}

Backend choose_backend(const LaunchSpec& spec, const std::string& requested, const HardwareProbe& hw) {
  if (requested != "auto") return parse_backend(requested);
  if (!needs_cuda(spec)) return Backend::kGloo;
  const json backends = hw.details.is_object() ? hw.details.value("backends", json::object()) : json::object();
  return flag(backends, "nccl") || !flag(backends, "nccl-direct") ? Backend::kNccl : Backend::kNcclDirect;
}

void check_against_machine(const LaunchSpec& spec, Backend backend, const HardwareProbe& hw) {
  check_cuda_devices(spec, hw);
  check_fork(spec, hw);
  check_distributed(spec, hw);
  check_backend(spec, backend, hw);
  check_nodes(spec);
}

}  // namespace accord::conformance::live
