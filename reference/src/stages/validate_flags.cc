// validate_flags.cc: stage 1a: determinism values, strategy and accelerator intake, precision, amp.
#include "../context.h"

namespace accord::reference::detail {
namespace {

bool is_strategy_value(const PyValue& v) {
  if (v.is_str()) return strategy_by_name(v.str).has_value();
  if (v.is_instance()) {
    auto ci = class_by_name(v.inst->cls);
    return ci && ci->kind == ClassKind::kStrategy;
  }
  return false;
}

std::string accelerator_names_with_auto() {
  std::string s = "['auto'";
  for (const auto& r : accelerators()) s += std::string(", '") + r.name + "'";
  return s + "]";
}

// PL 1.6.5 _check_config_and_set_final_flags: the strategy flag and its conflicts (A2 3.2).
bool intake_strategy(Ctx& c) {
  const auto& f = c.in.flags;
  if (f.strategy.is_none()) return true;
  c.strategy_flag = f.strategy;
  if (c.strategy_flag.is_str()) {
    c.fire(RuleId::kStrategyLowercase);
    c.strategy_flag.str = ascii_lower(c.strategy_flag.str);
    if (c.strategy_flag.str == "ddp_cpu") {
      c.fire(RuleId::kStrategyDdpCpu);
      return c.fail(DiagCode::kStrategyDdpCpu, {fld("strategy", f.strategy)});
    }
    if (c.strategy_flag.str == "tpu_spawn") {
      c.fire(RuleId::kStrategyTpuSpawn);
      return c.fail(DiagCode::kStrategyTpuSpawn, {fld("strategy", f.strategy)});
    }
  }
  const PyValue& acc = f.accelerator;
  if (acc.is_instance() && is_strategy_value(acc)) {
    c.fire(RuleId::kStrategyVsAcceleratorInstance);
    return c.fail(DiagCode::kStrategyAcceleratorConflict, {fld("strategy", c.strategy_flag), fld("accelerator", acc)});
  }
  if (acc.is_str() && is_strategy_value(acc)) {
    if (!py_eq(acc, c.strategy_flag)) {
      c.fire(RuleId::kStrategyVsAcceleratorName);
      return c.fail(DiagCode::kStrategyAcceleratorConflict, {fld("strategy", c.strategy_flag), fld("accelerator", acc)});
    }
    if (c.pol.same_setting_twice_error) {
      c.fire(RuleId::kStrategyTwice);
      return c.fail(DiagCode::kStrategyAcceleratorConflict, {fld("strategy", c.strategy_flag), fld("accelerator", acc)});
    }
  }
  for (const auto& p : c.plugins) {
    if (is_strategy_value(p)) {
      c.fire(RuleId::kStrategyInPlugins);
      return c.fail(DiagCode::kStrategyInPlugins, {fld("strategy", c.strategy_flag), fld("plugin", p)});
    }
  }
  return true;
}

// PL 1.6.5 _check_config_and_set_final_flags: the accelerator flag (A2 3.3).
bool intake_accelerator(Ctx& c) {
  const PyValue& acc = c.in.flags.accelerator;
  if (acc.is_none()) return true;
  if (acc.is_str() && acc.str == "auto") {
    c.fire(RuleId::kAcceleratorName);
    c.accel.kind = AcceleratorFlag::Kind::kAuto;
    return true;
  }
  if (acc.is_str() && accelerator_by_name(acc.str)) {
    c.fire(RuleId::kAcceleratorName);
    c.accel = {AcceleratorFlag::Kind::kName, *accelerator_by_name(acc.str)};
    return true;
  }
  if (acc.is_instance()) {
    auto ci = class_by_name(acc.inst->cls);
    if (ci && ci->kind == ClassKind::kAccelerator) {
      c.fire(RuleId::kAcceleratorName);
      c.accel = {AcceleratorFlag::Kind::kInstance, static_cast<AcceleratorId>(ci->id)};
      return true;
    }
  }
  if (is_strategy_value(acc)) {
    c.fire(RuleId::kAcceleratorStrategyDeprecated);
    c.note(DiagCode::kAcceleratorStrategyDeprecated, {fld("accelerator", acc)});
    c.strategy_flag = acc;
    return true;
  }
  if (acc.is_str() && acc.str == "ddp_cpu") {
    if (c.pol.accelerator_ddp_cpu_error) {
      c.fire(RuleId::kAcceleratorDdpCpuError);
      return c.fail(DiagCode::kAcceleratorDdpCpu, {fld("accelerator", acc)});
    }
    c.fire(RuleId::kAcceleratorDdpCpu);
    if (c.strategy_flag.is_none()) c.strategy_flag = acc;
    return true;
  }
  if (c.pol.accelerator_unknown_error) {
    c.fire(RuleId::kAcceleratorUnknown);
    return c.fail(DiagCode::kAcceleratorUnknown, {fld("accelerator", acc), fld("allowed", accelerator_names_with_auto())});
  }
  c.fire(RuleId::kAcceleratorIgnored);
  return true;
}

struct PrecisionSpelling { const char* text; PyValue value; };

// spec: every accepted spelling and its normalised value (decisions: normalised at the input).
const std::vector<PrecisionSpelling>& spec_spellings() {
  static const std::vector<PrecisionSpelling> rows = {
      {"16", PyValue::integer(16)},           {"32", PyValue::integer(32)},
      {"64", PyValue::integer(64)},           {"bf16", PyValue::string("bf16")},
      {"16-mixed", PyValue::integer(16)},     {"bf16-mixed", PyValue::string("bf16")},
      {"32-true", PyValue::integer(32)},      {"64-true", PyValue::integer(64)},
      {"16-true", PyValue::string("16-true")}, {"bf16-true", PyValue::string("bf16-true")},
  };
  return rows;
}

bool intake_precision(Ctx& c) {
  const PyValue& p = c.in.flags.precision;
  if (c.pol.precision_normalize) {
    c.fire(RuleId::kPrecisionNormalize);
    if (p.is_none()) { c.precision = PyValue::integer(32); return true; }
    bool int_spelling = p.kind == PyValue::Kind::kInt;
    for (const auto& s : spec_spellings()) {
      if ((p.is_str() && p.str == s.text) || (int_spelling && std::to_string(p.i) == s.text)) {
        c.precision = s.value;
        return true;
      }
    }
    return c.fail(DiagCode::kPrecisionInvalid,
                  {fld("precision", p), fld("allowed", "(16, 32, 64, '16', '32', '64', 'bf16', '16-mixed', "
                                                       "'bf16-mixed', '32-true', '64-true', '16-true', 'bf16-true')")});
  }
  c.precision = p.is_absent() ? PyValue::integer(32) : p;
  if (p.is_none()) return true;
  c.fire(RuleId::kPrecisionWhitelist);
  std::string s = py_str(p);
  for (const char* ok : {"16", "32", "64", "bf16", "mixed"})
    if (s == ok) return true;
  return c.fail(DiagCode::kPrecisionInvalid, {fld("precision", p), fld("allowed", "('16', '32', '64', 'bf16', 'mixed')")});
}

}  // namespace

bool validate_flags(Ctx& c) {
  const PyValue& pl = c.in.flags.plugins;
  if (pl.kind == PyValue::Kind::kList) {
    c.plugins = pl.list;
  } else if (!pl.is_none()) {
    c.fire(RuleId::kPluginsWrap);
    c.plugins = {pl};
  }
  return intake_strategy(c) && intake_accelerator(c) && intake_precision(c);
}

// PL 1.6.5 _check_config_and_set_final_flags, end: amp type and amp level (A2 3.7).
bool validate_amp(Ctx& c) {
  const PyValue& b = c.in.flags.amp_backend;
  c.fire(RuleId::kAmpBackend);
  if (b.is_absent()) {
    c.amp_type = "native";
  } else if (!b.is_str()) {
    return c.fail(DiagCode::kAmpBackendInvalid, {fld("amp_backend", b), fld("allowed", "'native', 'apex'")});
  } else {
    std::string low = ascii_lower(b.str);
    if (low == "native" || low == "apex") {
      c.amp_type = low;
    } else if (c.pol.amp_backend_unknown_error) {
      c.fire(RuleId::kAmpBackendUnknown);
      return c.fail(DiagCode::kAmpBackendInvalid, {fld("amp_backend", b), fld("allowed", "'native', 'apex'")});
    } else {
      c.fire(RuleId::kAmpBackendUnknownIgnored);
      c.amp_type = "";
    }
  }
  c.amp_level = c.in.flags.amp_level;
  if (!c.amp_level.is_none() && c.amp_type != "apex") {
    c.fire(RuleId::kAmpLevel);
    return c.fail(DiagCode::kAmpLevelWithoutApex, {fld("amp_level", c.amp_level), fld("amp_backend", b.is_absent() ? PyValue::string("native") : b)});
  }
  return true;
}

}  // namespace accord::reference::detail
