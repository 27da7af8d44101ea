// variants.cc: the inputs that put a generated probe into each value of each dimension.
#include "accord/reference/registry.h"
#include "dimension_tables.h"

namespace accord::coverage {
namespace {
using reference::Case;
using reference::PyValue;

Variant set_flag(std::string label, PyValue reference::UserFlags::*m, PyValue v) {
  return {std::move(label), [m, v](Case& c) { c.flags.*m = v; }};
}

std::vector<Variant> accelerator_variants(const std::string& value) {
  if (value == "None") return {set_flag("accelerator=None", &reference::UserFlags::accelerator, PyValue::absent())};
  if (value == "auto") return {set_flag("accelerator='auto'", &reference::UserFlags::accelerator, PyValue::string("auto"))};
  std::string cls(reference::row(*reference::accelerator_by_name(value, reference::policy(reference::default_profile()))).cls);
  return {set_flag("accelerator='" + value + "'", &reference::UserFlags::accelerator, PyValue::string(value)),
          set_flag("accelerator=" + cls + "()", &reference::UserFlags::accelerator, PyValue::instance(cls))};
}

std::vector<Variant> strategy_variants(const std::string& value) {
  auto m = &reference::UserFlags::strategy;
  if (value == "None") return {set_flag("strategy=None", m, PyValue::absent())};
  std::vector<Variant> out;
  const reference::StrategyClassRow* cls = nullptr;
  const auto& vocab = reference::policy(reference::default_profile());  // the enumeration's vocabulary
  for (const auto& r : reference::strategy_classes())
    if (value == r.name && reference::in_profile(r, vocab)) cls = &r;
  for (const auto& s : reference::strategies())
    if (s.cls == cls->id && reference::in_profile(s, vocab)) {
      const std::string name(s.name);
      out.push_back(set_flag("strategy='" + name + "'", m, PyValue::string(name)));
    }
  const std::string cls_name(cls->cls);
  out.push_back(set_flag("strategy=" + cls_name + "()", m, PyValue::instance(cls_name)));
  if (const char* dev = detail::strategy_device_arg(cls_name))
    out.push_back(set_flag("strategy=" + cls_name + "(device='" + dev + "')", m,
                           PyValue::instance(cls_name, {{"device", PyValue::string(dev)}})));
  return out;
}

std::vector<Variant> precision_variants(int v) {
  auto m = &reference::UserFlags::precision;
  if (v == detail::value_index(Dim::kPrecision, "default")) return {set_flag("precision=<default>", m, PyValue::absent())};
  std::vector<Variant> out;
  for (const auto& s : detail::precision_spellings(v)) out.push_back(set_flag("precision=" + reference::repr(s), m, s));
  return out;
}

std::vector<Variant> cluster_variants(const std::string& value) {
  if (value == "none") return {{"env={}", [](Case& c) { c.env.clear(); }}};
  if (value == "explicit")
    return {{"plugins=[LightningEnvironment()]",
             [](Case& c) { c.flags.plugins = PyValue::make_list({PyValue::instance("LightningEnvironment")}); }}};
  const char* marker = nullptr;
  const auto* vars = detail::env_vars_of(value, &marker);
  std::vector<std::string> marker_values = {"1"};
  if (value == "slurm") marker_values = {"1", "2", "4", "8"};  // SLURM manages the tasks only when they match
  std::vector<Variant> out;
  for (const auto& mv : marker_values) {
    std::string m = marker;
    out.push_back({value + " env (" + m + "=" + mv + ")", [vars, m, mv](Case& c) {
                     c.env.clear();
                     for (const auto& [k, x] : *vars) c.env[k] = x;
                     c.env[m] = mv;
                   }});
  }
  return out;
}

std::vector<Variant> hardware_variants(int v) {
  std::vector<Variant> out;
  for (const auto& h : detail::hardware_facts(v)) {
    std::string label = dim_values(Dim::kHardware)[static_cast<size_t>(v)];
    if (h.cuda_devices > 1) label += " (" + std::to_string(h.cuda_devices) + " GPUs)";
    out.push_back({label, [h](Case& c) { c.hardware = h; }});
  }
  return out;
}

std::vector<Variant> legacy_variants(const std::string& value) {
  const auto& flags = detail::legacy_flags();
  auto clear = [flags](Case& c) {
    for (auto m : flags) c.flags.*m = PyValue::absent();
  };
  if (value == "none") return {{"no legacy flag", clear}};
  if (value == "several")
    return {{"num_processes=1, gpus=1", [clear](Case& c) {
               clear(c);
               c.flags.num_processes = PyValue::integer(1);
               c.flags.gpus = PyValue::integer(1);
             }}};
  for (size_t k = 0; k < flags.size(); ++k)
    if (value == detail::legacy_flag_name(k)) {
      auto m = flags[k];
      return {{value + "=1", [clear, m](Case& c) {
                 clear(c);
                 c.flags.*m = PyValue::integer(1);
               }}};
    }
  return {};  // LCOV_EXCL_LINE unreachable: every legacy value is listed above
}

// Writes the device request: into every given legacy flag when there is one, else into `devices`.
std::vector<Variant> form_variants(int v) {
  std::vector<Variant> out;
  for (const auto& x : detail::form_examples(v)) {
    out.push_back({"device request " + (x.is_absent() ? std::string("<absent>") : reference::repr(x)), [x](Case& c) {
                     bool legacy = false;
                     for (auto m : detail::legacy_flags())
                       if (!(c.flags.*m).is_none()) {
                         c.flags.*m = x;
                         legacy = true;
                       }
                     if (!legacy) c.flags.devices = x;
                   }});
  }
  return out;
}

}  // namespace

std::vector<Variant> variants(Dim d, int v) {
  const std::string& value = dim_values(d)[static_cast<size_t>(v)];
  switch (d) {
    case Dim::kAccelerator: return accelerator_variants(value);
    case Dim::kStrategy: return strategy_variants(value);
    case Dim::kPrecision: return precision_variants(v);
    case Dim::kClusterEnv: return cluster_variants(value);
    case Dim::kHardware: return hardware_variants(v);
    case Dim::kLegacy: return legacy_variants(value);
    case Dim::kDevicesForm: return form_variants(v);
  }
  return {};  // LCOV_EXCL_LINE unreachable: every dimension returns above
}

}  // namespace accord::coverage
