// select_accelerator.cc: stage 2a: choose the accelerator, check availability, count and parse devices.
#include <array>

#include "../context.h"
#include "../normalize/devices.h"

namespace accord::reference::detail {
namespace {

bool available(const HardwareFacts& h, AcceleratorId a) {
  switch (a) {
    case AcceleratorId::kNone: return false;
    case AcceleratorId::kCpu: return true;
    case AcceleratorId::kGpu: return h.cuda_devices > 0;
    case AcceleratorId::kHpu: return h.hpu;
    case AcceleratorId::kIpu: return h.ipu;
    case AcceleratorId::kTpu: return h.tpu;
  }
  return false;  // LCOV_EXCL_LINE unreachable: every id returns above
}

struct AutoRule { RuleId id; AcceleratorId then; };
// PL 1.6.5 _choose_accelerator: first available wins, in this priority order.
constexpr std::array<AutoRule, 5> kAutoRules = {{{RuleId::kAutoTpu, AcceleratorId::kTpu},
                                                 {RuleId::kAutoIpu, AcceleratorId::kIpu},
                                                 {RuleId::kAutoHpu, AcceleratorId::kHpu},
                                                 {RuleId::kAutoGpu, AcceleratorId::kGpu},
                                                 {RuleId::kAutoCpu, AcceleratorId::kCpu}}};

bool ipu_strategy_instance(const Ctx& c) {
  return c.strategy_flag.is_instance() && c.strategy_flag.inst->cls == row(StrategyClass::kIpu).cls;
}

bool choose(Ctx& c) {
  if (ipu_strategy_instance(c)) {
    if (c.pol.ipu_strategy_forces_ipu) {
      c.fire(RuleId::kIpuStrategyForcesIpu);
      c.accel = {AcceleratorFlag::Kind::kName, AcceleratorId::kIpu};
    } else if (c.accel.kind == AcceleratorFlag::Kind::kUnset || c.accel.kind == AcceleratorFlag::Kind::kAuto) {
      c.fire(RuleId::kIpuStrategyAcceleratorConflict);
      c.accel = {AcceleratorFlag::Kind::kName, AcceleratorId::kIpu};
    } else if (c.accel.id != AcceleratorId::kIpu) {
      c.fire(RuleId::kIpuStrategyAcceleratorConflict);
      return c.fail(DiagCode::kAcceleratorStrategyMismatch,
                    {fld("accelerator_class", row(c.accel.id).cls), fld("allowed", "strategies other than `IPUStrategy`"),
                     fld("strategy_class", "IPUStrategy"), fld("accelerator", c.accel.repr()), fld("strategy", c.strategy_flag)});
    }
  }
  if (c.accel.kind == AcceleratorFlag::Kind::kText) {
    // PL 1.6.5 _set_parallel_devices_and_init_accelerator: lower-cased, then looked up in the AcceleratorRegistry.
    c.fire(RuleId::kAcceleratorRegistry);
    auto id = accelerator_by_name(ascii_lower(c.accel.text));
    if (!id) return c.fail(DiagCode::kAcceleratorUnknown, {fld("accelerator", PyValue::string(c.accel.text)), fld("allowed", accelerator_names_with_auto())});
    c.accel = {AcceleratorFlag::Kind::kName, *id};
  }
  if (c.accel.kind == AcceleratorFlag::Kind::kAuto) {
    for (const auto& r : kAutoRules) {
      if (available(c.in.hardware, r.then)) {
        c.fire(r.id);
        c.accel = {AcceleratorFlag::Kind::kName, r.then};
        break;
      }
    }
  } else if (c.accel.kind == AcceleratorFlag::Kind::kUnset) {
    c.fire(RuleId::kDefaultCpu);
    c.accel = {AcceleratorFlag::Kind::kName, AcceleratorId::kCpu};
  }
  c.accelerator = c.accel.id;
  c.accelerator_is_instance = c.accel.kind == AcceleratorFlag::Kind::kInstance;
  c.fire(RuleId::kAcceleratorAvailable);
  if (!available(c.in.hardware, c.accelerator)) {
    std::string names;
    for (const auto& r : accelerators())
      if (available(c.in.hardware, r.id)) names += std::string(names.empty() ? "'" : ", '") + r.name + "'";
    return c.fail(DiagCode::kAcceleratorUnavailable,
                  {fld("accelerator_class", row(c.accelerator).cls), fld("available", "[" + names + "]"), fld("accelerator", c.accel.repr())});
  }
  return true;
}

// PL 1.6.1 #12608: auto_select_gpus picks free GPUs (pick_multiple_gpus).
bool auto_select(Ctx& c) {
  const auto& f = c.in.flags;
  if (!f.auto_select_gpus.truthy() || c.accelerator != AcceleratorId::kGpu) return true;
  const PyValue& value = f.gpus.truthy() ? f.gpus : c.devices_flag;
  if (!value.is_int_like()) return true;
  c.fire(RuleId::kAutoSelectGpus);
  long long n = value.as_int();
  int count = c.in.hardware.cuda_devices;
  if (n > count)
    return c.fail(DiagCode::kAutoSelectTooMany, {fld("requested", std::to_string(n)), fld("available", std::to_string(count))});
  std::vector<PyValue> ids;
  if (n == -1) n = count;  // -1 asks for every visible GPU, each of which must pass the probe
  for (int k = 0; k < count && static_cast<long long>(ids.size()) < n; ++k)
    if (!c.in.hardware.gpu_busy.count(k)) ids.push_back(PyValue::integer(k));
  if (static_cast<long long>(ids.size()) < n)
    return c.fail(DiagCode::kAutoSelectNoneFree, {fld("requested", std::to_string(n)), fld("free", std::to_string(ids.size()))});
  c.devices_flag = PyValue::make_list(ids);
  c.note(DiagCode::kAutoSelectGpus, {fld("ids", repr(c.devices_flag))});
  return true;
}

struct ParserRule { DeviceParser parser; RuleId id; };
constexpr std::array<ParserRule, 5> kParserRules = {{{DeviceParser::kCpu, RuleId::kParseCpu},
                                                     {DeviceParser::kGpu, RuleId::kParseGpu},
                                                     {DeviceParser::kTpu, RuleId::kParseTpu},
                                                     {DeviceParser::kHpu, RuleId::kParseHpu},
                                                     {DeviceParser::kIpu, RuleId::kParseIpu}}};

bool parse(Ctx& c) {
  const auto& acc = row(c.accelerator);
  std::string_view flag = c.legacy_source ? c.legacy_source : "devices";
  ParsedDevices p;
  for (const auto& r : kParserRules) {
    if (r.parser != acc.parser) continue;
    c.fire(r.id);
    switch (r.parser) {
      case DeviceParser::kCpu: p = parse_cpu(c.devices_flag, flag); break;
      case DeviceParser::kGpu: p = parse_gpu(c.devices_flag, flag, {c.in.hardware.cuda_devices, detect_torchelastic(c)}); break;
      case DeviceParser::kTpu: p = parse_tpu(c.devices_flag, flag); break;
      case DeviceParser::kHpu: p = parse_hpu(c.devices_flag, flag); break;
      case DeviceParser::kIpu: p = parse_ipu(c.devices_flag, flag); break;
    }
  }
  if (p.error) return c.fail(p.error->code, p.error->fields);
  if (p.no_gpus && c.strategy_parallel_devices.empty()) {
    c.fire(RuleId::kGpuDevicesNone);
    DiagCode code = c.pol.gpu_devices_none_error ? DiagCode::kDevicesZero : DiagCode::kGpuDevicesNone;
    if (code == DiagCode::kDevicesZero)
      return c.fail(code, {fld("devices", c.devices_flag), fld("accelerator", "gpu"), fld("flag", std::string(flag))});
    return c.fail(code, {fld("flag", std::string(flag)), fld("value", c.devices_flag)});
  }
  if (acc.parser == DeviceParser::kGpu && detect_torchelastic(c) && c.in.hardware.cuda_devices == 1 &&
      p.parsed.kind == PyValue::Kind::kList && p.parsed.list.size() != 1)
    c.fire(RuleId::kGpuTorchElasticException);
  c.parsed_devices = std::move(p.parsed);
  c.parallel_devices = std::move(p.parallel);
  if (!c.strategy_parallel_devices.empty()) {
    c.fire(RuleId::kParallelDevicesFromStrategy);
    c.parallel_devices = c.strategy_parallel_devices;
  }
  return true;
}

}  // namespace

bool select_accelerator(Ctx& c) {
  if (!choose(c)) return false;
  const auto& acc = row(c.accelerator);
  if (c.devices_flag.is_none() || py_eq_str(c.devices_flag, "auto")) {
    c.fire(RuleId::kDevicesAutoCount);
    c.devices_flag = PyValue::integer(acc.auto_count < 0 ? c.in.hardware.cuda_devices : acc.auto_count);
  }
  return auto_select(c) && parse(c);
}

}  // namespace accord::reference::detail
