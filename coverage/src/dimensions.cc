// dimensions.cc: dimension values, case classification and probe variants for `accord coverage`.
#include "accord/coverage/dimensions.h"

#include <algorithm>
#include <array>

#include "accord/reference/flags.h"
#include "accord/reference/registry.h"
#include "dimension_tables.h"

namespace accord::coverage {
namespace {
using reference::Case;
using reference::PyValue;
using Kind = reference::PyValue::Kind;

// The legacy device flags in Lightning's mapping order
// (_map_deprecated_devices_specfic_info_to_accelerator_and_device_flag).
constexpr std::array<PyValue reference::UserFlags::*, 4> kLegacyFlags = {
    &reference::UserFlags::num_processes, &reference::UserFlags::gpus, &reference::UserFlags::ipus,
    &reference::UserFlags::tpu_cores};

// Environment markers in Lightning's detection order after an explicit plugin and SLURM
// (PL 1.6.5 _choose_and_init_cluster_environment); each value's variant sets every variable it reads.
struct EnvRow {
  const char* value;
  const char* marker;
  std::vector<std::pair<std::string, std::string>> vars;
};
const std::vector<EnvRow>& env_rows() {
  static const std::vector<EnvRow> rows = {
      {"slurm", "SLURM_NTASKS", {{"SLURM_PROCID", "0"}, {"SLURM_LOCALID", "0"}, {"SLURM_NODEID", "0"}}},
      {"bagua", "BAGUA_SERVICE_PORT", {{"WORLD_SIZE", "2"}, {"RANK", "0"}, {"LOCAL_RANK", "0"}, {"NODE_RANK", "0"}}},
      {"torchelastic", "TORCHELASTIC_RUN_ID", {{"WORLD_SIZE", "2"}, {"RANK", "0"}, {"LOCAL_RANK", "0"}, {"GROUP_RANK", "0"}}},
      {"kubeflow", "KUBERNETES_PORT",
       {{"MASTER_ADDR", "10.0.0.2"}, {"MASTER_PORT", "29500"}, {"WORLD_SIZE", "2"}, {"RANK", "0"}}},
      {"lsf", "LSB_JOBID",
       {{"LSB_DJOB_RANKFILE", "/tmp/rankfile"}, {"JSM_NAMESPACE_LOCAL_RANK", "0"}, {"JSM_NAMESPACE_SIZE", "2"},
        {"JSM_NAMESPACE_RANK", "0"}}},
  };
  return rows;
}

// Hardware classes: the facts each variant sets and the accelerator that runs on it.
struct HardwareRow {
  const char* value;
  const char* accelerator;  ///< registered accelerator available on it besides cpu ("" none)
  std::vector<reference::HardwareFacts> facts;
};
reference::HardwareFacts facts(int cuda, bool tpu, bool ipu, bool hpu) {
  reference::HardwareFacts h;
  h.cuda_devices = cuda;
  h.tpu = tpu;
  h.ipu = ipu;
  h.hpu = hpu;
  // Every optional package is installed so that a probe fails only for a reason of the cell itself.
  h.packages = {"deepspeed", "fairscale", "horovod", "apex", "bagua", "poptorch", "habana", "torch_xla"};
  return h;
}
const std::vector<HardwareRow>& hardware_rows() {
  static const std::vector<HardwareRow> rows = {
      {"cpu-only", "", {facts(0, false, false, false)}},
      {"1-gpu", "gpu", {facts(1, false, false, false)}},
      {"multi-gpu", "gpu", {facts(2, false, false, false), facts(8, false, false, false)}},
      {"tpu", "tpu", {facts(0, true, false, false)}},
      {"ipu", "ipu", {facts(0, false, true, false)}},
      {"hpu", "hpu", {facts(0, false, false, true)}},
  };
  return rows;
}

// The precision values: "default", then each precision that reference/tables/precisions.def normalises to (a row
// whose Normalize names itself) with every spelling that normalises to it, in table order. The mixed precisions come
// first, then full and double, then the others in table order.
struct PrecisionRow { std::string value; std::vector<PyValue> spellings; };
const std::vector<PrecisionRow>& precision_rows() {
  static const std::vector<PrecisionRow> rows = [] {
    using Id = reference::PrecisionSpellingId;
    std::vector<Id> order = {Id::kInt16, Id::kBf16, Id::kInt32, Id::kInt64};
    for (const auto& p : reference::precision_spellings())
      if (p.normalize == p.id && std::find(order.begin(), order.end(), p.id) == order.end()) order.push_back(p.id);
    std::vector<PrecisionRow> out = {{"default", {}}};
    for (Id target : order) {
      out.push_back({reference::precision_spelling(target).text, {}});
      for (const auto& p : reference::precision_spellings())
        if (p.normalize == target) out.back().spellings.push_back(p.value);
    }
    return out;
  }();
  return rows;
}

PyValue ints(std::vector<int> v) {
  std::vector<PyValue> l;
  for (int x : v) l.push_back(PyValue::integer(x));
  return PyValue::make_list(l);
}

struct FormRow { const char* value; std::vector<PyValue> examples; };
const std::vector<FormRow>& form_rows() {
  static const std::vector<FormRow> rows = {
      {"absent", {PyValue::absent()}},
      {"None", {PyValue::none()}},
      {"zero", {PyValue::integer(0), PyValue::string("0"), ints({})}},
      {"-1", {PyValue::integer(-1), PyValue::string("-1")}},
      {"int", {PyValue::integer(1), PyValue::integer(2), PyValue::integer(8)}},
      {"auto", {PyValue::string("auto")}},
      {"str-int", {PyValue::string("1"), PyValue::string("2"), PyValue::string("8")}},
      {"str-list", {PyValue::string("0,1"), PyValue::string("0,"), PyValue::string("1, 2")}},
      {"list", {ints({0}), ints({0, 1}), ints({1})}},
      {"other", {PyValue::floating(1.5), PyValue::string("x")}},
  };
  return rows;
}

// Strategy classes whose constructor takes a `device` (the probe passes one as an instance argument).
const char* device_arg(const std::string& cls) {
  if (cls == "SingleTPUStrategy") return "xla:0";
  if (cls == "SingleHPUStrategy") return "hpu";
  if (cls == "SingleDeviceStrategy") return "cpu";
  return nullptr;
}

std::vector<std::string> values_of(Dim d) {
  std::vector<std::string> v;
  switch (d) {
    case Dim::kAccelerator:
      v = {"None", "auto"};
      for (const auto& r : reference::accelerators())  // the default profile's registry
        if (reference::in_profile(r, reference::policy(reference::default_profile()))) v.emplace_back(r.name);
      break;
    case Dim::kStrategy:
      v = {"None"};
      for (const auto& r : reference::strategy_classes())
        if (reference::in_profile(r, reference::policy(reference::default_profile()))) v.emplace_back(r.name);
      break;
    case Dim::kPrecision:
      for (const auto& r : precision_rows()) v.push_back(r.value);
      break;
    case Dim::kClusterEnv:
      v = {"none", "explicit"};
      for (const auto& r : env_rows()) v.push_back(r.value);
      break;
    case Dim::kHardware:
      for (const auto& r : hardware_rows()) v.push_back(r.value);
      break;
    case Dim::kLegacy:
      v = {"none"};
      for (std::size_t k = 0; k < kLegacyFlags.size(); ++k) v.push_back(detail::legacy_flag_name(k));
      v.push_back("several");
      break;
    case Dim::kDevicesForm:
      for (const auto& r : form_rows()) v.push_back(r.value);
      break;
  }
  return v;
}

int index_of(Dim d, const std::string& value) {
  const auto& vs = dim_values(d);
  for (size_t k = 0; k < vs.size(); ++k)
    if (vs[k] == value) return static_cast<int>(k);
  return -1;
}

}  // namespace

const char* dim_id(Dim d) {
  switch (d) {
    case Dim::kAccelerator: return "accelerator";
    case Dim::kStrategy: return "strategy";
    case Dim::kPrecision: return "precision";
    case Dim::kClusterEnv: return "cluster-env";
    case Dim::kHardware: return "hardware";
    case Dim::kLegacy: return "legacy";
    case Dim::kDevicesForm: return "devices-form";
  }
  return "?";  // LCOV_EXCL_LINE unreachable: every dimension returns above
}

const char* dim_title(Dim d) {
  switch (d) {
    case Dim::kAccelerator: return "accelerator flag";
    case Dim::kStrategy: return "strategy";
    case Dim::kPrecision: return "precision";
    case Dim::kClusterEnv: return "cluster environment";
    case Dim::kHardware: return "hardware class";
    case Dim::kLegacy: return "legacy device flag";
    case Dim::kDevicesForm: return "devices form";
  }
  return "?";  // LCOV_EXCL_LINE unreachable: every dimension returns above
}

const std::vector<std::string>& dim_values(Dim d) {
  static const std::array<std::vector<std::string>, kDimCount> all = [] {
    std::array<std::vector<std::string>, kDimCount> a;
    for (int k = 0; k < kDimCount; ++k) a[k] = values_of(static_cast<Dim>(k));
    return a;
  }();
  return all[static_cast<size_t>(d)];
}

bool compatible(int accelerator_value, int hardware_value) {
  const std::string& a = dim_values(Dim::kAccelerator)[static_cast<size_t>(accelerator_value)];
  if (a == "None" || a == "auto" || a == "cpu") return true;
  return a == hardware_rows()[static_cast<size_t>(hardware_value)].accelerator;
}

int classify(const Case& c, Dim d) {
  switch (d) {
    case Dim::kAccelerator: return detail::classify_accelerator(c);
    case Dim::kStrategy: return detail::classify_strategy(c);
    case Dim::kPrecision: return detail::classify_precision(c);
    case Dim::kClusterEnv: return detail::classify_cluster_env(c);
    case Dim::kHardware: return detail::classify_hardware(c);
    case Dim::kLegacy: return detail::classify_legacy(c);
    case Dim::kDevicesForm: return detail::classify_devices_form(c);
  }
  return -1;  // LCOV_EXCL_LINE unreachable: every dimension returns above
}

// Lookups shared with classify.cc and variants.cc.
namespace detail {
int value_index(Dim d, const std::string& value) { return index_of(d, value); }
const std::vector<std::pair<std::string, std::string>>* env_vars_of(const std::string& value, const char** marker) {
  for (const auto& r : env_rows())
    if (value == r.value) {
      *marker = r.marker;
      return &r.vars;
    }
  return nullptr;
}
std::vector<std::pair<std::string, const char*>> env_markers() {
  std::vector<std::pair<std::string, const char*>> out;
  for (const auto& r : env_rows()) out.emplace_back(r.value, r.marker);
  return out;
}
const std::vector<reference::HardwareFacts>& hardware_facts(int v) { return hardware_rows()[static_cast<size_t>(v)].facts; }
const std::vector<PyValue>& precision_spellings(int v) { return precision_rows()[static_cast<size_t>(v)].spellings; }
const std::vector<PyValue>& form_examples(int v) { return form_rows()[static_cast<size_t>(v)].examples; }
const char* strategy_device_arg(const std::string& cls) { return device_arg(cls); }
const std::array<PyValue reference::UserFlags::*, 4>& legacy_flags() { return kLegacyFlags; }
const char* legacy_flag_name(std::size_t k) {
  for (const auto& f : reference::flags())
    if (f.member == kLegacyFlags[k]) return f.name;
  return "?";  // LCOV_EXCL_LINE unreachable: every UserFlags member is a row of flags.def
}
}  // namespace detail

}  // namespace accord::coverage
