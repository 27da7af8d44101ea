// select_precision.cc: stage 2d: precision validation (1.6.5 _validate_precision_choice) and plugin selection (1.6.5 _check_and_init_precision).
#include "../context.h"

namespace accord::reference::detail {

const PyValue& amp_backend_shown(const Input& c) {
  static constexpr char kNative[] = "native";
  return c.in.flags.amp_backend.is_absent() ? str_value<kNative>() : c.in.flags.amp_backend;
}

namespace {

constexpr char kBf16[] = "bf16";  // cpu's 16 (str_value)

bool is16(const PyValue& p) { return py_eq_int(p, 16); }
bool isbf16(const PyValue& p) { return py_eq_str(p, "bf16"); }

// PL 1.6.5 accelerator_connector.py _validate_precision_choice, in order.
bool validate(Resolution& c, const FinalFlags& flags, const Selection& sel) {
  const PyValue& p = *flags.precision;
  if (sel.accelerator == AcceleratorId::kTpu) {
    if (py_eq_int(p, 64)) {
      c.fire(RuleId::kTpuPrecision64);
      return c.fail(DiagCode::kTpuPrecision64, {fld("accelerator", sel.accelerator_flag_repr()), fld("precision", p)});
    }
    if (flags.precision_plugin_flag) {
      // `not isinstance(flag, (TPUPrecisionPlugin, TPUBf16PrecisionPlugin))`: true for any value that is not a
      // precision plugin instance too (a strategy instance's precision_plugin is taken unchecked by _check_config_and_set_final_flags).
      auto id = instance_row(c, flags.precision_plugin_flag, ClassKind::kPrecisionPlugin);
      if (!id || !row(static_cast<PrecisionPluginId>(*id)).tpu_ok) {
        c.fire(RuleId::kTpuPrecisionPlugin);
        return c.fail(DiagCode::kTpuPrecisionPlugin, {fld("plugin", *flags.precision_plugin_flag)});
      }
    }
  }
  if (sel.accelerator == AcceleratorId::kHpu && !(is16(p) || isbf16(p) || py_eq_int(p, 32))) {
    c.fire(RuleId::kHpuPrecisionValues);
    return c.fail(DiagCode::kHpuPrecision, {fld("precision", p), fld("owner", "HPUPrecisionPlugin"), fld("allowed", "(16, 32, 'bf16')")});
  }
  if (is16(p) && sel.accelerator == AcceleratorId::kCpu && flags.amp_type == "apex") {
    c.fire(RuleId::kApexOnCpu);
    return c.fail(DiagCode::kApexOnCpu, {fld("accelerator", sel.accelerator_flag_repr()), fld("precision", p), fld("amp_backend", amp_backend_shown(c))});
  }
  if (isbf16(p) && flags.amp_type != "native") {
    c.fire(RuleId::kBf16Native);
    // The bf16-without-native message reads `amp_type.value`: with an unknown backend (None) formatting it is an AttributeError.
    if (flags.amp_type.empty()) return c.fail(DiagCode::kAmpBackendInvalid, {fld("amp_backend", amp_backend_shown(c)), fld("allowed", "'native', 'apex'")});
    return c.fail(DiagCode::kBf16RequiresNative, {fld("amp_backend", amp_backend_shown(c)), fld("precision", p)});
  }
  auto amp = row(*sel.strategy_cls).amp;
  if (c.pol.sharded_apex_check == ShardedApexCheck::kAtPrecisionFor16AndBf16 && (is16(p) || isbf16(p)) && flags.amp_type == "apex" &&
      (amp == AmpGroup::kSharded || amp == AmpGroup::kFullySharded)) {
    c.fire(RuleId::kShardedApex);
    return c.fail(DiagCode::kShardedApex, {fld("strategy", PyValue::string(std::string(sel.strategy_name))), fld("precision", p),
                                           fld("amp_backend", amp_backend_shown(c)),
                                           fld("owner", row(*sel.strategy_cls).cls), fld("allowed", "'native'")});
  }
  return true;
}

bool choose(Resolution& c, Selection& sel, RuleId r, PrecisionPluginId id, std::string_view value) {
  c.fire(r);
  sel.precision_plan.plugin = row(id).cls;
  sel.precision_plan.value = value;
  return true;
}

bool needs_package(Resolution& c, PrecisionPluginId id) {
  const char* pkg = row(id).package;
  if (!*pkg || c.in.hardware.has_package(pkg)) return true;
  return c.fail(DiagCode::kPackageMissing, {fld("component", row(id).cls), fld("package", pkg), fld("precision", c.in.flags.precision)});
}

// PL 1.6.5 accelerator_connector.py _check_and_init_precision, 16 / bf16 mixed precision.
bool mixed(Resolution& c, const FinalFlags& flags, Selection& sel, const PyValue& p) {
  bool bf = isbf16(p);
  c.note(DiagCode::kAmpInfo, {fld("kind", bf ? "bfloat16" : "16bit " + std::string(flags.amp_type))});
  sel.precision_plan.amp_backend = flags.amp_type;
  if (flags.amp_type == "apex") {
    sel.precision_plan.amp_level = flags.amp_level->is_none() ? "O2" : py_str(*flags.amp_level);
    choose(c, sel, RuleId::kAmpApex, PrecisionPluginId::kApexAmp, c.pol.apex_precision_mixed ? "mixed" : py_str(p));
    return needs_package(c, PrecisionPluginId::kApexAmp);
  }
  sel.precision_plan.device = sel.accelerator_flag_is(AcceleratorId::kCpu, c.pol) ? "cpu" : "cuda";
  switch (row(*sel.strategy_cls).amp) {
    case AmpGroup::kSharded:
      choose(c, sel, RuleId::kAmpSharded, PrecisionPluginId::kShardedNativeAmp, py_str(p));
      return needs_package(c, PrecisionPluginId::kShardedNativeAmp);
    case AmpGroup::kFullySharded:
      choose(c, sel, RuleId::kAmpFullySharded, PrecisionPluginId::kFullyShardedNativeAmp, py_str(p));
      return needs_package(c, PrecisionPluginId::kFullyShardedNativeAmp);
    case AmpGroup::kPlain:
    case AmpGroup::kDeepSpeed: break;
  }
  return choose(c, sel, RuleId::kAmpNative, PrecisionPluginId::kNativeAmp, py_str(p));
}

// What a given plugin instance reports besides its class: the native AMP family its backend and device (the
// protocol's default device is cuda), apex its backend and level (default O2) (1.6.5 plugin constructors).
void given_plugin_details(const FinalFlags& flags, Selection& sel, PrecisionPluginId id) {
  const Instance& inst = *flags.precision_plugin_flag->inst;
  if (id == PrecisionPluginId::kNativeAmp || id == PrecisionPluginId::kShardedNativeAmp ||
      id == PrecisionPluginId::kFullyShardedNativeAmp) {
    sel.precision_plan.amp_backend = "native";
    sel.precision_plan.device = inst.arg("device").is_none() ? "cuda" : py_str(inst.arg("device"));
  } else if (id == PrecisionPluginId::kApexAmp) {
    sel.precision_plan.amp_backend = "apex";
    sel.precision_plan.amp_level = inst.arg("amp_level").is_none() ? "O2" : py_str(inst.arg("amp_level"));
  }
}

bool half_or_unset(Resolution& c, const FinalFlags& flags, Selection& sel, const PyValue& p);

// PL 1.6.5 accelerator_connector.py _check_and_init_precision, first match wins.
bool select(Resolution& c, const FinalFlags& flags, Selection& sel) {
  const PyValue& p = *flags.precision;
  // `isinstance(flag, PrecisionPlugin)`: any other value from a strategy instance falls through to step 2.
  if (auto plugin_row = instance_row(c, flags.precision_plugin_flag, ClassKind::kPrecisionPlugin)) {
    auto id = static_cast<PrecisionPluginId>(*plugin_row);
    const PyValue& v = flags.precision_plugin_flag->inst->arg("precision");
    given_plugin_details(flags, sel, id);
    if (id == PrecisionPluginId::kApexAmp && c.pol.apex_precision_mixed) return choose(c, sel, RuleId::kPluginGiven, id, "mixed");
    return choose(c, sel, RuleId::kPluginGiven, id, v.is_none() ? row(id).default_precision : py_str(v));
  }
  if (sel.accelerator == AcceleratorId::kIpu) {
    c.fire(RuleId::kIpu);
    if (!is16(p) && !py_eq_int(p, 32))
      return c.fail(DiagCode::kIpuPrecision, {fld("precision", p), fld("owner", "IPUPrecisionPlugin"), fld("allowed", "(16, 32)")});
    return choose(c, sel, RuleId::kIpu, PrecisionPluginId::kIpu, py_str(p));
  }
  if (sel.accelerator == AcceleratorId::kHpu) return choose(c, sel, RuleId::kHpu, PrecisionPluginId::kHpu, py_str(p));
  if (sel.accelerator == AcceleratorId::kTpu) {
    if (py_eq_int(p, 32)) return choose(c, sel, RuleId::kTpu32, PrecisionPluginId::kTpu, "32");
    if (is16(p)) {
      c.note(DiagCode::kTpuPrecision16);
      return choose(c, sel, RuleId::kTpu16, PrecisionPluginId::kTpuBf16, "bf16");
    }
    if (isbf16(p)) return choose(c, sel, RuleId::kTpuBf16, PrecisionPluginId::kTpuBf16, "bf16");
  }
  if (row(*sel.strategy_cls).amp == AmpGroup::kDeepSpeed) {
    sel.precision_plan.amp_backend = flags.amp_type;
    sel.precision_plan.amp_level = flags.amp_level->is_none() ? "" : py_str(*flags.amp_level);
    return choose(c, sel, RuleId::kDeepSpeed, PrecisionPluginId::kDeepSpeed, py_str(p));
  }
  if (py_eq_int(p, 32)) return choose(c, sel, RuleId::kFull32, PrecisionPluginId::kPlain, "32");
  if (py_eq_int(p, 64)) return choose(c, sel, RuleId::kDouble64, PrecisionPluginId::kDouble, "64");
  if (py_eq_str(p, "16-true") || py_eq_str(p, "bf16-true")) return choose(c, sel, RuleId::kTrueHalf, PrecisionPluginId::kHalf, p.str);
  if (is16(p) && sel.accelerator_flag_is(AcceleratorId::kCpu, c.pol)) {
    c.fire(RuleId::kCpu16ToBf16);
    c.note(DiagCode::kCpuPrecision16);
    return half_or_unset(c, flags, sel, str_value<kBf16>());
  }
  return half_or_unset(c, flags, sel, p);
}

// The rest of select(): 16 or bf16 mixed precision, else no plugin matches. `p` is the flag, or bf16 in place of 16 on the CPU.
bool half_or_unset(Resolution& c, const FinalFlags& flags, Selection& sel, const PyValue& p) {
  if ((is16(p) || isbf16(p)) && !flags.amp_type.empty()) return mixed(c, flags, sel, p);
  if (is16(p) || isbf16(p)) {
    // 1.6.5 logs the AMP info before looking at the (None) amp type: the 16-bit text reads `amp_type.value` and fails.
    c.fire(RuleId::kAmpNative);
    if (is16(p)) return c.fail(DiagCode::kAmpBackendInvalid, {fld("amp_backend", amp_backend_shown(c)), fld("allowed", "'native', 'apex'")});
    c.note(DiagCode::kAmpInfo, {fld("kind", "bfloat16")});
  }
  c.fire(RuleId::kPrecisionUnset);
  return c.fail(DiagCode::kPrecisionUnset, {fld("precision", *flags.precision)});
}

}  // namespace

bool select_precision(Resolution& c, const FinalFlags& flags, Selection& sel) { return validate(c, flags, sel) && select(c, flags, sel); }

}  // namespace accord::reference::detail
