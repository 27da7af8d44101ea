// classify.cc: which value of each dimension a case's inputs fall into (-1: outside the dimension).
#include "accord/reference/registry.h"
#include "dimension_tables.h"

namespace accord::coverage::detail {
namespace {
using reference::Case;
using reference::ClassKind;
using reference::PyValue;
using Kind = reference::PyValue::Kind;

bool is_kind(const PyValue& v, ClassKind k) {
  if (!v.is_instance()) return false;
  auto ci = reference::class_by_name(v.inst->cls);
  return ci && ci->kind == k;
}

/// The legacy flags given (not None), in Lightning's mapping order.
std::vector<const PyValue*> legacy_given(const Case& c) {
  std::vector<const PyValue*> out;
  for (auto m : legacy_flags())
    if (!(c.flags.*m).is_none()) out.push_back(&(c.flags.*m));
  return out;
}

int form_of_string(const std::string& raw) {
  std::string s = reference::py_strip(raw);
  if (s == "0") return value_index(Dim::kDevicesForm, "zero");
  if (s == "-1") return value_index(Dim::kDevicesForm, "-1");
  if (s == "auto") return value_index(Dim::kDevicesForm, "auto");
  if (s.find(',') != std::string::npos) return value_index(Dim::kDevicesForm, "str-list");
  if (reference::py_int_from_str(s)) return value_index(Dim::kDevicesForm, "str-int");
  return value_index(Dim::kDevicesForm, "other");
}

int form_of(const PyValue& v) {
  auto idx = [](const char* name) { return value_index(Dim::kDevicesForm, name); };
  switch (v.kind) {
    case Kind::kAbsent: return idx("absent");
    case Kind::kNone: return idx("None");
    case Kind::kBool:
    case Kind::kInt:
      if (v.as_int() == 0) return idx("zero");
      if (v.as_int() == -1) return idx("-1");
      return v.as_int() > 0 ? idx("int") : idx("other");
    case Kind::kBigInt: return idx("int");
    case Kind::kStr: return form_of_string(v.str);
    case Kind::kList: return v.list.empty() ? idx("zero") : idx("list");
    case Kind::kFloat:
    case Kind::kInstance: return idx("other");
  }
  return idx("other");  // LCOV_EXCL_LINE unreachable: every kind returns above
}

}  // namespace

int classify_accelerator(const Case& c) {
  const PyValue& a = c.flags.accelerator;
  if (a.is_none()) return value_index(Dim::kAccelerator, "None");
  if (a.is_str() && a.str == "auto") return value_index(Dim::kAccelerator, "auto");
  if (a.is_str() && reference::accelerator_by_name(a.str, reference::policy(reference::default_profile()))) return value_index(Dim::kAccelerator, a.str);
  if (is_kind(a, ClassKind::kAccelerator)) {
    auto id = static_cast<reference::AcceleratorId>(reference::class_by_name(a.inst->cls)->id);
    return value_index(Dim::kAccelerator, std::string(reference::row(id).name));
  }
  return -1;
}

int classify_strategy(const Case& c) {
  const PyValue& s = c.flags.strategy;
  if (s.is_none()) return value_index(Dim::kStrategy, "None");
  if (s.is_str()) {
    auto id = reference::strategy_by_name(reference::ascii_lower(s.str), reference::policy(reference::default_profile()));
    if (!id) return -1;
    return value_index(Dim::kStrategy, std::string(reference::row(reference::row(*id).cls).name));
  }
  if (is_kind(s, ClassKind::kStrategy)) {
    auto cls = static_cast<reference::StrategyClass>(reference::class_by_name(s.inst->cls)->id);
    return value_index(Dim::kStrategy, std::string(reference::row(cls).name));
  }
  return -1;
}

int classify_precision(const Case& c) {
  const PyValue& p = c.flags.precision;
  if (p.is_absent()) return value_index(Dim::kPrecision, "default");
  for (int v = 1; v < static_cast<int>(dim_values(Dim::kPrecision).size()); ++v)
    for (const auto& s : precision_spellings(v))
      if (s.kind == p.kind && (p.kind == Kind::kInt ? s.i == p.i : s.str == p.str)) return v;
  return -1;
}

int classify_cluster_env(const Case& c) {
  const PyValue& pl = c.flags.plugins;
  std::vector<PyValue> plugins = pl.kind == Kind::kList ? pl.list : std::vector<PyValue>{pl};
  bool explicit_env = false;
  for (const auto& p : plugins) explicit_env = explicit_env || is_kind(p, ClassKind::kClusterEnvironment);
  const PyValue& s = c.flags.strategy;
  if (s.is_instance() && !s.inst->arg("cluster_environment").is_none()) explicit_env = true;
  if (explicit_env) return value_index(Dim::kClusterEnv, "explicit");
  for (const auto& [value, marker] : env_markers())
    if (c.env.count(marker)) return value_index(Dim::kClusterEnv, value);
  return value_index(Dim::kClusterEnv, "none");
}

int classify_hardware(const Case& c) {
  const auto& h = c.hardware;
  const char* v = h.tpu ? "tpu" : h.ipu ? "ipu" : h.hpu ? "hpu" : h.cuda_devices > 1 ? "multi-gpu"
                  : h.cuda_devices == 1 ? "1-gpu" : "cpu-only";
  return value_index(Dim::kHardware, v);
}

int classify_legacy(const Case& c) {
  int count = 0, last = -1;
  for (size_t k = 0; k < legacy_flags().size(); ++k)
    if (!(c.flags.*legacy_flags()[k]).is_none()) { ++count; last = static_cast<int>(k); }
  if (count == 0) return value_index(Dim::kLegacy, "none");
  if (count > 1) return value_index(Dim::kLegacy, "several");
  return value_index(Dim::kLegacy, legacy_flag_name(static_cast<std::size_t>(last)));
}

int classify_devices_form(const Case& c) {
  auto given = legacy_given(c);
  return form_of(given.empty() ? c.flags.devices : *given.front());
}

}  // namespace accord::coverage::detail
