// select_strategy.cc: stage 2c: default strategy, fallbacks, Horovod, instantiation, component checks.
#include <algorithm>

#include "../context.h"

namespace accord::reference::detail {
namespace {

/// `SingleDeviceStrategy(device=...)` and its kin. The few (class, device) pairs are built once per thread and
/// shared: copying the value only bumps the instance's reference count.
PyValue single(StrategyClass cls, std::string_view device) {
  struct Built { StrategyClass cls; std::string device; PyValue value; };
  thread_local std::vector<Built> built;  // cpu, cuda:N, hpu, xla:N: a short list, scanned without building a key
  for (const auto& b : built)
    if (b.cls == cls && b.device == device) return b.value;
  std::string d(device);
  built.push_back({cls, d, PyValue::instance(row(cls).cls, {{"device", PyValue::string(d)}})});
  return built.back().value;
}

// PL 1.6.5 accelerator_connector.py _choose_strategy, only when no strategy was given.
void default_choice(Ctx& c) {
  size_t n = c.parallel_devices.size();
  auto pick = [&](RuleId r, PyValue v) { c.fire(r); c.strategy_flag = std::move(v); };
  if (c.accel_is(AcceleratorId::kIpu)) return pick(RuleId::kDefaultIpu, PyValue::string("ipu_strategy"));
  if (c.accel_is(AcceleratorId::kHpu))
    return n > 1 ? pick(RuleId::kDefaultHpuParallel, PyValue::string("hpu_parallel"))
                 : pick(RuleId::kDefaultHpuSingle, single(StrategyClass::kHpuSingle, "hpu"));
  if (c.accel_is(AcceleratorId::kTpu))
    return n > 1 ? pick(RuleId::kDefaultTpuSpawn, PyValue::string("tpu_spawn"))
                 : pick(RuleId::kDefaultTpuSingle, single(StrategyClass::kSingleTpu, n ? "xla:" + c.parallel_devices[0] : "xla"));
  if (c.in.hardware.has_package("horovod") && (c.env_var("OMPI_COMM_WORLD_RANK") || c.env_var("HOROVOD_RANK")))
    return pick(RuleId::kDefaultHorovod, PyValue::string("horovod"));
  if (c.num_nodes > 1) return pick(RuleId::kDefaultMultiNode, PyValue::string("ddp"));
  if (n <= 1) {
    std::string dev = c.accel_is(AcceleratorId::kGpu) && n ? c.parallel_devices[0] : "cpu";
    return pick(RuleId::kDefaultSingleDevice, single(StrategyClass::kSingleDevice, dev));
  }
  pick(RuleId::kDefaultDdpSpawn, PyValue::string("ddp_spawn"));
}

std::optional<StrategyClass> registered_class(const std::string& name) {
  auto id = strategy_by_name(name);
  if (!id) return std::nullopt;
  return row(*id).cls;
}

// PL 1.6.5 _check_strategy_and_fallback (string flags only). `by_default`: the flag came from
// default_choice, so replacing it is not a fallback of the user's choice and spec does not warn (decision 4e/4f).
bool fallbacks(Ctx& c, bool by_default) {
  if (!c.strategy_flag.is_str()) return true;
  std::string& s = c.strategy_flag.str;
  if (s == "ddp_cpu") {
    c.fire(RuleId::kFallbackDdpCpu);
    if (c.in.hardware.tpu) return c.fail(DiagCode::kDdpCpuOnTpu, {fld("accelerator", "'ddp_cpu'")});
    s = py_eq_int(c.parsed_devices, 1) && c.num_nodes > 1 ? "ddp" : "ddp_spawn";
    if (c.accel.is_name(AcceleratorId::kGpu)) {
      c.note(DiagCode::kDdpCpuGpuIgnored);
      // 1.6.5 sets the flag to the string "cpu" and the accelerator to a new CPUAccelerator, so later
      // `flag == "cpu"` checks (the precision 16 -> bf16 warning, the AMP device) see the CPU.
      c.accel = {AcceleratorFlag::Kind::kName, AcceleratorId::kCpu};
      c.accelerator = AcceleratorId::kCpu;
      c.accelerator_is_instance = false;
    }
  }
  auto cls = registered_class(s);
  if (cls == StrategyClass::kDdpSpawn) {
    std::optional<ClusterEnvId> external;
    const SlurmVerdict* slurm = nullptr;
    if (detect_torchelastic(c)) {
      external = ClusterEnvId::kTorchElastic;
    } else if (detect_kubeflow(c)) {
      external = ClusterEnvId::kKubeflow;
    } else if (!(slurm = slurm_verdict(c))) {
      c.fire(RuleId::kFallbackCluster);  // the SLURM check itself failed (unreadable SLURM_NTASKS)
      return false;
    } else if (slurm->managing) {
      external = ClusterEnvId::kSlurm;
    }
    if (external) {
      c.fire(RuleId::kFallbackCluster);
      if (c.pol.fallbacks_warn && !by_default)
        c.note(DiagCode::kStrategyClusterFallback, {fld("strategy", c.strategy_flag), fld("environment", row(*external).cls)});
      s = "ddp";
      cls = registered_class(s);
    }
  }
  if (c.pol.gpu_strategy_off_gpu == GpuStrategyOffGpu::kFallbackToDdpOnCpu && cls && row(*cls).needs_gpu && c.accel_is(AcceleratorId::kCpu)) {
    c.fire(RuleId::kFallbackCpuDdp);
    c.note(DiagCode::kStrategyCpuFallback, {fld("strategy", c.strategy_flag)});
    s = "ddp";
  }
  return true;
}

bool is_class(const PyValue& v, StrategyClass cls) { return v.is_instance() && v.inst->cls == row(cls).cls; }

// PL 1.6.5 accelerator_connector.py _handle_horovod.
bool horovod(Ctx& c) {
  if (!py_eq_str(c.strategy_flag, "horovod") && !is_class(c.strategy_flag, StrategyClass::kHorovod)) return true;
  c.fire(RuleId::kHorovod);
  if (c.num_nodes > 1) return c.fail(DiagCode::kHorovodNumNodes, {fld("num_nodes", std::to_string(c.num_nodes))});
  if (!c.in.hardware.has_package("horovod"))
    return c.fail(DiagCode::kPackageMissing, {fld("component", "HorovodStrategy"), fld("package", "horovod"), fld("strategy", c.strategy_flag)});
  long long local = 1;
  for (const char* k : {"OMPI_COMM_WORLD_LOCAL_SIZE", "HOROVOD_LOCAL_SIZE"}) {
    if (auto* v = c.env_var(k)) {
      auto n = py_int_from_str(*v);
      if (!n || *n < 0 || *n > 1000000) return c.fail(DiagCode::kEnvInvalid, {fld("variable", k), fld("value", *v)});
      local = *n;
      break;
    }
  }
  c.parallel_devices.clear();
  for (long long k = 0; k < local; ++k)
    c.parallel_devices.push_back(c.accelerator == AcceleratorId::kGpu ? "cuda:" + std::to_string(k) : "cpu");
  return true;
}

/// The `params` cell of each registered strategy (`key=literal;...`), split once.
const std::vector<std::pair<std::string, std::string>>& registered_params(StrategyId id) {
  static const auto split = [] {
    std::vector<std::vector<std::pair<std::string, std::string>>> all;
    for (const auto& r : strategies()) {
      all.emplace_back();
      for (const auto& kv : split_cell(r.params, ';')) {
        auto eq = kv.find('=');
        all.back().emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
      }
    }
    return all;
  }();
  return split[static_cast<size_t>(id)];
}

/// "bagua, ddp, ...": every registered name, sorted (the `allowed` field of strategy-unknown).
const std::string& registered_names() {
  static const std::string all = [] {
    std::vector<std::string> names;
    for (const auto& r : strategies()) names.push_back(r.name);
    std::sort(names.begin(), names.end());
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
  }();
  return all;
}

// PL 1.6.5 accelerator_connector.py _init_strategy + the strategy constructors (1.6.5 StrategyRegistry.get).
bool instantiate(Ctx& c) {
  const PyValue& f = c.strategy_flag;
  if (f.is_str()) {
    c.fire(RuleId::kRegistry);
    auto id = strategy_by_name(f.str);
    if (!id) return c.fail(DiagCode::kStrategyUnknown, {fld("strategy", f), fld("allowed", registered_names())});
    c.strategy_cls = row(*id).cls;
    c.strategy_name = row(*id).name;
    c.strategy_params = registered_params(*id);
  } else {
    auto ci = f.is_instance() ? f.inst->known : std::nullopt;
    if (!ci || ci->kind != ClassKind::kStrategy) {
      c.fire(RuleId::kInvalidType);
      return c.fail(DiagCode::kStrategyInvalidType, {fld("strategy", f)});
    }
    c.strategy_cls = static_cast<StrategyClass>(ci->id);
    c.strategy_name = row(*c.strategy_cls).name;
    c.strategy_is_instance = true;
    static constexpr std::string_view kComponents[] = {"accelerator", "precision_plugin", "checkpoint_io", "cluster_environment",
                                                       "parallel_devices"};
    for (const auto& [k, v] : f.inst->args)
      if (std::find(std::begin(kComponents), std::end(kComponents), k) == std::end(kComponents))
        c.strategy_params.emplace_back(k, json_literal(v));
  }
  const auto& cls = row(*c.strategy_cls);
  c.fire(RuleId::kConstructor);
  if (*cls.package && !c.in.hardware.has_package(cls.package))
    return c.fail(DiagCode::kPackageMissing, {fld("component", cls.cls), fld("package", cls.package), fld("strategy", f)});
  bool hw_ok = cls.hardware == AcceleratorId::kNone || (cls.hardware == AcceleratorId::kIpu ? c.in.hardware.ipu : c.in.hardware.hpu);
  if (!hw_ok)
    return c.fail(DiagCode::kStrategyNeedsHardware, {fld("strategy", cls.cls), fld("hardware", cls.hardware == AcceleratorId::kIpu ? "IPU" : "HPU")});
  // Only the single-device classes take their root device from `device` (column Root); for the DDP family
  // `device` is one more argument (PL 1.6.5 strategies/*.py root_device).
  if (cls.root != RootDevice::kArg) return true;
  for (const auto& [k, v] : c.strategy_params)
    if (k == "device") c.root_device = v.substr(1, v.size() - 2);
  if (f.is_instance()) {
    const PyValue& device = f.inst->arg("device");
    if (!device.is_none()) c.root_device = py_str(device);
    if (device.is_absent()) c.root_device = cls.device_default;
  }
  if (c.root_device.empty() && !*cls.device_default)
    return c.fail(DiagCode::kStrategyNeedsDevice, {fld("strategy", f), fld("strategy_class", cls.cls)});
  return true;
}

std::string group_classes(StrategyGroup g) {
  std::string out;
  for (const auto& r : strategy_classes())
    if (r.group == g) out += std::string(out.empty() ? "a `" : "` or `") + r.cls;
  return out + "`";
}

// spec: the checks each strategy row owns (decision 1, 4b, 4g, 6).
bool spec_checks(Ctx& c) {
  const auto& cls = row(*c.strategy_cls);
  // The strategy as the user gave it, or the registered name chosen for them: built only for a message.
  auto user = [&] { return c.in.flags.strategy.is_none() ? PyValue::string(std::string(c.strategy_name)) : c.in.flags.strategy; };
  if (c.pol.gpu_strategy_off_gpu == GpuStrategyOffGpu::kError && cls.needs_gpu && c.accelerator != AcceleratorId::kGpu) {
    c.fire(RuleId::kStrategyNeedsGpu);
    return c.fail(DiagCode::kStrategyNeedsGpu, {fld("strategy", user()), fld("accelerator", c.accel.repr())});
  }
  StrategyGroup need = row(c.accelerator).exclusive;
  if (c.pol.exclusive_strategy_check == ExclusiveStrategyCheck::kAtStrategySelection && need != StrategyGroup::kAny && cls.group != need) {
    c.fire(RuleId::kExclusiveEarly);
    return c.fail(DiagCode::kAcceleratorStrategyMismatch, {fld("accelerator_class", row(c.accelerator).cls), fld("allowed", group_classes(need)),
                                                           fld("strategy_class", cls.cls), fld("accelerator", c.accel.repr()), fld("strategy", user())});
  }
  bool sharded = cls.amp == AmpGroup::kSharded || cls.amp == AmpGroup::kFullySharded;
  if (c.pol.sharded_apex_check == ShardedApexCheck::kAtStrategyFor16 && sharded && c.amp_type == "apex" && py_eq_int(c.precision, 16)) {
    c.fire(RuleId::kStrategyAmpBackends);
    return c.fail(DiagCode::kShardedApex, {fld("strategy", user()), fld("precision", c.in.flags.precision), fld("amp_backend", c.in.flags.amp_backend),
                                           fld("owner", cls.cls), fld("allowed", "'native'")});
  }
  return true;
}

}  // namespace

bool select_strategy(Ctx& c) {
  bool by_default = c.strategy_flag.is_none();
  if (by_default) default_choice(c);
  return fallbacks(c, by_default) && horovod(c) && instantiate(c) && spec_checks(c);
}

std::string group_allowed(StrategyGroup g) { return group_classes(g); }

}  // namespace accord::reference::detail
