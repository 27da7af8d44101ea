// validate_plugins.cc: stage 1b: the plugins loop and absorbing a strategy instance's components.
#include <algorithm>
#include <map>
#include <string_view>

#include "../context.h"

namespace accord::reference::detail {
namespace {

std::optional<ClassInfo> info_of(const Input& c, const PyValue& v) {
  if (!v.is_instance()) return std::nullopt;
  return c.class_of(*v.inst);
}

// PL 1.6.5 accelerator_connector.py _check_config_and_set_final_flags: one plugin.
bool take_plugin(Resolution& c, FinalFlags& flags, const PyValue& p, std::vector<std::string_view>& kinds) {
  auto ci = info_of(c, p);
  if ((p.is_str() && strategy_by_name(p.str, c.pol)) || (ci && ci->kind == ClassKind::kStrategy)) {
    c.fire(RuleId::kPluginStrategyDeprecated);
    c.note(DiagCode::kPluginStrategyDeprecated, {fld("plugin", p)});
    flags.strategy_flag.borrow(p);
    kinds.push_back("Strategy");
    return true;
  }
  if (!ci || ci->kind == ClassKind::kAccelerator) {
    c.fire(RuleId::kPluginKind);
    return c.fail(DiagCode::kPluginInvalid, {fld("plugin", p)});
  }
  switch (ci->kind) {
    case ClassKind::kPrecisionPlugin: flags.precision_plugin_flag = p; kinds.push_back("PrecisionPlugin"); break;
    case ClassKind::kCheckpointIO: flags.checkpoint_io_flag = p; kinds.push_back("CheckpointIO"); break;
    case ClassKind::kClusterEnvironment: flags.cluster_env_flag = p; kinds.push_back("ClusterEnvironment"); break;
    case ClassKind::kLayerSync:
      if (c.in.flags.sync_batchnorm.truthy() && (!ci->native || c.pol.any_layer_sync_conflicts)) {
        c.fire(RuleId::kSyncBatchnormLayerSync);
        return c.fail(DiagCode::kSyncBatchnormLayerSync, {fld("sync_batchnorm", c.in.flags.sync_batchnorm), fld("plugin", p.inst->cls)});
      }
      flags.layer_sync = p.inst->cls;
      kinds.push_back("NativeSyncBatchNorm");
      break;
    case ClassKind::kAccelerator:
    case ClassKind::kStrategy: break;  // handled above
  }
  return true;
}

}  // namespace

bool check_duplicates(Resolution& c, const std::vector<std::string_view>& kinds) {
  std::string dup;
  for (size_t k = 0; k < kinds.size(); ++k) {
    auto same = [&](std::string_view o) { return o == kinds[k]; };
    bool first = std::none_of(kinds.begin(), kinds.begin() + static_cast<long>(k), same);
    if (first && std::count_if(kinds.begin(), kinds.end(), same) > 1) dup += (dup.empty() ? "" : ", ") + std::string(kinds[k]);
  }
  if (dup.empty()) return true;
  c.fire(RuleId::kPluginsDuplicate);
  return c.fail(DiagCode::kPluginsDuplicate, {fld("kinds", dup)});
}

namespace {

/// spec: an explicit `precision` besides a precision plugin is one setting twice (validate.precision-plugin-twice).
bool precision_twice(const Input& c) { return c.pol.precision_plugin_twice_error && !c.in.flags.precision.is_none(); }

/// err_flag_conflict for precision_twice; `second` says where the plugin came from. Returns false (after fail()).
bool precision_conflict(Resolution& c, const std::string& second) {
  c.fire(RuleId::kPrecisionPluginTwice);
  return c.fail(DiagCode::kFlagConflict, {fld("first", "precision=" + repr(c.in.flags.precision)), fld("second", second),
                                          fld("advice", "drop `precision=` or the precision plugin")});
}

bool component_twice(Resolution& c, RuleId r, const char* component, const PyValue& strategy, const std::string& other) {
  c.fire(r);
  return c.fail(DiagCode::kStrategyComponentTwice,
                {fld("component", component), fld("strategy", strategy.inst->cls), fld("other", other)});
}

// PL 1.6.5 accelerator_connector.py _check_config_and_set_final_flags: strategy parallel_devices.
bool absorb_parallel_devices(Resolution& c, FinalFlags& flags, const PyValue& s) {
  const PyValue& pd = s.inst->arg("parallel_devices");
  if (pd.kind != PyValue::Kind::kList || pd.list.empty()) return true;
  std::vector<std::string> devs;
  for (const auto& d : pd.list) devs.push_back(py_str(d));
  std::string type = devs[0].substr(0, devs[0].find(':'));
  for (auto [t, acc, label] : {std::tuple{"cpu", AcceleratorId::kCpu, "CPU"}, std::tuple{"cuda", AcceleratorId::kGpu, "GPU"}}) {
    if (type != t) continue;
    c.fire(RuleId::kStrategyInstanceParallelDevices);
    const AcceleratorFlag& given = flags.accelerator_flag;
    bool ok = given.kind == AcceleratorFlag::Kind::kUnset || given.kind == AcceleratorFlag::Kind::kAuto || given.is(acc, c.pol);
    if (!ok)
      return c.fail(DiagCode::kParallelDevicesConflict,
                    {fld("device_type", label), fld("strategy", s.inst->cls), fld("accelerator", flags.accelerator_flag.repr())});
    if (flags.accelerator_flag.kind != AcceleratorFlag::Kind::kInstance) flags.accelerator_flag = {AcceleratorFlag::Kind::kName, acc};
  }
  flags.strategy_parallel_devices = devs;
  return true;
}

// PL 1.6.5 _check_config_and_set_final_flags: `self._accelerator_flag = self._strategy_flag._accelerator`, a string
// no flag check sees. "auto" and registered names hold as given; other strings: spec rejects them like the
// `accelerator` flag (decision 4f/7), lightning-1.6 keeps them until the registry lookup (select.accelerator-registry).
bool strategy_accelerator_name(Resolution& c, FinalFlags& flags, const PyValue& acc) {
  c.fire(RuleId::kStrategyInstanceAcceleratorName);
  if (std::string_view(acc.str) == "auto") flags.accelerator_flag = {AcceleratorFlag::Kind::kAuto};
  else if (auto id = accelerator_by_name(acc.str, c.pol)) flags.accelerator_flag = {AcceleratorFlag::Kind::kName, *id};
  else if (c.pol.accelerator_unknown_error)
    return c.fail(DiagCode::kAcceleratorUnknown, {fld("accelerator", acc), fld("allowed", accelerator_names_with_auto(c.pol))});
  else flags.accelerator_flag = {AcceleratorFlag::Kind::kText, AcceleratorId::kNone, acc.str};
  return true;
}

// PL 1.6.5 accelerator_connector.py _check_config_and_set_final_flags: a strategy instance's own components (decision 4c).
bool absorb_strategy_instance(Resolution& c, FinalFlags& flags) {
  const PyValue& s = *flags.strategy_flag;
  auto ci = info_of(c, s);
  if (!ci || ci->kind != ClassKind::kStrategy) return true;
  const PyValue& acc = s.inst->arg("accelerator");
  if (acc.truthy()) {  // `if self._strategy_flag._accelerator:`
    if (flags.accelerator_flag.kind != AcceleratorFlag::Kind::kUnset) {
      c.fire(RuleId::kStrategyInstanceAccelerator);
      return c.fail(DiagCode::kStrategyComponentTwice,
                    {fld("component", "accelerator"), fld("strategy", s.inst->cls),
                     fld("other", "`Trainer(accelerator=" + repr(c.in.flags.accelerator) + ")`")});
    }
    if (acc.is_str()) {
      if (!strategy_accelerator_name(c, flags, acc)) return false;
    } else if (auto ai = info_of(c, acc); ai && ai->kind == ClassKind::kAccelerator) {
      flags.accelerator_flag = {AcceleratorFlag::Kind::kInstance, static_cast<AcceleratorId>(ai->id)};
    }
  }
  struct Part { const char* arg; RuleId rule; const char* name; std::optional<PyValue>* slot; };
  for (const Part& p : {Part{"precision_plugin", RuleId::kStrategyInstancePrecision, "precision", &flags.precision_plugin_flag},
                        Part{"checkpoint_io", RuleId::kStrategyInstanceCheckpointIO, "checkpoint_io", &flags.checkpoint_io_flag},
                        Part{"cluster_environment", RuleId::kStrategyInstanceClusterEnv, "cluster_environment", &flags.cluster_env_flag}}) {
    // TPUSpawnStrategy's constructor swallows `cluster_environment` in `**_` (column KeepsClusterEnv).
    if (p.slot == &flags.cluster_env_flag && !row(static_cast<StrategyClass>(ci->id)).keeps_cluster_env) continue;
    PyValue v = s.inst->arg(p.arg);
    std::string_view own_io = row(static_cast<StrategyClass>(ci->id)).checkpoint_io;
    // TPU and HPU strategies build their own checkpoint io in __init__ (XLACheckpointIO / HPUCheckpointIO).
    if (v.is_none() && p.slot == &flags.checkpoint_io_flag && own_io != "TorchCheckpointIO") v = PyValue::instance(std::string(own_io));
    if (!v.truthy()) continue;  // `if self._strategy_flag._precision_plugin:` and the like
    if (p.slot->has_value()) return component_twice(c, p.rule, p.name, s, "`Trainer(plugins=[" + repr(**p.slot) + "])`");
    *p.slot = v;
  }
  // spec: `precision=` and the strategy's precision plugin are one setting twice, as with `plugins` (decision 4a). A value
  // that is not a precision plugin instance is passed over when the precision is chosen, so it overrides nothing.
  if (instance_row(c, flags.precision_plugin_flag, ClassKind::kPrecisionPlugin) && precision_twice(c))
    return precision_conflict(c, "strategy=" + s.inst->cls + "(precision_plugin=" + repr(*flags.precision_plugin_flag) + ")");
  return absorb_parallel_devices(c, flags, s);
}

// `value in (16, 32, 'bf16')` for the values of a row's `accepts` cell (Python equality: '16' is not 16).
bool accepts(const char* cell, const PyValue& v) {
  for (const auto& t : split_cell(cell))
    if (t.find_first_not_of("0123456789") == std::string::npos ? py_eq_int(v, std::stoll(t)) : py_eq_str(v, t)) return true;
  return false;
}

/// PL 2.2.5 strategies/fsdp.py, xla.py, single_xla.py: the precision_plugin and checkpoint_io setters insist on one
/// class (columns NeedsPrecision, NeedsCheckpointIO); `given` is what reaches the setter.
bool strategy_setter_ok(Resolution& c, const StrategyClassRow& cls, const char* arg, const PyValue& given) {
  bool io = std::string_view(arg) == "checkpoint_io";
  const char* need = io ? cls.needs_checkpoint_io : cls.needs_precision;
  if (!*need || !given.is_instance() || (io ? checkpoint_io_accepted(c, cls, given) : given.inst->cls == need)) return true;
  c.fire(RuleId::kStrategyPluginClass);
  return c.fail(DiagCode::kStrategyPluginMismatch,
                {fld("strategy", std::string_view(arg) == "checkpoint_io" ? "XLA" : precision_setter_label(cls)),
                 fld("expected", need), fld("plugin", repr(given))});
}

bool construct_strategy(Resolution& c, StrategyClass id, const PyValue& instance) {
  const auto& cls = row(id);
  // SingleTPUStrategy(device) has no default: without it the constructor raises a TypeError (column device_default).
  if (cls.root == RootDevice::kArg && cls.device_default.empty() && instance.inst->arg("device").is_absent())
    return c.fail(DiagCode::kStrategyNeedsDevice, {fld("strategy", instance), fld("strategy_class", cls.cls)});
  // DeepSpeed and Bagua check their package; HorovodStrategy.__init__ reads hvd.rank() (a NameError without it).
  if (!cls.package.empty() && !c.in.hardware.has_package(cls.package))
    return c.fail(DiagCode::kPackageMissing, {fld("component", package_component(c, cls)), fld("package", cls.package)});
  bool hw_ok = cls.hardware == AcceleratorId::kNone || (cls.hardware == AcceleratorId::kIpu ? c.in.hardware.ipu : c.in.hardware.hpu);
  if (!hw_ok)
    return c.fail(DiagCode::kStrategyNeedsHardware, {fld("strategy", cls.cls), fld("hardware", cls.hardware == AcceleratorId::kIpu ? "IPU" : "HPU")});
  return strategy_setter_ok(c, cls, "checkpoint_io", instance.inst->arg("checkpoint_io")) &&
         strategy_setter_ok(c, cls, c.precision_arg(), instance.inst->arg(c.precision_arg()));
}

bool construct_precision_plugin(Resolution& c, PrecisionPluginId id, const Instance& inst) {
  const auto& r = row(id);
  if (*r.package && !c.in.hardware.has_package(r.package))
    return c.fail(DiagCode::kPackageMissing, {fld("component", r.cls), fld("package", r.package)});
  if (id == PrecisionPluginId::kHpu && !c.in.hardware.hpu)
    return c.fail(DiagCode::kStrategyNeedsHardware, {fld("strategy", r.cls), fld("hardware", "HPU")});
  const PyValue& p = inst.arg("precision");
  // PL 2.2.5 plugins/precision: MixedPrecision, XLAPrecision, FSDPPrecision and DeepSpeedPrecision check the value.
  if (c.release22() && *r.accepts && !p.is_absent() && !accepts(r.accepts, p)) {
    std::string allowed;
    for (const auto& a : split_cell(r.accepts)) allowed += (allowed.empty() ? "('" : ", '") + a + "'";
    return c.fail(DiagCode::kPrecisionUnsupported, {fld("precision", p), fld("owner", r.cls), fld("allowed", allowed + ")")});
  }
  bool hpu = id == PrecisionPluginId::kHpu;
  if ((hpu || id == PrecisionPluginId::kIpu) && !p.is_absent() && !accepts(r.accepts, p))
    return c.fail(hpu ? DiagCode::kHpuPrecision : DiagCode::kIpuPrecision,
                  {fld("precision", p), fld("owner", r.cls), fld("allowed", hpu ? "(16, 32, 'bf16')" : "(16, 32)")});
  return true;
}

}  // namespace

// PL 2.2.5 accelerators/xla.py XLAAccelerator.__init__: `if not _XLA_AVAILABLE: raise ModuleNotFoundError`.
bool accelerator_constructible(Resolution& c, AcceleratorId id) {
  if (id != AcceleratorId::kXla || c.in.hardware.has_package("torch_xla")) return true;
  return c.fail(DiagCode::kPackageMissing, {fld("component", row(id).cls), fld("package", "torch_xla")});
}

// LSFEnvironment.__init__ reads the hosts of LSB_DJOB_RANKFILE (LSFEnvironment._read_hosts); the file itself is not modelled.
// Lightning 2.2.5 SLURMEnvironment.__init__ reads SLURM_NTASKS and rejects --ntasks without --ntasks-per-node
// (_validate_srun_variables); MPIEnvironment needs mpi4py and XLAEnvironment torch_xla.
bool construct_cluster_env(Resolution& c, ClusterEnvId id) {
  if (c.release22()) {
    if (id == ClusterEnvId::kSlurm) {
      const std::string* n = c.env_var("SLURM_NTASKS");
      auto ntasks = n ? py_int_from_str(*n) : std::optional<std::int64_t>(1);
      if (!ntasks) return c.fail(DiagCode::kEnvInvalid, {fld("variable", "SLURM_NTASKS"), fld("value", *n)});
      if (*ntasks > 1 && !c.env_var("SLURM_NTASKS_PER_NODE"))
        return c.fail(DiagCode::kSlurmNtasksUnsupported, {fld("ntasks", std::to_string(*ntasks))});
    }
    for (auto [env, package] : {std::pair{ClusterEnvId::kMpi, "mpi4py"}, std::pair{ClusterEnvId::kXla, "torch_xla"}})
      if (id == env && !c.in.hardware.has_package(package))
        return c.fail(DiagCode::kPackageMissing, {fld("component", row(id).cls), fld("package", package)});
  }
  if (id != ClusterEnvId::kLsf) return true;
  // 2.2.5 LSFEnvironment.__init__ opens the rank file; the model has no files, so a named rank file is never readable.
  if (c.release22() && c.env_var("LSB_DJOB_RANKFILE") && !c.env_var("LSB_DJOB_RANKFILE")->empty())
    return c.fail(DiagCode::kEnvInvalid, {fld("variable", "LSB_DJOB_RANKFILE"), fld("value", *c.env_var("LSB_DJOB_RANKFILE"))});
  const std::string* f = c.env_var("LSB_DJOB_RANKFILE");
  if (!f) return c.fail(DiagCode::kEnvMissing, {fld("environment", "LSFEnvironment"), fld("variable", "LSB_DJOB_RANKFILE")});
  if (f->empty()) return c.fail(DiagCode::kEnvInvalid, {fld("variable", "LSB_DJOB_RANKFILE"), fld("value", "")});
  return true;
}

namespace {

// One instance: its nested instances first (arguments in name order), then its own constructor checks.
bool construct(Resolution& c, const PyValue& v) {
  if (!v.is_instance()) return true;
  for (const auto& [k, a] : v.inst->args)
    if (!construct(c, a)) return false;
  // A stub of a class that moved to an external package takes any argument and raises in its body (2.2.5 _graveyard).
  if (const MovedClassRow* moved = moved_class(v.inst->cls, c.pol)) {
    c.fire(RuleId::kInstanceMoved);
    return c.fail(DiagCode::kClassMoved, {fld("class", moved->cls), fld("package", moved->package),
                                          fld("module", moved->module), fld("url", moved->url)});
  }
  auto ci = c.class_of(*v.inst);
  if (!ci) return true;
  // Python binds the keyword arguments before the constructor body runs: the first one (in name order, as the
  // case writes them) the signature lacks is a TypeError (validate.instance-arguments).
  const char* takes = v.inst->args.empty() ? nullptr : constructor_args(v.inst->cls, c.pol);  // no arguments: nothing to bind
  if (takes) {
    for (const auto& [k, a] : v.inst->args) {
      if (takes_argument(takes, k)) continue;
      c.fire(RuleId::kInstanceArguments);
      std::string accepted;
      for (const auto& name : split_cell(takes)) accepted += (accepted.empty() ? "" : ", ") + name;
      return c.fail(DiagCode::kInstanceArgument,
                    {fld("class", v.inst->cls), fld("argument", k), fld("accepted", accepted.empty() ? "no arguments" : accepted)});
    }
  }
  if (ci->kind == ClassKind::kAccelerator) return accelerator_constructible(c, static_cast<AcceleratorId>(ci->id));
  // 2.2.5 plugins/io/xla_plugin.py XLACheckpointIO.__init__ needs torch_xla.
  if (c.release22() && std::string_view(v.inst->cls) == "XLACheckpointIO" && !c.in.hardware.has_package("torch_xla"))
    return c.fail(DiagCode::kPackageMissing, {fld("component", "XLACheckpointIO"), fld("package", "torch_xla")});
  if (ci->kind == ClassKind::kStrategy) return construct_strategy(c, static_cast<StrategyClass>(ci->id), v);
  if (ci->kind == ClassKind::kPrecisionPlugin) return construct_precision_plugin(c, static_cast<PrecisionPluginId>(ci->id), *v.inst);
  if (ci->kind == ClassKind::kClusterEnvironment) return construct_cluster_env(c, static_cast<ClusterEnvId>(ci->id));
  return true;
}

}  // namespace

// User code builds the instances of accelerator, strategy and plugins (in that order) before the Trainer.
bool construct_instances(Resolution& c) {
  const auto& f = c.in.flags;
  auto build = [&c](const PyValue& v) {
    if (!v.is_instance()) return true;
    c.fire(RuleId::kInstanceConstructors);
    return construct(c, v);
  };
  if (!build(f.accelerator) || !build(f.strategy)) return false;
  if (f.plugins.kind != PyValue::Kind::kList) return build(f.plugins);
  return std::all_of(f.plugins.list.begin(), f.plugins.list.end(), build);
}

bool validate_plugins(Resolution& c, FinalFlags& flags) {
  if (c.in.flags.sync_batchnorm.truthy()) flags.layer_sync = "NativeSyncBatchNorm";
  std::vector<std::string_view> kinds;
  kinds.reserve(flags.plugins.size());
  for (const auto& p : flags.plugins)
    if (!take_plugin(c, flags, p, kinds)) return false;
  if (!check_duplicates(c, kinds)) return false;
  if (flags.precision_plugin_flag && precision_twice(c))
    return precision_conflict(c, "plugins=[" + repr(*flags.precision_plugin_flag) + "]");
  return absorb_strategy_instance(c, flags);
}

}  // namespace accord::reference::detail
