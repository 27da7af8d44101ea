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
    case AcceleratorId::kCuda:  // the 2.x rows: not in a 1.6 profile
    case AcceleratorId::kMps:
    case AcceleratorId::kXla: return false;
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

bool ipu_strategy_instance(const FinalFlags& flags) {
  return flags.strategy_flag->is_instance() && flags.strategy_flag->inst->cls == row(StrategyClass::kIpu).cls;
}

// The accelerator flag of stage 1 resolved into Selection::accelerator: the IPU strategy, the registry lookup, auto, the
// default (PL 1.6.5 _check_config_and_set_final_flags end, _set_parallel_devices_and_init_accelerator,
// _choose_accelerator). `kind` and `id` are the flag as Lightning rewrites it on the way, local to this step.
bool choose(Resolution& c, const FinalFlags& flags, Selection& sel) {
  const AcceleratorFlag& given = flags.accelerator_flag;
  AcceleratorFlag::Kind kind = given.kind;
  AcceleratorId id = given.id;
  auto set = [&](AcceleratorId a) { kind = AcceleratorFlag::Kind::kName, id = a; };
  if (ipu_strategy_instance(flags)) {
    if (c.pol.ipu_strategy_forces_ipu) {
      c.fire(RuleId::kIpuStrategyForcesIpu);
      set(AcceleratorId::kIpu);
    } else if (kind == AcceleratorFlag::Kind::kUnset || kind == AcceleratorFlag::Kind::kAuto) {
      c.fire(RuleId::kIpuStrategyAcceleratorConflict);
      set(AcceleratorId::kIpu);
    } else if (id != AcceleratorId::kIpu) {
      c.fire(RuleId::kIpuStrategyAcceleratorConflict);
      return c.fail(DiagCode::kAcceleratorStrategyMismatch,
                    {fld("accelerator_class", row(id).cls), fld("allowed", "strategies other than `IPUStrategy`"),
                     fld("strategy_class", "IPUStrategy"), fld("accelerator", given.repr()), fld("strategy", *flags.strategy_flag)});
    }
  }
  if (kind == AcceleratorFlag::Kind::kText) {
    // PL 1.6.5 _set_parallel_devices_and_init_accelerator: lower-cased, then looked up in the AcceleratorRegistry.
    c.fire(RuleId::kAcceleratorRegistry);
    auto found = accelerator_by_name(ascii_lower(given.text), c.pol);
    if (!found)
      return c.fail(DiagCode::kAcceleratorUnknown, {fld("accelerator", PyValue::string(given.text)), fld("allowed", accelerator_names_with_auto(c.pol))});
    set(*found);
  }
  if (kind == AcceleratorFlag::Kind::kAuto) {
    for (const auto& r : kAutoRules) {
      if (available(c.in.hardware, r.then)) {
        c.fire(r.id);
        set(r.then);
        break;
      }
    }
  } else if (kind == AcceleratorFlag::Kind::kUnset) {
    c.fire(RuleId::kDefaultCpu);
    set(AcceleratorId::kCpu);
  }
  sel.accelerator = id;
  sel.accelerator_is_instance = kind == AcceleratorFlag::Kind::kInstance;
  c.fire(RuleId::kAcceleratorAvailable);
  if (!available(c.in.hardware, sel.accelerator)) {
    std::string names;
    for (const auto& r : accelerators())
      if (available(c.in.hardware, r.id)) names.append(names.empty() ? "'" : ", '").append(r.name).append("'");
    return c.fail(DiagCode::kAcceleratorUnavailable, {fld("accelerator_class", row(sel.accelerator).cls), fld("available", "[" + names + "]"),
                                                      fld("accelerator", sel.accelerator_flag_repr())});
  }
  return true;
}

// PL 1.6.1 #12608: auto_select_gpus picks free GPUs (pick_multiple_gpus).
// `devices` becomes `picked`, the GPU ids chosen.
bool auto_select(Resolution& c, const Selection& sel, const PyValue*& devices, std::optional<PyValue>& picked) {
  const auto& f = c.in.flags;
  if (!f.auto_select_gpus.truthy() || sel.accelerator != AcceleratorId::kGpu) return true;
  const PyValue& value = f.gpus.truthy() ? f.gpus : *devices;
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
  devices = &picked.emplace(PyValue::make_list(ids));
  c.note(DiagCode::kAutoSelectGpus, {fld("ids", repr(*devices))});
  return true;
}

