// fixpoint_props.cc: a plan's own choices, fed back as explicit flags, resolve to the same choices.
//
// The fed-back case keeps env, hardware, interactive and every other flag, and sets
// accelerator=plan.accelerator, strategy=plan.strategy.name, devices=plan.devices (parsed),
// precision=plan.precision.value (16/32/64 as ints), num_nodes=plan.num_nodes; it drops the legacy
// device flags (gpus, tpu_cores, ipus, num_processes: their effect is now in devices/accelerator)
// and strategy-valued plugins (the strategy is now in strategy=).
// What may legitimately change: notes (deprecations, legacy-flag and fallback warnings disappear once
// the choice is explicit), the trace, root_device of single-device strategies built by name, ranks.
// Exclusions, each for a documented reason:
//   - a strategy instance anywhere (strategy, accelerator or plugins): its components and parameters
//     (cluster_environment, precision_plugin, parallel_devices, ...) are not part of the plan's name;
//   - accelerator instances in lightning-1.6: 1.6.5 does not match instances by kind (_choose_strategy), so
//     `CPUAccelerator()` and `accelerator="cpu"` legitimately differ (e.g. precision 16 on CPU);
//   - accelerator="ddp_cpu" in lightning-1.6: the accelerator becomes CPU after the devices were parsed
//     for the GPU flags (1.6.5 _check_config_and_set_final_flags), so the plan can hold GPU ids on a CPU accelerator (`devices=[0]`);
//   - a precision plugin: precision= is not fed back (spec: same setting twice, decision 4a);
//   - precision written as the flag was (same text, e.g. the string "16"): fed back unchanged, since
//     1.6.5 tells "16" from 16 (_check_and_init_precision) and only the latter meets the apex-on-CPU check;
//   - a precision value that is not a flag spelling (DeepSpeed reports the raw flag: precision=None
//     gives 'None' in 1.6.5, _check_and_init_precision; apex reports 'mixed') is fed back as the original flag;
//   - precision 16 that fell back to bf16 (CPU, TPU; _check_and_init_precision) is fed back as given: 'bf16' has its own
//     amp_backend check (err_bf16_requires_native, _validate_precision_choice) that 16 never meets (apex is ignored there);
//   - tpu_spawn and single_tpu are not constructible by name (err_strategy_tpu_spawn; single_tpu
//     needs a device, _init_strategy): strategy= stays unset and the default rule must pick the same one; a
//     TPU strategy on another accelerator (only reachable as the deprecated accelerator="tpu_spawn",
//     _check_config_and_set_final_flags) has no name to feed back and is excluded.
#include "prop_util.h"

#include "accord/reference/flags.h"
#include "accord/reference/registry.h"

