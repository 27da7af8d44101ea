// validate_devices.cc: stage 1c: num_nodes, devices 0/[]/"0", legacy device flags, devices="auto".
#include <cmath>

#include "../context.h"

namespace accord::reference::detail {
namespace {

constexpr long long kMaxNodes = 1LL << 31;

bool intake_num_nodes(Resolution& c, FinalFlags& flags) {
  const PyValue& n = c.in.flags.num_nodes;
  c.fire(RuleId::kNumNodes);
  auto bad = [&] { return c.fail(DiagCode::kNumNodesInvalid, {fld("num_nodes", n)}); };
  auto out_of_range = [&] {
    return c.fail(DiagCode::kValueOutOfRange, {fld("flag", "num_nodes"), fld("value", repr(n)), fld("expected", "|num_nodes| < 2**31")});
  };
  if (n.is_none()) { flags.num_nodes = 1; return true; }
  bool big = n.kind == PyValue::Kind::kBigInt;  // a Python int beyond int64: past the limit either way
  if (c.pol.num_nodes_positive) {
    c.fire(RuleId::kNumNodesPositive);
    bool positive_int = (n.kind == PyValue::Kind::kInt && n.i >= 1) || (big && n.str[0] != '-');
    if (!positive_int) return bad();
  }
  if (big) return out_of_range();
  switch (n.kind) {
    case PyValue::Kind::kBool:
    case PyValue::Kind::kInt: flags.num_nodes = n.as_int(); break;
    case PyValue::Kind::kFloat:
      if (!std::isfinite(n.f)) return bad();  // int(inf) is an OverflowError, int(nan) a ValueError
      if (!(n.f > -9e18 && n.f < 9e18)) return out_of_range();  // int(1e22) is 10**22: a number, past the limit
      flags.num_nodes = static_cast<long long>(n.f);
      break;
    case PyValue::Kind::kStr: {
      auto v = py_int_from_str(n.str);
      if (!v) return bad();
      flags.num_nodes = *v;
      break;
    }
    case PyValue::Kind::kBigInt:  // handled above
    case PyValue::Kind::kList:
    case PyValue::Kind::kInstance:
    case PyValue::Kind::kAbsent:
    case PyValue::Kind::kNone: return bad();
  }
  if (flags.num_nodes >= kMaxNodes || flags.num_nodes <= -kMaxNodes) return out_of_range();
  return true;
}

bool is_zero_request(const PyValue& v) {
  return (v.kind == PyValue::Kind::kList && v.list.empty()) || py_eq_int(v, 0) || py_eq_str(v, "0");
}

/// The accelerator flag as the devices-zero error prints it: the string as given, None, or the instance's class name.
std::string accelerator_flag_plain(const AcceleratorFlag& a) {
  switch (a.kind) {
    case AcceleratorFlag::Kind::kUnset: return "None";
    case AcceleratorFlag::Kind::kAuto: return "auto";
    case AcceleratorFlag::Kind::kName: return std::string(row(a.id).name);
    case AcceleratorFlag::Kind::kInstance: return std::string(row(a.id).cls);
    case AcceleratorFlag::Kind::kText: return a.text;
  }
  return "None";  // LCOV_EXCL_LINE unreachable: every kind returns above
}

struct Legacy { const char* name; const PyValue* value; AcceleratorId acc; };

// PL 1.6.5 accelerator_connector.py _map_deprecated_devices_specfic_info_to_accelerator_and_device_flag.
bool map_legacy(Resolution& c, FinalFlags& flags) {
  const auto& f = c.in.flags;
  const Legacy legacy[] = {{"num_processes", &f.num_processes, AcceleratorId::kCpu},
                           {"gpus", &f.gpus, AcceleratorId::kGpu},
                           {"ipus", &f.ipus, AcceleratorId::kIpu},
                           {"tpu_cores", &f.tpu_cores, AcceleratorId::kTpu}};
  auto passed = [](const Legacy& l) { return !l.value->is_none(); };  // `is not None`, as 1.6.5 counts them
  const Legacy* first = nullptr;
  std::size_t given = 0;
  for (const auto& l : legacy) {
    if (!first && l.value->truthy()) first = &l;
    given += passed(l);
  }
  if (!first || is_zero_request(*first->value)) return true;
  c.fire(RuleId::kLegacyDevices);
  const PyValue& dev = f.devices;
  if (c.pol.legacy_devices_conflict_error) {
    const Legacy* other = nullptr;
    for (const auto& g : legacy)
      if (passed(g) && &g != first) other = &g;
    if (!dev.is_none() || other) {
      c.fire(RuleId::kLegacyConflict);
      std::string second = other ? std::string(other->name) + "=" + repr(*other->value) : "devices=" + repr(dev);
      return c.fail(DiagCode::kFlagConflict, {fld("first", std::string(first->name) + "=" + repr(*first->value)),
                                              fld("second", second), fld("advice", "use `devices=` with `accelerator=` only")});
    }
  } else {
    if (dev.truthy()) {
      c.fire(RuleId::kLegacyDevicesOverride);
      c.note(DiagCode::kDevicesIgnoredLegacy, {fld("devices", dev), fld("legacy_value", *first->value)});
    }
    if (given > 1) {
      c.fire(RuleId::kLegacyMultiple);
      std::string names;
      for (const auto& g : legacy)
        if (passed(g)) names += (names.empty() ? "" : ", ") + std::string(g.name) + "=" + repr(*g.value);
      c.note(DiagCode::kMultipleLegacyFlags, {fld("flags", names)});
    }
  }
  flags.devices_flag.borrow(*first->value);
  flags.legacy_source = first->name;
  bool auto_given = flags.accelerator_flag.kind == AcceleratorFlag::Kind::kAuto;
  if (flags.accelerator_flag.kind == AcceleratorFlag::Kind::kUnset || (auto_given && c.pol.legacy_type_overrides_auto)) {
    c.fire(RuleId::kLegacyAccelerator);
    for (const Legacy* l : {&legacy[2], &legacy[3], &legacy[1], &legacy[0]})  // ipus, tpu_cores, gpus, num_processes
      if (l->value->truthy()) flags.accelerator_flag = {AcceleratorFlag::Kind::kName, l->acc};
  } else if (c.pol.legacy_accelerator_conflict_error && !auto_given && flags.accelerator_flag.id != first->acc) {
    c.fire(RuleId::kLegacyAcceleratorConflict);
    return c.fail(DiagCode::kFlagConflict, {fld("first", "accelerator=" + repr(f.accelerator)),
                                            fld("second", std::string(first->name) + "=" + repr(*first->value)),
                                            fld("advice", "use `devices=` to count devices of the chosen accelerator")});
  }
  return true;
}

}  // namespace

bool validate_devices(Resolution& c, FinalFlags& flags) {
  if (!intake_num_nodes(c, flags)) return false;
  flags.devices_flag.borrow(c.in.flags.devices);
  if (is_zero_request(*flags.devices_flag)) {
    c.fire(RuleId::kDevicesZero);
    return c.fail(DiagCode::kDevicesZero, {fld("devices", *flags.devices_flag), fld("accelerator", accelerator_flag_plain(flags.accelerator_flag))});
  }
  if (!map_legacy(c, flags)) return false;
  if (py_eq_str(*flags.devices_flag, "auto") && flags.accelerator_flag.kind == AcceleratorFlag::Kind::kUnset) {
    c.fire(RuleId::kDevicesAutoWithoutAccelerator);
    return c.fail(DiagCode::kDevicesAutoWithoutAccelerator, {fld("devices", *flags.devices_flag)});
  }
  return true;
}

}  // namespace accord::reference::detail
