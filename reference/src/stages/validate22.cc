// validate22.cc: stage 1 of the Lightning 2.2.5 connector: _check_config_and_set_final_flags (strategy and accelerator
// intake, the MPS guard, the precision conversion, the plugins loop, a strategy instance's components).
#include <algorithm>

#include "../context.h"
#include "accord/reference/flags.h"

namespace accord::reference::detail {
namespace {

constexpr char kAuto[] = "auto", k32True[] = "32-true";  // the flags' defaults (str_value)

std::optional<ClassInfo> info_of(const Input& c, const PyValue& v) {
  if (!v.is_instance()) return std::nullopt;
  return c.class_of(*v.inst);
}

bool is_kind(const Input& c, const PyValue& v, ClassKind k) {
  auto ci = info_of(c, v);
  return ci && ci->kind == k;
}

/// Python's `str(value)` as an f-string prints it: strings bare, instances as `Cls()`.
std::string str_of(const PyValue& v) { return v.is_str() ? v.str : repr(v); }

/// "auto, cpu, cuda, mps, tpu": the 2.2.5 message lists the registry names after "auto".
std::string accelerator_names(const Policy& p) {
  std::string s = "auto";
  for (const auto& r : accelerators())
    if (in_profile(r, p)) s.append(", ").append(r.name);
  return s;
}

// PL 2.2.5 _check_config_and_set_final_flags: the strategy flag (lower-cased string or instance).
bool intake_strategy(Resolution& c, FinalFlags& flags) {
  const PyValue& s = c.in.flags.strategy;
  flags.strategy_flag.borrow(s.is_absent() ? str_value<kAuto>() : s);
  if (flags.strategy_flag->is_str()) {
    c.fire(RuleId::kStrategyLowercase);
    lower_in_place(flags.strategy_flag);  // str.lower() of an ASCII name
    const std::string& f = flags.strategy_flag->str;
    // _LIGHTNING_BAGUA_AVAILABLE / _LIGHTNING_COLOSSALAI_AVAILABLE: the strategy lives in its own package.
    using Pair = std::pair<std::string_view, std::string_view>;  // compared by length first: no strlen
    for (auto [name, package] : {Pair{"bagua", "lightning-bagua"}, Pair{"colossalai", "lightning-colossalai"}}) {
      if (c.fabric() || std::string_view(f) != name || c.in.hardware.has_package(package)) continue;  // the Trainer's check only
      c.fire(RuleId::kStrategyPackage);
      return c.fail(DiagCode::kPackageMissing, {fld("component", f), fld("package", package), fld("strategy", s)});
    }
  }
  const PyValue& f = *flags.strategy_flag;
  bool known = (f.is_str() && (std::string_view(f.str) == "auto" || strategy_by_name(f.str, c.pol))) || is_kind(c, f, ClassKind::kStrategy);
  if (known) return true;
  c.fire(RuleId::kStrategyRegistered);
  if (!f.is_str()) return c.fail(DiagCode::kStrategyInvalidType, {fld("strategy", f)});  // neither a string nor a Strategy
  // The message's "Example choices" (Fabric's list names dp, which its registry has).
  const char* examples = c.fabric() ? "auto, ddp, ddp_spawn, deepspeed, dp, ..." : "auto, ddp, ddp_spawn, deepspeed, ...";
  return c.fail(DiagCode::kStrategyUnknown, {fld("strategy", f), fld("allowed", examples)});
}

// PL 2.2.5 _check_config_and_set_final_flags: a registered name, "auto", "gpu" or an Accelerator instance.
bool intake_accelerator(Resolution& c, FinalFlags& flags) {
  const PyValue& a = c.in.flags.accelerator;
  c.fire(RuleId::kAcceleratorName);
  if (a.is_absent() || py_eq_str(a, "auto")) {
    flags.accelerator_flag = {AcceleratorFlag::Kind::kAuto};
    return true;
  }
  if (py_eq_str(a, "gpu")) {  // not registered in 2.x: resolved to mps or cuda (select.accelerator-gpu-alias)
    flags.accelerator_flag = {AcceleratorFlag::Kind::kText, AcceleratorId::kNone, "gpu"};
    return true;
  }
  if (auto id = a.is_str() ? accelerator_by_name(a.str, c.pol) : std::nullopt) {
    flags.accelerator_flag = {AcceleratorFlag::Kind::kName, *id};
    return true;
  }
  if (auto ci = info_of(c, a); ci && ci->kind == ClassKind::kAccelerator) {
    flags.accelerator_flag = {AcceleratorFlag::Kind::kInstance, static_cast<AcceleratorId>(ci->id)};
    return true;
  }
  c.fire(RuleId::kAcceleratorUnknown);
  return c.fail(DiagCode::kAcceleratorUnknown, {fld("accelerator", a), fld("allowed", accelerator_names(c.pol))});
}

// PL 2.2.5 _check_config_and_set_final_flags: MPS is available, the accelerator may become MPS, and the strategy is
// of the DDP family (a ParallelStrategy instance, or a name containing "ddp" or "deepspeed"; Fabric's also any name
// containing "dp": dp, fsdp, xla_fsdp).
bool mps_guard(Resolution& c, const FinalFlags& flags) {
  if (!c.in.hardware.mps) return true;
  const AcceleratorFlag& a = flags.accelerator_flag;
  bool mps = a.kind == AcceleratorFlag::Kind::kAuto || a.kind == AcceleratorFlag::Kind::kText ||
             (a.id == AcceleratorId::kMps && a.kind != AcceleratorFlag::Kind::kUnset);
  const PyValue& s = *flags.strategy_flag;
  auto ci = info_of(c, s);
  bool parallel = (ci && ci->kind == ClassKind::kStrategy && row(static_cast<StrategyClass>(ci->id)).parallel) ||
                  (s.is_str() && (s.str.find(c.fabric() ? "dp" : "ddp") != std::string::npos || s.str.find("deepspeed") != std::string::npos));
  if (!mps || !parallel) return true;
  c.fire(RuleId::kMpsDdpFamily);
  return c.fail(DiagCode::kStrategyMpsUnsupported, {fld("strategy", str_of(s))});
}

// PL 2.2.5 fabric/connector.py _convert_precision_to_unified_args: `precision in supported` (by ==), str(), the legacy
// aliases converted (with a warning for those that do not start with 32 or 64). The result is kept in
// FinalFlags::precision as the 2.x string; None stays None (the flag becomes "32-true" after the plugins loop).
bool intake_precision(Resolution& c, FinalFlags& flags) {
  const PyValue& p = c.in.flags.precision;
  if (p.is_absent() || p.is_none()) {
    flags.precision.borrow(none_value());
    return true;
  }
  c.fire(RuleId::kPrecisionConvert);
  auto r = precision_reading22(p);  // tables/precisions.def, column Convert22
  if (!r) return c.fail(DiagCode::kPrecisionInvalid, {fld("precision", p), fld("allowed", precisions22_shown())});
  if (r->warns) c.note(DiagCode::kPrecisionAlias, {fld("precision", r->text), fld("replacement", r->value.str)});
  flags.precision.keep(std::move(r->value));
  return true;
}

bool component_twice(Resolution& c, RuleId r, const char* component, const PyValue& strategy, const std::string& other) {
  c.fire(r);
  return c.fail(DiagCode::kStrategyComponentTwice, {fld("component", component), fld("strategy", strategy.inst->cls + "()"), fld("other", other)});
}

// PL 2.2.5 _check_config_and_set_final_flags: a strategy instance's parallel devices set the accelerator flag.
bool absorb_parallel_devices(Resolution& c, FinalFlags& flags, const PyValue& s) {
  const PyValue& pd = s.inst->arg("parallel_devices");
  if (pd.kind != PyValue::Kind::kList || pd.list.empty()) return true;
  std::vector<std::string> devs;
  for (const auto& d : pd.list) devs.push_back(py_str(d));
  std::string type = devs[0].substr(0, devs[0].find(':'));
  AcceleratorFlag& a = flags.accelerator_flag;
  // `self._accelerator_flag not in ("auto", "cpu")` compares the flag as Python holds it: an instance is never in it.
  auto is_name = [&](const char* n) {
    if (a.kind == AcceleratorFlag::Kind::kAuto) return std::string_view(n) == "auto";
    if (a.kind == AcceleratorFlag::Kind::kText) return a.text == n;
    return a.kind == AcceleratorFlag::Kind::kName && std::string_view(row(a.id).name) == n;
  };
  for (auto [t, acc, label, also] : {std::tuple{"cpu", AcceleratorId::kCpu, "CPU", "cpu"}, std::tuple{"cuda", AcceleratorId::kCuda, "GPU", "gpu"}}) {
    if (type != t) continue;
    c.fire(RuleId::kStrategyInstanceParallelDevices);
    if (!(is_name("auto") || is_name(t) || is_name(also)))  // the message prints the flag as it is now (str())
      return c.fail(DiagCode::kParallelDevicesConflict, {fld("device_type", label), fld("strategy", s.inst->cls), fld("accelerator", a.str())});
    a = {AcceleratorFlag::Kind::kName, acc};
  }
  flags.strategy_parallel_devices = devs;
  return true;
}

// PL 2.2.5 _check_config_and_set_final_flags: a strategy instance's accelerator, precision plugin, checkpoint io and
// cluster environment become the flags unless a flag or plugin already gives them.
bool absorb_strategy_instance(Resolution& c, FinalFlags& flags) {
  const PyValue& s = *flags.strategy_flag;
  auto ci = info_of(c, s);
  if (!ci || ci->kind != ClassKind::kStrategy) return true;
  const auto& cls = row(static_cast<StrategyClass>(ci->id));
  const PyValue& acc = s.inst->arg("accelerator");
  if (acc.truthy()) {
    if (flags.accelerator_flag.kind != AcceleratorFlag::Kind::kAuto) {
      c.fire(RuleId::kStrategyInstanceAccelerator);
      // "accelerator set through both strategy class and accelerator flag, choose one"
      return c.fail(DiagCode::kStrategyComponentTwice,
                    {fld("component", "accelerator"), fld("strategy", s.inst->cls + "()"), fld("other", "accelerator flag")});
    }
    if (auto ai = info_of(c, acc); ai && ai->kind == ClassKind::kAccelerator)
      flags.accelerator_flag = {AcceleratorFlag::Kind::kInstance, static_cast<AcceleratorId>(ai->id)};
    else if (auto id = acc.is_str() ? accelerator_by_name(acc.str, c.pol) : std::nullopt)
      flags.accelerator_flag = {AcceleratorFlag::Kind::kName, *id};
    else
      flags.accelerator_flag = {AcceleratorFlag::Kind::kText, AcceleratorId::kNone, py_str(acc)};
  }
  struct Part { const char* arg; RuleId rule; const char* name; std::optional<PyValue>* slot; };
  for (const Part& p : {Part{c.precision_arg(), RuleId::kStrategyInstancePrecision, "precision", &flags.precision_plugin_flag},
                        Part{"checkpoint_io", RuleId::kStrategyInstanceCheckpointIO, "checkpoint_io", &flags.checkpoint_io_flag},
                        Part{"cluster_environment", RuleId::kStrategyInstanceClusterEnv, "cluster_environment", &flags.cluster_env_flag}}) {
    PyValue v = s.inst->arg(p.arg);
    // XLAStrategy builds its own XLAEnvironment (column KeepsClusterEnv: the argument is swallowed).
    if (p.slot == &flags.cluster_env_flag && !cls.keeps_cluster_env) v = PyValue::instance(std::string(row(ClusterEnvId::kXla).cls));
    if (!v.truthy()) continue;
    if (p.slot->has_value()) return component_twice(c, p.rule, p.name, s, "plugins");  // "... and plugins, choose one"
    *p.slot = v;
  }
  return absorb_parallel_devices(c, flags, s);
}

}  // namespace

bool validate22_flags(Resolution& c, FinalFlags& flags) {
  const PyValue& pl = c.in.flags.plugins;
  if (pl.kind == PyValue::Kind::kList) {
    flags.plugins = {pl.list.data(), pl.list.size()};
  } else if (!pl.is_none()) {
    c.fire(RuleId::kPluginsWrap);
    flags.plugins = {&pl, 1};
  }
  // Checked after the accelerator is resolved (select22_accelerator); kept here as Lightning stores them.
  const PyValue& n = c.in.flags.num_nodes;
  flags.num_nodes = n.is_int_like() ? n.as_int() : 1;
  flags.devices_flag.borrow(c.in.flags.devices.is_absent() ? str_value<kAuto>() : c.in.flags.devices);
  return intake_strategy(c, flags) && intake_accelerator(c, flags) && mps_guard(c, flags) && intake_precision(c, flags);
}

// PL 2.2.5 _check_config_and_set_final_flags: the plugins loop, duplicates, precision= with a precision plugin, then a
// strategy instance's components.
bool validate22_plugins(Resolution& c, FinalFlags& flags) {
  const PyValue& sync = c.in.flags.sync_batchnorm;
  if (sync.truthy()) flags.layer_sync = "TorchSyncBatchNorm";
  std::vector<std::string_view> kinds;
  for (const auto& p : flags.plugins) {
    auto ci = info_of(c, p);
    // Fabric's loop knows Precision, CheckpointIO and ClusterEnvironment only: a LayerSync is a TypeError there.
    if (!ci || ci->kind == ClassKind::kAccelerator || ci->kind == ClassKind::kStrategy || (ci->kind == ClassKind::kLayerSync && c.fabric())) {
      c.fire(RuleId::kPluginKind);
      return c.fail(DiagCode::kPluginInvalid, {fld("plugin", str_of(p))});  // the message prints str(plugin)
    }
    switch (ci->kind) {
      case ClassKind::kPrecisionPlugin: flags.precision_plugin_flag = p; kinds.push_back("Precision"); break;
      case ClassKind::kCheckpointIO: flags.checkpoint_io_flag = p; kinds.push_back("CheckpointIO"); break;
      case ClassKind::kClusterEnvironment: flags.cluster_env_flag = p; kinds.push_back("ClusterEnvironment"); break;
      case ClassKind::kLayerSync:
        if (sync.truthy() && !ci->native) {
          c.fire(RuleId::kSyncBatchnormLayerSync);
          return c.fail(DiagCode::kSyncBatchnormLayerSync, {fld("sync_batchnorm", sync), fld("plugin", p.inst->cls)});
        }
        flags.layer_sync = p.inst->cls;
        kinds.push_back("TorchSyncBatchNorm");
        break;
      case ClassKind::kAccelerator:
      case ClassKind::kStrategy: break;  // rejected above
    }
  }
  if (!check_duplicates(c, kinds)) return false;
  if (flags.precision_plugin_flag && !flags.precision->is_none()) {
    c.fire(RuleId::kPrecisionAndPlugin);
    return c.fail(DiagCode::kFlagConflict, {fld("first", flags.precision->str), fld("second", repr(*flags.precision_plugin_flag)),
                                            fld("advice", "choose one")});
  }
  if (flags.precision->is_none()) flags.precision.borrow(str_value<k32True>());
  return absorb_strategy_instance(c, flags);
}

}  // namespace accord::reference::detail