namespace accord::prop {
namespace {
using nlohmann::json;
using reference::Case;
using reference::ClassKind;
using reference::Outcome;
using reference::Profile;
using reference::PyValue;

bool is_kind(const PyValue& v, ClassKind k) {
  if (!v.is_instance()) return false;
  auto ci = reference::class_by_name(v.inst->cls, reference::policy(reference::default_profile()));
  return ci && ci->kind == k;
}

bool names_strategy(const PyValue& v) {
  return is_kind(v, ClassKind::kStrategy) || (v.is_str() && reference::strategy_by_name(v.str, reference::policy(reference::default_profile())));
}

std::vector<PyValue> plugin_list(const PyValue& p) {
  if (p.kind == PyValue::Kind::kList) return p.list;
  if (p.is_none()) return {};
  return {p};
}

/// Why the case is outside the fixpoint property, or "" when it is inside.
std::string excluded(const Case& c, Profile p) {
  const auto& f = c.flags;
  if (is_kind(f.strategy, ClassKind::kStrategy) || is_kind(f.accelerator, ClassKind::kStrategy)) return "strategy instance";
  for (const auto& pl : plugin_list(f.plugins))
    if (is_kind(pl, ClassKind::kStrategy)) return "strategy instance";
  const reference::Policy& pol = reference::policy(p);
  if (!pol.instances_match_by_kind && is_kind(f.accelerator, ClassKind::kAccelerator)) return "accelerator instance (by string)";
  if (!pol.accelerator_ddp_cpu_error && reference::py_eq_str(f.accelerator, "ddp_cpu")) return "accelerator='ddp_cpu' (alias)";
  return "";
}

/// Why the plan is outside the property (see the header), or "".
std::string excluded_plan(const reference::Plan& plan) {
  bool tpu_only = plan.strategy.name == "tpu_spawn" || plan.strategy.name == "single_tpu";
  if (tpu_only && plan.accelerator != "tpu") return "TPU strategy off TPU (accelerator=<strategy name>)";
  return "";
}

PyValue precision_value(const std::string& v) {
  for (int n : {16, 32, 64})
    if (v == std::to_string(n)) return PyValue::integer(n);
  return PyValue::string(v);
}

/// Whether a plan's precision value is a spelling the flag accepts in both profiles (DeepSpeed and
/// given precision plugins report the raw flag, e.g. 'None' for precision=None in 1.6.5; the apex
/// plugin reports its own 'mixed').
bool spelled(const std::string& v) {
  for (const auto& s : reference::precision_spellings())  // the precisions that spellings normalise to (tables/precisions.def)
    if (s.normalize == s.id && v == s.text) return true;
  return false;
}

/// A string spelling that normalises to 16 ('16', '16-mixed').
bool sixteen_string(const PyValue& p) {
  const PyValue* v = p.is_str() ? reference::normalized_precision(p) : nullptr;
  return v && reference::py_eq_int(*v, 16);
}

Case fed_back(const Case& c, const reference::Plan& plan) {
  Case out = c;
  auto& f = out.flags;
  f.accelerator = PyValue::string(std::string(plan.accelerator));
  bool by_name = plan.strategy.name != "tpu_spawn" && plan.strategy.name != "single_tpu";
  f.strategy = by_name ? PyValue::string(std::string(plan.strategy.name)) : PyValue::absent();
  f.devices = plan.devices;
  f.num_nodes = PyValue::integer(plan.num_nodes);
  f.gpus = f.tpu_cores = f.ipus = f.num_processes = PyValue::absent();
  std::vector<PyValue> kept;
  bool precision_plugin = false;
  for (const auto& pl : plugin_list(c.flags.plugins)) {
    if (names_strategy(pl)) continue;
    precision_plugin = precision_plugin || is_kind(pl, ClassKind::kPrecisionPlugin);
    kept.push_back(pl);
  }
  f.plugins = c.flags.plugins.kind == PyValue::Kind::kList || !kept.empty() ? PyValue::make_list(kept) : PyValue::absent();
  bool sixteen_fallback = plan.precision.value == "bf16" && reference::py_eq_int(c.flags.precision, 16);
  bool sixteen_spelling = sixteen_string(c.flags.precision);
  const PyValue& given = c.flags.precision;
  if (precision_plugin) f.precision = PyValue::absent();
  else if (!given.is_absent() && reference::py_str(given) == plan.precision.value) f.precision = given;
  else if (plan.precision.value == "bf16" && (sixteen_fallback || sixteen_spelling)) f.precision = given;
  else if (!spelled(plan.precision.value)) f.precision = given;
  else f.precision = precision_value(plan.precision.value);
  return out;
}

void fixpoint(const Case& c, Profile p) {
  Outcome o = reference::resolve(c, p);
  RC_PRE(o.ok());  // only plans have choices to feed back
  std::string why = excluded(c, p);
  if (why.empty()) why = excluded_plan(o.plan());
  RC_CLASSIFY(!why.empty(), "excluded: " + why);
  if (!why.empty()) return;
  RC_TAG(outcome_tag(o));
  Case again = fed_back(c, o.plan());
  Outcome o2 = reference::resolve(again, p);
  RC_LOG() << "fed back: " << reference::case_to_json(again).dump() << "\n-> " << without_trace(o2).dump() << "\n";
  RC_ASSERT(o2.ok());
  RC_ASSERT(plan_core(o2.plan()).dump() == plan_core(o.plan()).dump());
}

}  // namespace

// The 1.6.5 connector's behaviour (lightning-2.2 differs by design: PL 2.2.5 _AcceleratorConnector; its corpus and
// the differential run against the real 2.2.5 check it instead).
ACCORD_PROP_PROFILES_WHERE(Fixpoint, fixpoint,
                           [](const reference::Policy& pol) { return pol.connector_release == reference::ConnectorRelease::kLightning16; })

}  // namespace accord::prop
