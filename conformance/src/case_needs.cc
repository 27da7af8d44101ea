// case_needs.cc: the capability tags a case uses (case_needs.h), as tables: which input implies which tag.
#include "accord/conformance/case_needs.h"

#include <algorithm>
#include <iterator>
#include <set>
#include <string_view>

#include "accord/conformance/adapter.h"
#include "accord/reference/flags.h"

namespace accord::conformance {
namespace {

/// Environment variables that make a cluster environment detect itself, by prefix (Lightning's *Environment.detect).
struct EnvNeed {
  std::string_view prefix;
  const char* tag;
};
constexpr EnvNeed kEnvNeeds[] = {
    {"SLURM_", "env:slurm"},           {"LSB_", "env:lsf"},
    {"TORCHELASTIC_", "env:torchelastic"}, {"GROUP_RANK", "env:torchelastic"},
    {"KUBERNETES_PORT", "env:kubeflow"}, {"BAGUA_", "env:bagua"},
};

/// The legacy device flags, which also need `flag:legacy_devices`.
constexpr std::string_view kLegacyFlags[] = {"gpus", "tpu_cores", "ipus", "num_processes"};

/// Hardware facts away from their defaults.
struct HardwareNeed {
  bool (*present)(const reference::HardwareFacts&);
  const char* tag;
};
const HardwareNeed kHardwareNeeds[] = {
    {[](const reference::HardwareFacts& h) { return h.tpu; }, "accelerator:tpu"},
    {[](const reference::HardwareFacts& h) { return h.ipu; }, "accelerator:ipu"},
    {[](const reference::HardwareFacts& h) { return h.hpu; }, "accelerator:hpu"},
    {[](const reference::HardwareFacts& h) { return h.mps; }, "hardware:mps"},
    {[](const reference::HardwareFacts& h) { return !h.fork; }, "hardware:no_fork"},
    {[](const reference::HardwareFacts& h) { return !h.torch_distributed; }, "hardware:no_distributed"},
    {[](const reference::HardwareFacts& h) { return !h.gpu_busy.empty(); }, "hardware:gpu_busy"},
};

/// Cluster environments passed as instances (a plugin, or an argument of a strategy instance).
struct ClassNeed {
  std::string_view cls;
  const char* tag;
};
constexpr ClassNeed kClassNeeds[] = {
    {"SLURMEnvironment", "env:slurm"},         {"LSFEnvironment", "env:lsf"},     {"TorchElasticEnvironment", "env:torchelastic"},
    {"KubeflowEnvironment", "env:kubeflow"}, {"BaguaEnvironment", "env:bagua"},
};

/// `instances` and the tags of kClassNeeds for every instance in `v` (lists and instance arguments included).
void instance_needs(const reference::PyValue& v, std::set<std::string>* tags) {
  if (v.kind == reference::PyValue::Kind::kList)
    for (const auto& x : v.list) instance_needs(x, tags);
  if (!v.is_instance()) return;
  tags->insert("instances");
  for (const auto& n : kClassNeeds)
    if (v.inst->cls == n.cls) tags->insert(n.tag);
  for (const auto& [name, arg] : v.inst->args) instance_needs(arg, tags);
}

}  // namespace

std::vector<std::string> case_needs(const reference::Case& c) {
  std::set<std::string> tags;
  for (const auto& row : reference::flags()) {
    const reference::PyValue& v = c.flags.*(row.member);
    if (v.is_absent()) continue;
    std::string name = row.name;
    tags.insert("flag:" + name);
    if (std::find(std::begin(kLegacyFlags), std::end(kLegacyFlags), name) != std::end(kLegacyFlags)) tags.insert("flag:legacy_devices");
    instance_needs(v, &tags);
    if (name == "accelerator" && v.is_str()) tags.insert("accelerator:" + v.str);
  }
  if (!c.env.empty()) tags.insert("env");
  for (const auto& [key, value] : c.env)
    for (const auto& n : kEnvNeeds)
      if (key.rfind(n.prefix, 0) == 0) tags.insert(n.tag);
  for (const auto& n : kHardwareNeeds)
    if (n.present(c.hardware)) tags.insert(n.tag);
  for (const auto& p : c.hardware.packages) tags.insert("package:" + p);
  if (c.interactive) tags.insert("interactive");
  const auto& vocab = reference_vocabulary();
  std::vector<std::string> out;
  std::copy_if(tags.begin(), tags.end(), std::back_inserter(out), [&](const std::string& t) { return vocab.is_capability(t); });
  return out;
}

}  // namespace accord::conformance
