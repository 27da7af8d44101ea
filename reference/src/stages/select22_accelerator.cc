// select22_accelerator.cc: stage 2 of the Lightning 2.2.5 connector, first half: the accelerator (auto, the gpu
// alias, the registry, availability), the device flags, the devices, and the cluster environment.
#include <array>

#include "../context.h"
#include "../normalize/devices.h"

namespace accord::reference::detail {
namespace {

bool available(const HardwareFacts& h, AcceleratorId a) {
  switch (a) {
    case AcceleratorId::kCpu: return true;
    case AcceleratorId::kCuda: return h.cuda_devices > 0;
    case AcceleratorId::kMps: return h.mps;
    case AcceleratorId::kXla: return h.tpu;
    default: return false;  // the 1.6 rows are not in this profile
  }
}

struct AutoRule { RuleId id; AcceleratorId then; };
// PL 2.2.5 _choose_auto_accelerator: TPU, MPS, CUDA, CPU (IPU and HPU live in external packages, absent here).
constexpr std::array<AutoRule, 4> kAutoRules = {{{RuleId::kAutoTpu, AcceleratorId::kXla},
                                                 {RuleId::kAutoMps, AcceleratorId::kMps},
                                                 {RuleId::kAutoGpu, AcceleratorId::kCuda},
                                                 {RuleId::kAutoCpu, AcceleratorId::kCpu}}};

/// "['cpu', 'cuda']": the registry names whose accelerator is available (in registry order).
std::string available_names(const Resolution& c) {
  std::string names;
  for (const auto& r : accelerators())
    if (in_profile(r, c.pol) && available(c.in.hardware, r.id)) names.append(names.empty() ? "'" : ", '").append(r.name).append("'");
  return "[" + names + "]";
}

/// The flag as Lightning prints it in the devices message: the string, or an instance's class name.
std::string flag_name(const Selection& sel) {
  return std::string(sel.accelerator_is_instance ? row(sel.accelerator).cls : row(sel.accelerator).name);
}

// PL 2.2.5 __init__ step 2: `auto` and `gpu` resolved (a strategy instance's unregistered accelerator string fails here).
bool choose(Resolution& c, const FinalFlags& flags, Selection& sel) {
  const AcceleratorFlag& a = flags.accelerator_flag;
  sel.accelerator = a.id;
  sel.accelerator_is_instance = a.kind == AcceleratorFlag::Kind::kInstance;
  if (a.kind == AcceleratorFlag::Kind::kAuto) {
    for (const auto& r : kAutoRules) {
      if (!available(c.in.hardware, r.then)) continue;
      c.fire(r.id);
      sel.accelerator = r.then;
      break;
    }
  } else if (a.kind == AcceleratorFlag::Kind::kText && a.text == "gpu") {
    c.fire(RuleId::kGpuAlias);  // _choose_gpu_accelerator_backend
    if (c.in.hardware.mps) sel.accelerator = AcceleratorId::kMps;
    else if (c.in.hardware.cuda_devices > 0) sel.accelerator = AcceleratorId::kCuda;
    else return c.fail(DiagCode::kAcceleratorUnavailable, {fld("accelerator_class", "`MPSAccelerator` or `CUDAAccelerator`"),
                                                           fld("available", available_names(c)), fld("accelerator", "'gpu'")});
  } else if (a.kind == AcceleratorFlag::Kind::kText) {
    // A strategy instance's accelerator string, unchecked until the registry lookup.
    c.fire(RuleId::kAcceleratorUnknown);
    return c.fail(DiagCode::kAcceleratorUnknown, {fld("accelerator", PyValue::string(a.text)), fld("allowed", accelerator_names_with_auto(c.pol))});
  }
  return true;
}

/// The accelerator flag as _check_device_config_and_set_final_flags prints it: resolved (the Trainer), or as given
/// (Fabric: 'auto', 'gpu', a name, an instance's class).
std::string device_config_name(const FinalFlags& flags, const Selection& sel) {
  if (sel.accelerator != AcceleratorId::kNone) return flag_name(sel);
  const AcceleratorFlag& a = flags.accelerator_flag;
  switch (a.kind) {
    case AcceleratorFlag::Kind::kText: return a.text;
    case AcceleratorFlag::Kind::kName: return std::string(row(a.id).name);
    case AcceleratorFlag::Kind::kInstance: return std::string(row(a.id).cls);
    default: return "auto";
  }
}

// PL 2.2.5 _set_devices_flag_if_auto_passed, parse_devices and get_parallel_devices of each accelerator.
bool devices(Resolution& c, const FinalFlags& flags, Selection& sel) {
  const auto& acc = row(sel.accelerator);
  std::optional<PyValue> counted;
  const PyValue* d = &*flags.devices_flag;
  if (py_eq_str(*d, "auto")) {
    int n = acc.auto_count < 0 ? c.in.hardware.cuda_devices : acc.auto_count;
    if (acc.parser == DeviceParser::kXla) n = c.in.hardware.tpu_cores;  // XLAAccelerator.auto_device_count
    if (c.in.interactive && sel.accelerator == AcceleratorId::kCuda && n > 1) {
      c.fire(RuleId::kDevicesAutoInteractive);
      c.note(DiagCode::kInteractiveSingleGpu, {fld("count", std::to_string(n))});
      n = 1;
    } else {
      c.fire(RuleId::kDevicesAutoCount);
    }
    d = &counted.emplace(PyValue::integer(n));
  }
  // The parser's result is built in place (returned straight from the lambda), not moved into a local.
  ParsedDevices p = [&]() -> ParsedDevices {
    if (acc.parser == DeviceParser::kGpu || acc.parser == DeviceParser::kMps) {  // _parse_gpu_ids starts with _check_data_type
      c.fire(acc.parser == DeviceParser::kGpu ? RuleId::kParseGpu : RuleId::kParseMps);
      if (auto error = check_device_type22(*d, "devices")) {
        ParsedDevices r;
        r.error = std::move(error);
        return r;
      }
    }
    DeviceRoom room = device_room(sel);
    switch (acc.parser) {
      case DeviceParser::kCpu: c.fire(RuleId::kParseCpu); return parse_cpu(*d, "devices", std::move(room));
      case DeviceParser::kGpu: return parse_gpu(*d, "devices", {c.in.hardware.cuda_devices, detect_torchelastic(c)}, std::move(room));
      case DeviceParser::kMps: {
        ParsedDevices r = parse_gpu(*d, "devices", {c.in.hardware.mps ? 1 : 0, detect_torchelastic(c)}, std::move(room));
        for (size_t k = 0; k < r.parallel.size(); ++k) r.parallel[k] = "mps:" + std::to_string(k);  // positions, not ids
        return r;
      }
      case DeviceParser::kXla: c.fire(RuleId::kParseXla); return parse_xla(*d, "devices", c.in.hardware.tpu_cores, std::move(room));
      default: return {};  // the 1.6 parsers belong to 1.6 accelerators, not in this profile
    }
  }();
  if (p.error) return c.fail(p.error->code, std::move(p.error->fields));
  if (p.no_gpus && flags.strategy_parallel_devices.empty()) {
    c.fire(RuleId::kGpuDevicesNone);
    // CUDAAccelerator.get_parallel_devices iterates None (TypeError); MPSAccelerator's parses it again (_check_data_type).
    if (acc.parser == DeviceParser::kMps) return c.fail(check_device_type22(PyValue::none(), "devices")->code, {fld("flag", "devices"), fld("value", *d)});
    return c.fail(DiagCode::kGpuDevicesNone, {fld("flag", "devices"), fld("value", *d)});
  }
  adopt_devices(c, flags, acc, std::move(p), sel);
  return true;
}

bool has(const Input& c, const char* k) { return c.env_var(k) != nullptr; }

// PL 2.2.5 fabric/plugins/environments/slurm.py detect: SLURM_NTASKS set and the job name not bash/interactive.
bool detect_slurm(const Input& c) {
  const std::string* job = c.env_var("SLURM_JOB_NAME");
  return has(c, "SLURM_NTASKS") && !(job && (*job == "bash" || *job == "interactive"));
}
// MPIEnvironment.detect: mpi4py installed and an MPI world of more than one process (the world size Open MPI exports:
// the MPI row's world cell in tables/cluster_envs.def, the variable its world_size() reads).
bool detect_mpi(const Input& c) {
  const std::string* n = c.env_var(row(ClusterEnvId::kMpi).world);
  return c.in.hardware.has_package("mpi4py") && n && py_int_from_str(*n).value_or(0) > 1;
}

struct DetectRule { RuleId id; bool (*when)(const Input&); ClusterEnvId then; };
// PL 2.2.5 _choose_and_init_cluster_environment: TorchElastic first (it can run inside SLURM), then SLURM, LSF, MPI.
// Kubeflow is not detected since 2.1.0 (#18137).
constexpr std::array<DetectRule, 4> kDetectRules = {{{RuleId::kEnvTorchElastic, detect_torchelastic, ClusterEnvId::kTorchElastic},
                                                     {RuleId::kEnvSlurmDetect, detect_slurm, ClusterEnvId::kSlurm},
                                                     {RuleId::kEnvLsf, detect_lsf, ClusterEnvId::kLsf},
                                                     {RuleId::kEnvMpi, detect_mpi, ClusterEnvId::kMpi}}};

}  // namespace

bool select22_accelerator_flag(Resolution& c, const FinalFlags& flags, Selection& sel) { return choose(c, flags, sel); }

// PL 2.2.5 _check_device_config_and_set_final_flags.
bool check22_device_config(Resolution& c, const FinalFlags& flags, const Selection& sel) {
  // `not isinstance(num_nodes, int) or num_nodes < 1` (a bool is an int); the message prints str(num_nodes). Fabric's
  // num_nodes is int() of the argument, always checked.
  const PyValue& n = c.in.flags.num_nodes;
  if (!n.is_absent()) {
    c.fire(RuleId::kNumNodesPositive);
    bool big = n.kind == PyValue::Kind::kBigInt;
    bool positive = (n.is_int_like() && n.as_int() >= 1) || (big && n.str[0] != '-');
    if (!positive) return c.fail(DiagCode::kNumNodesInvalid, {fld("num_nodes", py_str(n))});
    if (big || n.as_int() >= (1LL << 31))  // beyond what the model materialises, as for lightning-1.6
      return c.fail(DiagCode::kValueOutOfRange, {fld("flag", "num_nodes"), fld("value", repr(n)), fld("expected", "num_nodes < 2**31")});
  } else if (c.fabric()) {
    c.fire(RuleId::kNumNodesPositive);
  }
  const PyValue& d = *flags.devices_flag;
  if (py_eq(d, PyValue::make_list({})) || py_eq_int(d, 0) || py_eq_str(d, "0")) {
    c.fire(RuleId::kDevicesZero);
    return c.fail(DiagCode::kDevicesZero, {fld("devices", d), fld("accelerator", device_config_name(flags, sel))});
  }
  return true;
}

bool select22_accelerator(Resolution& c, const FinalFlags& flags, Selection& sel) {
  // AcceleratorRegistry.get builds the accelerator: XLAAccelerator.__init__ needs torch_xla.
  if (!sel.accelerator_is_instance && !accelerator_constructible(c, sel.accelerator)) return false;
  c.fire(RuleId::kAcceleratorAvailable);
  if (!available(c.in.hardware, sel.accelerator))
    return c.fail(DiagCode::kAcceleratorUnavailable,
                  {fld("accelerator_class", row(sel.accelerator).cls), fld("available", available_names(c)),
                   fld("accelerator", sel.accelerator_is_instance ? std::string(row(sel.accelerator).cls) + "()"
                                                                  : "'" + std::string(row(sel.accelerator).name) + "'")});
  return devices(c, flags, sel);
}

bool select22_cluster_env(Resolution& c, const FinalFlags& flags, Selection& sel) {
  if (auto id = instance_row(c, flags.cluster_env_flag, ClassKind::kClusterEnvironment)) {
    c.fire(RuleId::kEnvExplicit);
    sel.cluster_env = static_cast<ClusterEnvId>(*id);
    return true;
  }
  for (const auto& r : kDetectRules) {
    if (!r.when(c)) continue;
    c.fire(r.id);
    sel.cluster_env = r.then;
    return construct_cluster_env(c, r.then);  // the connector builds it: its constructor's checks
  }
  c.fire(RuleId::kEnvLightning);
  sel.cluster_env = ClusterEnvId::kLightning;
  return true;
}

}  // namespace accord::reference::detail