struct ParserRule { DeviceParser parser; RuleId id; };
constexpr std::array<ParserRule, 5> kParserRules = {{{DeviceParser::kCpu, RuleId::kParseCpu},
                                                     {DeviceParser::kGpu, RuleId::kParseGpu},
                                                     {DeviceParser::kTpu, RuleId::kParseTpu},
                                                     {DeviceParser::kHpu, RuleId::kParseHpu},
                                                     {DeviceParser::kIpu, RuleId::kParseIpu}}};

bool parse(Resolution& c, const FinalFlags& flags, const PyValue& devices, Selection& sel) {
  const auto& acc = row(sel.accelerator);
  std::string_view flag = flags.legacy_source ? flags.legacy_source : "devices";
  // The parser's result is built in place (returned straight from the lambda), not moved into a local.
  ParsedDevices p = [&]() -> ParsedDevices {
    for (const auto& r : kParserRules) {
      if (r.parser != acc.parser) continue;
      c.fire(r.id);
      DeviceRoom room = device_room(sel);
      switch (r.parser) {
        case DeviceParser::kCpu: return parse_cpu(devices, flag, std::move(room));
        case DeviceParser::kGpu: return parse_gpu(devices, flag, {c.in.hardware.cuda_devices, detect_torchelastic(c)}, std::move(room));
        case DeviceParser::kTpu: return parse_tpu(devices, flag, std::move(room));
        case DeviceParser::kHpu: return parse_hpu(devices, flag, std::move(room));
        case DeviceParser::kIpu: return parse_ipu(devices, flag, std::move(room));
        case DeviceParser::kMps:  // the 2.x parsers: their accelerators are not in a 1.6 profile
        case DeviceParser::kXla: break;
      }
    }
    return {};
  }();
  if (p.error) return c.fail(p.error->code, std::move(p.error->fields));
  if (p.no_gpus && flags.strategy_parallel_devices.empty()) {
    c.fire(RuleId::kGpuDevicesNone);
    DiagCode code = c.pol.gpu_devices_none_error ? DiagCode::kDevicesZero : DiagCode::kGpuDevicesNone;
    if (code == DiagCode::kDevicesZero)
      return c.fail(code, {fld("devices", devices), fld("accelerator", "gpu"), fld("flag", std::string(flag))});
    return c.fail(code, {fld("flag", std::string(flag)), fld("value", devices)});
  }
  adopt_devices(c, flags, acc, std::move(p), sel);
  return true;
}

}  // namespace

// The selection's device lists, emptied, as the storage a parser writes into (a reused outcome lends the last plan's
// lists to the selection: fresh_plan in resolve.cc).
DeviceRoom device_room(Selection& sel) {
  DeviceRoom room{std::move(sel.parallel_devices), std::move(sel.parsed_devices.list)};
  room.parallel.clear();
  room.ids.clear();
  return room;
}

// The parsed devices become the selection's (the TorchElastic exception noted), unless a strategy instance brought
// its own parallel devices (1.6.5 and 2.2.5 _set_parallel_devices_and_init_accelerator alike).
void adopt_devices(Resolution& c, const FinalFlags& flags, const AcceleratorRow& acc, ParsedDevices&& p, Selection& sel) {
  if (acc.parser == DeviceParser::kGpu && detect_torchelastic(c) && c.in.hardware.cuda_devices == 1 &&
      p.parsed.kind == PyValue::Kind::kList && p.parsed.list.size() != 1)
    c.fire(RuleId::kGpuTorchElasticException);
  sel.parsed_devices = std::move(p.parsed);
  sel.parallel_devices = std::move(p.parallel);
  if (!flags.strategy_parallel_devices.empty()) {
    c.fire(RuleId::kParallelDevicesFromStrategy);
    sel.parallel_devices = flags.strategy_parallel_devices;
  }
}

bool select_accelerator(Resolution& c, const FinalFlags& flags, Selection& sel) {
  if (!choose(c, flags, sel)) return false;
  const auto& acc = row(sel.accelerator);
  // The devices flag as this step completes it, local to it: counted for None and "auto", then the GPUs auto_select_gpus picks.
  std::optional<PyValue> counted, picked;
  const PyValue* devices = &*flags.devices_flag;
  if (devices->is_none() || py_eq_str(*devices, "auto")) {
    c.fire(RuleId::kDevicesAutoCount);
    devices = &counted.emplace(PyValue::integer(acc.auto_count < 0 ? c.in.hardware.cuda_devices : acc.auto_count));
  }
  return auto_select(c, sel, devices, picked) && parse(c, flags, *devices, sel);
}

}  // namespace accord::reference::detail
