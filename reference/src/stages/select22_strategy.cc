// select22_strategy.cc: stage 2 of the Lightning 2.2.5 connector, second half: the default strategy, the fallback
// checks, the strategy instance, and the precision plugin.
#include "../context.h"

namespace accord::reference::detail {
namespace {

constexpr char kXla[] = "xla", kDdp[] = "ddp", kDdpFork[] = "ddp_fork", kXlaFsdp[] = "xla_fsdp";

/// `flag in ("cuda", "gpu", "mps")` or an instance of CUDAAccelerator / MPSAccelerator (the 2.2.5 isinstance check).
bool gpu_like(const Selection& sel) { return sel.accelerator == AcceleratorId::kCuda || sel.accelerator == AcceleratorId::kMps; }

// PL 2.2.5 _choose_strategy (the strategy flag is "auto").
const PyValue& default_choice(Resolution& c, const FinalFlags& flags, const Selection& sel) {
  size_t n = sel.parallel_devices.size();
  auto pick = [&](RuleId r, const PyValue& v) -> const PyValue& { c.fire(r); return v; };
  if (sel.accelerator == AcceleratorId::kXla)
    return n > 1 ? pick(RuleId::kDefaultXla, str_value<kXla>())
                 : pick(RuleId::kDefaultXlaSingle, single_device_strategy(StrategyClass::kSingleXla, sel.parallel_devices.at(0)));
  if (flags.num_nodes > 1) return pick(RuleId::kDefaultMultiNode, str_value<kDdp>());
  if (n <= 1)
    return pick(RuleId::kDefaultSingleDevice,
                single_device_strategy(StrategyClass::kSingleDevice, gpu_like(sel) && n ? std::string_view(sel.parallel_devices[0]) : "cpu"));
  if (c.in.interactive) return pick(RuleId::kDefaultDdpFork, str_value<kDdpFork>());
  return pick(RuleId::kDefaultDdp, str_value<kDdp>());
}

bool is_fork_alias(const std::string& s) { return s.rfind("ddp_fork", 0) == 0 || s.rfind("ddp_notebook", 0) == 0; }

// PL 2.2.5 _check_strategy_and_fallback: FSDP needs the accelerator flag "cuda" (or "gpu"); a fork alias needs fork.
bool fallback_checks(Resolution& c, const Selection& sel, const PyValue& strategy) {
  std::optional<StrategyClass> cls;
  if (strategy.is_str()) {
    if (auto id = strategy_by_name(strategy.str, c.pol)) cls = row(*id).cls;
  } else if (auto ci = strategy.is_instance() ? c.class_of(*strategy.inst) : std::nullopt; ci && ci->kind == ClassKind::kStrategy) {
    cls = static_cast<StrategyClass>(ci->id);
  }
  // `self._accelerator_flag not in ("cuda", "gpu")`: an accelerator instance is never a name.
  if (cls && row(*cls).needs_gpu && (sel.accelerator != AcceleratorId::kCuda || sel.accelerator_is_instance)) {
    c.fire(RuleId::kFsdpNeedsGpu);
    return c.fail(DiagCode::kStrategyNeedsGpu, {fld("strategy", row(*cls).name), fld("accelerator", sel.accelerator_flag_repr())});
  }
  if (strategy.is_str() && is_fork_alias(strategy.str) && !c.in.hardware.fork) {
    c.fire(RuleId::kForkUnsupported);
    return c.fail(DiagCode::kForkUnsupported, {fld("strategy", strategy)});
  }
  return true;
}

PrecisionPlan plugin_plan(const PrecisionPluginRow& r, std::string value, std::string device = "") {
  PrecisionPlan p;
  p.value = std::move(value);
  p.plugin = r.cls;
  p.device = std::move(device);
  return p;
}

bool strategy_precision(Resolution& c, const PrecisionPluginRow& r, RuleId rule, const std::string& precision, Selection& sel) {
  c.fire(rule);
  if (*r.package && !c.in.hardware.has_package(r.package))
    return c.fail(DiagCode::kPackageMissing, {fld("component", r.cls), fld("package", r.package)});
  bool ok = false;
  for (std::string_view cell(r.accepts); !cell.empty() && !ok;) {  // the `|`-separated values, read in place
    size_t bar = cell.find('|');
    ok = cell.substr(0, bar) == precision;
    cell.remove_prefix(bar == std::string_view::npos ? cell.size() : bar + 1);
  }
  std::string allowed;
  if (!ok)
    for (const auto& a : split_cell(r.accepts)) allowed += (allowed.empty() ? "('" : ", '") + a + "'";
  if (!ok) return c.fail(DiagCode::kPrecisionUnsupported, {fld("precision", PyValue::string(precision)), fld("owner", r.cls), fld("allowed", allowed + ")")});
  sel.precision_plan = plugin_plan(r, precision);
  return true;
}

// PL 2.2.5 fabric/connector.py _check_strategy_and_fallback, Fabric's own fallbacks (on a string flag; the accelerator
// flag is the resolved name, never an instance): fsdp on TPU becomes xla_fsdp, dp on CPU becomes ddp with a warning.
void fabric_fallbacks(Resolution& c, const Selection& sel, const PyValue*& strategy) {
  if (!strategy->is_str() || sel.accelerator_is_instance) return;
  if (py_eq_str(*strategy, "fsdp") && sel.accelerator == AcceleratorId::kXla) {
    c.fire(RuleId::kFsdpToXlaFsdp);
    strategy = &str_value<kXlaFsdp>();
  } else if (py_eq_str(*strategy, "dp") && sel.accelerator == AcceleratorId::kCpu) {
    c.fire(RuleId::kDpCpuFallback);
    c.note(DiagCode::kStrategyCpuFallback, {fld("strategy", "'dp'")});
    strategy = &str_value<kDdp>();
  }
}

}  // namespace

bool select22_strategy(Resolution& c, const FinalFlags& flags, Selection& sel) {
  const PyValue* strategy = &*flags.strategy_flag;  // then the default choice or a fallback: shared values
  if (py_eq_str(*strategy, "auto")) strategy = &default_choice(c, flags, sel);
  if (c.fabric()) fabric_fallbacks(c, sel, strategy);
  if (!fallback_checks(c, sel, *strategy)) return false;
  if (py_eq_str(*strategy, "single_tpu"))
    c.note(DiagCode::kStrategyRenamed, {fld("strategy", "'single_tpu'"), fld("replacement", "'single_xla'")});  // _graveyard/tpu.py
  if (!instantiate_strategy(c, sel, *strategy)) return false;
  // SingleDeviceXLAStrategy(device=<int>): xm.xla_device(n) is the device `xla:<n>`.
  if (row(*sel.strategy_cls).group == StrategyGroup::kTpu && !sel.root_device.empty() &&
      sel.root_device.find_first_not_of("0123456789") == std::string::npos)
    sel.root_device = "xla:" + sel.root_device;
  return true;
}

// PL 2.2.5 _check_and_init_precision and _validate_precision_choice.
bool select22_precision(Resolution& c, const FinalFlags& flags, Selection& sel) {
  if (auto id = instance_row(c, flags.precision_plugin_flag, ClassKind::kPrecisionPlugin)) {
    const auto& r = row(static_cast<PrecisionPluginId>(*id));
    if (static_cast<PrecisionPluginId>(*id) == PrecisionPluginId::kBitsandbytes &&
        (sel.accelerator != AcceleratorId::kCuda)) {
      c.fire(RuleId::kBitsandbytesCuda);
      return c.fail(DiagCode::kBitsandbytesNeedsCuda);
    }
    c.fire(RuleId::kPluginGiven);
    const PyValue& v = flags.precision_plugin_flag->inst->arg("precision");
    const PyValue& d = flags.precision_plugin_flag->inst->arg("device");
    // MixedPrecision's required `device`: the protocol's default device is cuda (as for 1.6's native AMP plugin).
    std::string device = d.is_none() ? (r.id == PrecisionPluginId::kMixedV2 ? "cuda" : "") : py_str(d);
    sel.precision_plan = plugin_plan(r, v.is_absent() ? r.default_precision : py_str(v), device);
    return true;
  }
  using namespace std::string_view_literals;
  const std::string_view p = flags.precision->str;  // compared with literals by size first, then bytes
  const auto& cls = row(*sel.strategy_cls);
  const std::string& text = flags.precision->str;
  if (cls.group == StrategyGroup::kTpu) return strategy_precision(c, row(PrecisionPluginId::kXlaV2), RuleId::kXla, text, sel);
  if (cls.amp == AmpGroup::kDeepSpeed) return strategy_precision(c, row(PrecisionPluginId::kDeepSpeedV2), RuleId::kDeepSpeed, text, sel);
  if (cls.amp == AmpGroup::kFullySharded) return strategy_precision(c, row(PrecisionPluginId::kFsdpV2), RuleId::kFsdp, text, sel);
  if (p == "16-true"sv || p == "bf16-true"sv) {
    c.fire(RuleId::kHalf);
    sel.precision_plan = plugin_plan(row(PrecisionPluginId::kHalfV2), text);
    return true;
  }
  if (p == "32-true"sv || p == "64-true"sv) {
    c.fire(p == "32-true"sv ? RuleId::kFull32 : RuleId::kDouble64);
    sel.precision_plan = plugin_plan(row(p == "32-true"sv ? PrecisionPluginId::kPrecisionV2 : PrecisionPluginId::kDoubleV2), text);
    return true;
  }
  if (p == "transformer-engine"sv || p == "transformer-engine-float16"sv) {
    c.fire(RuleId::kTransformerEngine);
    const auto& r = row(PrecisionPluginId::kTransformerEngine);
    if (!c.in.hardware.has_package(r.package))
      return c.fail(DiagCode::kPackageMissing, {fld("component", r.cls), fld("package", r.package)});
    sel.precision_plan = plugin_plan(r, text);
    return true;
  }
  // `self._accelerator_flag == "cpu"`: the string, not a CPUAccelerator instance.
  bool cpu_flag = sel.accelerator == AcceleratorId::kCpu && !sel.accelerator_is_instance;
  std::string_view value = p;
  if (value == "16-mixed"sv && cpu_flag) {
    c.fire(RuleId::kCpu16ToBf16);
    c.note(DiagCode::kCpuPrecision16);
    value = "bf16-mixed"sv;
  }
  if (value == "16-mixed"sv || value == "bf16-mixed"sv) {
    c.fire(RuleId::kMixed);
    // "Using 16bit Automatic Mixed Precision (AMP)"; Fabric writes "16-bit".
    c.note(DiagCode::kAmpInfo, {fld("kind", value == "16-mixed"sv ? (c.fabric() ? "16-bit" : "16bit") : "bfloat16")});
    sel.precision_plan = plugin_plan(row(PrecisionPluginId::kMixedV2), std::string(value), cpu_flag ? "cpu" : "cuda");
    return true;
  }
  c.fire(RuleId::kPrecisionUnset);
  return c.fail(DiagCode::kPrecisionUnset, {fld("precision", PyValue::string(text))});
}

}  // namespace accord::reference::detail
