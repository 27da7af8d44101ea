// select_strategy.cc: stage 2c: default strategy, fallbacks, Horovod, instantiation, component checks.
#include <algorithm>
#include <deque>

#include "../context.h"
#include "../normalize/devices.h"

namespace accord::reference::detail {

const PyValue& single_device_strategy(StrategyClass cls, std::string_view device) {
  struct Built { StrategyClass cls; std::string device; PyValue value; };
  thread_local std::deque<Built> built;  // cpu, cuda:N, hpu, xla:N: a short list, scanned without building a key
  for (const auto& b : built)
    if (b.cls == cls && b.device == device) return b.value;
  std::string d(device);
  built.push_back({cls, d, PyValue::instance(std::string(row(cls).cls), {{"device", PyValue::string(d)}})});
  return built.back().value;
}

namespace {

constexpr char kIpuStrategy[] = "ipu_strategy", kHpuParallel[] = "hpu_parallel", kTpuSpawn[] = "tpu_spawn",
               kHorovodName[] = "horovod", kDdpName[] = "ddp", kDdpSpawnName[] = "ddp_spawn";

// PL 1.6.5 accelerator_connector.py _choose_strategy, only when no strategy was given.
const PyValue& default_choice(Resolution& c, const FinalFlags& flags, const Selection& sel) {
  size_t n = sel.parallel_devices.size();
  auto pick = [&](RuleId r, const PyValue& v) -> const PyValue& { c.fire(r); return v; };
  if (sel.accelerator_flag_is(AcceleratorId::kIpu, c.pol)) return pick(RuleId::kDefaultIpu, str_value<kIpuStrategy>());
  if (sel.accelerator_flag_is(AcceleratorId::kHpu, c.pol))
    return n > 1 ? pick(RuleId::kDefaultHpuParallel, str_value<kHpuParallel>())
                 : pick(RuleId::kDefaultHpuSingle, single_device_strategy(StrategyClass::kHpuSingle, "hpu"));
  if (sel.accelerator_flag_is(AcceleratorId::kTpu, c.pol))
    return n > 1 ? pick(RuleId::kDefaultTpuSpawn, str_value<kTpuSpawn>())
                 : pick(RuleId::kDefaultTpuSingle, single_device_strategy(StrategyClass::kSingleTpu, n ? "xla:" + sel.parallel_devices[0] : "xla"));
  if (c.in.hardware.has_package("horovod") && (c.env_var("OMPI_COMM_WORLD_RANK") || c.env_var("HOROVOD_RANK")))
    return pick(RuleId::kDefaultHorovod, str_value<kHorovodName>());
  if (flags.num_nodes > 1) return pick(RuleId::kDefaultMultiNode, str_value<kDdpName>());
  if (n <= 1) {
    std::string_view dev = sel.accelerator_flag_is(AcceleratorId::kGpu, c.pol) && n ? std::string_view(sel.parallel_devices[0]) : "cpu";
    return pick(RuleId::kDefaultSingleDevice, single_device_strategy(StrategyClass::kSingleDevice, dev));
  }
  return pick(RuleId::kDefaultDdpSpawn, str_value<kDdpSpawnName>());
}

std::optional<StrategyClass> registered_class(const Input& c, const std::string& name) {
  auto id = strategy_by_name(name, c.pol);
  if (!id) return std::nullopt;
  return row(*id).cls;
}

// PL 1.6.5 _check_strategy_and_fallback (string flags only). `by_default`: the flag came from
// default_choice, so replacing it is not a fallback of the user's choice and spec does not warn (decision 4e/4f).
// `strategy`: the strategy flag as select_strategy completes it, local to the step: the final flag or the default
// choice, copied when a fallback renames it.
bool fallbacks(Resolution& c, const FinalFlags& flags, Selection& sel, FlagValue& strategy, bool by_default) {
  if (!strategy->is_str()) return true;
  if (std::string_view(strategy->str) == "ddp_cpu") {
    c.fire(RuleId::kFallbackDdpCpu);
    if (c.in.hardware.tpu) return c.fail(DiagCode::kDdpCpuOnTpu, {fld("accelerator", "'ddp_cpu'")});
    strategy.own().str = py_eq_int(sel.parsed_devices, 1) && flags.num_nodes > 1 ? "ddp" : "ddp_spawn";
    if (!sel.accelerator_is_instance && sel.accelerator == AcceleratorId::kGpu) {  // the flag is the string "gpu"
      c.note(DiagCode::kDdpCpuGpuIgnored);
      // 1.6.5 sets the flag to the string "cpu" and the accelerator to a new CPUAccelerator, so later
      // `flag == "cpu"` checks (the precision 16 -> bf16 warning, the AMP device) see the CPU.
      sel.accelerator = AcceleratorId::kCpu;
      sel.accelerator_is_instance = false;
    }
  }
  auto cls = registered_class(c, strategy->str);
  if (cls == StrategyClass::kDdpSpawn) {
    std::optional<ClusterEnvId> external;
    const SlurmVerdict* slurm = nullptr;
    if (detect_torchelastic(c)) {
      external = ClusterEnvId::kTorchElastic;
    } else if (detect_kubeflow(c)) {
      external = ClusterEnvId::kKubeflow;
    } else if (!(slurm = slurm_verdict(c, flags, sel))) {
      c.fire(RuleId::kFallbackCluster);  // the SLURM check itself failed (unreadable SLURM_NTASKS)
      return false;
    } else if (slurm->managing) {
      external = ClusterEnvId::kSlurm;
    }
    if (external) {
      c.fire(RuleId::kFallbackCluster);
      if (c.pol.fallbacks_warn && !by_default)
        c.note(DiagCode::kStrategyClusterFallback, {fld("strategy", *strategy), fld("environment", row(*external).cls)});
      strategy.own().str = "ddp";
      cls = registered_class(c, strategy->str);
    }
  }
  if (c.pol.gpu_strategy_off_gpu == GpuStrategyOffGpu::kFallbackToDdpOnCpu && cls && row(*cls).needs_gpu &&
      sel.accelerator_flag_is(AcceleratorId::kCpu, c.pol)) {
    c.fire(RuleId::kFallbackCpuDdp);
    c.note(DiagCode::kStrategyCpuFallback, {fld("strategy", *strategy)});
    strategy.own().str = "ddp";
  }
  return true;
}

bool is_class(const PyValue& v, StrategyClass cls) { return v.is_instance() && std::string_view(v.inst->cls) == row(cls).cls; }

// PL 1.6.5 accelerator_connector.py _handle_horovod.
bool horovod(Resolution& c, const FinalFlags& flags, Selection& sel, const PyValue& strategy) {
  if (!py_eq_str(strategy, "horovod") && !is_class(strategy, StrategyClass::kHorovod)) return true;
  c.fire(RuleId::kHorovod);
  if (flags.num_nodes > 1) return c.fail(DiagCode::kHorovodNumNodes, {fld("num_nodes", std::to_string(flags.num_nodes))});
  if (!c.in.hardware.has_package("horovod"))
    return c.fail(DiagCode::kPackageMissing, {fld("component", "HorovodStrategy"), fld("package", "horovod"), fld("strategy", strategy)});
  long long local = 1;
  for (const char* k : {"OMPI_COMM_WORLD_LOCAL_SIZE", "HOROVOD_LOCAL_SIZE"}) {
    if (auto* v = c.env_var(k)) {
      auto n = py_int_from_str(*v);
      if (!n) return c.fail(DiagCode::kEnvInvalid, {fld("variable", k), fld("value", *v)});
      if (*n > kMaxDevices)  // the model's device bound (SPEC: device counts above 1,000,000)
        return c.fail(DiagCode::kValueOutOfRange, {fld("flag", k), fld("value", *v), fld("expected", kMaxDevicesExpected)});
      local = std::max<long long>(*n, 0);  // `[device] * hvd.local_size()`: a negative size gives no device
      break;
    }
  }
  sel.parallel_devices.clear();
  for (long long k = 0; k < local; ++k)
    sel.parallel_devices.push_back(sel.accelerator == AcceleratorId::kGpu ? "cuda:" + std::to_string(k) : "cpu");
  return true;
}

/// The `params` cell of each registered strategy (`key=literal;...`), split once and put in key order, as an
/// instance's arguments are (a plan's params are in key order, which is the order its JSON object writes them).
const std::vector<std::pair<std::string, std::string>>& registered_params(StrategyId id) {
  static const auto split = [] {
    std::vector<std::vector<std::pair<std::string, std::string>>> all(strategies().size());
    for (const auto& r : strategies()) {  // by id, not by place: the rows' order is the registry's, not the index's
      auto& params = all[static_cast<size_t>(r.id)];
      for (const auto& kv : split_cell(r.params, ';')) {
        auto eq = kv.find('=');
        params.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
      }
      std::sort(params.begin(), params.end());  // a key appears once in a cell (Select.RegisteredStrategyParamsAreInKeyOrder)
    }
    return all;
  }();
  return split[static_cast<size_t>(id)];
}

}  // namespace

const std::string& registered_names(const Policy& p, bool interactive_only) {
  return once_per_thread(std::pair(&p, interactive_only), [&p, interactive_only] {
    std::vector<std::string_view> names;
    for (const auto& r : strategies())
      if (in_profile(r, p) && (!interactive_only || row(row(r.cls).launcher).interactive == InteractiveRule::kAlways))
        names.push_back(r.name);
    std::sort(names.begin(), names.end());
    std::string out;
    for (auto n : names) out += (out.empty() ? "" : ", ") + std::string(n);
    return out;
  });
}

// PL 1.6.5 accelerator_connector.py _init_strategy + the strategy constructors (1.6.5 StrategyRegistry.get); PL 2.2.5
// _init_strategy likewise (its registry names were checked at intake).
bool instantiate_strategy(Resolution& c, Selection& sel, const PyValue& f) {
  if (f.is_str()) {
    c.fire(RuleId::kRegistry);
    auto id = strategy_by_name(f.str, c.pol);
    if (!id) return c.fail(DiagCode::kStrategyUnknown, {fld("strategy", f), fld("allowed", registered_names(c.pol))});
    sel.strategy_cls = row(*id).cls;
    sel.strategy_name = row(*id).name;
    sel.strategy_params = registered_params(*id);
  } else {
    auto ci = f.is_instance() ? c.class_of(*f.inst) : std::nullopt;
    if (!ci || ci->kind != ClassKind::kStrategy) {
      c.fire(RuleId::kInvalidType);
      return c.fail(DiagCode::kStrategyInvalidType, {fld("strategy", f)});
    }
    sel.strategy_cls = static_cast<StrategyClass>(ci->id);
    sel.strategy_name = row(*sel.strategy_cls).name;
    sel.strategy_is_instance = true;
    static constexpr std::string_view kComponents[] = {"accelerator", "precision_plugin", "checkpoint_io", "cluster_environment",
                                                       "parallel_devices"};
    for (const auto& [k, v] : f.inst->args)  // Fabric's strategies take their precision plugin as `precision`
      if (std::find(std::begin(kComponents), std::end(kComponents), k) == std::end(kComponents) && std::string_view(k) != c.precision_arg())
        sel.strategy_params.emplace_back(k, json_literal(v));
  }
  const auto& cls = row(*sel.strategy_cls);
  c.fire(RuleId::kConstructor);
  // Only the single-device classes take their root device from `device` (column Root); for the DDP family
  // `device` is one more argument (PL 1.6.5 strategies/*.py root_device). A required `device` that is missing is
  // Python's TypeError, before the constructor's body checks its package. `device=None` names no device the plan
  // can show (the XLA classes take the default device, torch.device(None) rejects it): no root device, no error.
  if (cls.root == RootDevice::kArg) {
    bool none_given = false;
    if (f.is_instance()) {
      const PyValue& device = f.inst->arg("device");
      if (device.is_absent()) sel.root_device = cls.device_default;
      else if (device.is_none()) none_given = true;
      else sel.root_device = py_str(device);
    } else {  // a registered name: its `device` parameter, a JSON string literal (strategies.def)
      for (const auto& [k, v] : sel.strategy_params)
        if (std::string_view(k) == "device") sel.root_device = v.substr(1, v.size() - 2);
    }
    if (sel.root_device.empty() && !none_given && cls.device_default.empty())
      return c.fail(DiagCode::kStrategyNeedsDevice, {fld("strategy", f), fld("strategy_class", cls.cls)});
  }
  if (!cls.package.empty() && !c.in.hardware.has_package(cls.package))
    return c.fail(DiagCode::kPackageMissing, {fld("component", package_component(c, cls)), fld("package", cls.package), fld("strategy", f)});
  bool hw_ok = cls.hardware == AcceleratorId::kNone || (cls.hardware == AcceleratorId::kIpu ? c.in.hardware.ipu : c.in.hardware.hpu);
  if (!hw_ok)
    return c.fail(DiagCode::kStrategyNeedsHardware, {fld("strategy", cls.cls), fld("hardware", cls.hardware == AcceleratorId::kIpu ? "IPU" : "HPU")});
  return true;
}

namespace {

// The classes of the group in the profile, as Lightning's message lists them: the single-device class first, then the
// parallel ones in table order, "a `A` or `B`" (1.6.5, the 2.2.5 Trainer) or "a `A`, `B`, or `C`" (2.2.5 Fabric). A
// legacy subclass that shares its parent's strategy_name (2.2.5's SingleTPUStrategy) is not listed.
std::string group_classes(StrategyGroup g, const Policy& p) {
  std::vector<std::string_view> names, classes;
  for (bool parallel : {false, true})
    for (const auto& r : strategy_classes()) {
      if (r.group != g || r.parallel != parallel || !in_profile(r, p) || std::find(names.begin(), names.end(), r.name) != names.end())
        continue;
      names.push_back(r.name);
      classes.push_back(r.cls);
    }
  std::string out = "a";
  for (size_t k = 0; k < classes.size(); ++k) {
    bool last = k + 1 == classes.size() && k > 0;
    out += std::string(k == 0 ? " `" : (last ? (classes.size() > 2 ? ", or `" : " or `") : ", `")) + std::string(classes[k]) + "`";
  }
  return out;
}

// spec: the checks each strategy row owns (decision 1, 4b, 4g, 6).
bool spec_checks(Resolution& c, const FinalFlags& flags, const Selection& sel) {
  const auto& cls = row(*sel.strategy_cls);
  // The strategy as the user gave it, or the registered name chosen for them: built only for a message.
  auto user = [&] { return c.in.flags.strategy.is_none() ? PyValue::string(std::string(sel.strategy_name)) : c.in.flags.strategy; };
  if (c.pol.gpu_strategy_off_gpu == GpuStrategyOffGpu::kError && cls.needs_gpu && sel.accelerator != AcceleratorId::kGpu) {
    c.fire(RuleId::kStrategyNeedsGpu);
    return c.fail(DiagCode::kStrategyNeedsGpu, {fld("strategy", user()), fld("accelerator", sel.accelerator_flag_repr())});
  }
  StrategyGroup need = row(sel.accelerator).exclusive;
  if (c.pol.exclusive_strategy_check == ExclusiveStrategyCheck::kAtStrategySelection && need != StrategyGroup::kAny &&
      cls.group != need) {
    c.fire(RuleId::kExclusiveEarly);
    return c.fail(DiagCode::kAcceleratorStrategyMismatch, {fld("accelerator_class", row(sel.accelerator).cls), fld("allowed", group_allowed(need, c.pol)),
                                                           fld("strategy_class", cls.cls), fld("accelerator", sel.accelerator_flag_repr()),
                                                           fld("strategy", user())});
  }
  bool sharded = cls.amp == AmpGroup::kSharded || cls.amp == AmpGroup::kFullySharded;
  if (c.pol.sharded_apex_check == ShardedApexCheck::kAtStrategyFor16 && sharded && flags.amp_type == "apex" &&
      py_eq_int(*flags.precision, 16)) {
    c.fire(RuleId::kStrategyAmpBackends);
    return c.fail(DiagCode::kShardedApex, {fld("strategy", user()), fld("precision", c.in.flags.precision), fld("amp_backend", c.in.flags.amp_backend),
                                           fld("owner", cls.cls), fld("allowed", "'native'")});
  }
  return true;
}

}  // namespace

bool select_strategy(Resolution& c, const FinalFlags& flags, Selection& sel) {
  // The selection records the strategy the completed flag names (strategy_cls, strategy_name, strategy_params, root_device).
  bool by_default = flags.strategy_flag->is_none();
  FlagValue strategy;  // default_choice's value outlives the step
  strategy.borrow(by_default ? default_choice(c, flags, sel) : *flags.strategy_flag);
  return fallbacks(c, flags, sel, strategy, by_default) && horovod(c, flags, sel, *strategy) &&
         instantiate_strategy(c, sel, *strategy) && spec_checks(c, flags, sel);
}

const std::string& group_allowed(StrategyGroup g, const Policy& p) {
  return once_per_thread(std::pair(&p, g), [g, &p] { return group_classes(g, p); });
}

}  // namespace accord::reference::detail
