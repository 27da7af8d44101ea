// fallbacks_props.cc: in `spec`, every kept fallback announces itself with a warning (decision 4f).
//
// - a string strategy flag whose resolved strategy differs from it (lower-cased) has a warning whose
//   fields quote the flag (warn_strategy_cluster_fallback is the only fallback spec keeps);
// - precision 16 (any spelling) resolved to bf16 has warn_cpu_precision_16 or warn_tpu_precision_16;
// - SLURM_NTASKS set while the plan's environment is not SLURM, without an explicit cluster
//   environment, has warn_slurm_not_managing.
// lightning-1.6 keeps these fallbacks silent or warns in its own way; only spec is checked.
#include "prop_util.h"

#include "accord/reference/flags.h"
#include "accord/reference/registry.h"

namespace accord::prop {
namespace {
using reference::Case;
using reference::DiagCode;
using reference::Outcome;
using reference::Profile;
using reference::PyValue;
using reference::Severity;

bool has_warning(const Outcome& o, DiagCode code) {
  for (const auto& n : o.notes)
    if (n.code == code && reference::severity(n.code) == Severity::kWarning) return true;
  return false;
}

bool warning_quotes(const Outcome& o, const std::string& text) {
  for (const auto& n : o.notes) {
    if (reference::severity(n.code) != Severity::kWarning) continue;
    for (const auto& f : n.fields)
      if (f.value.find(text) != std::string::npos) return true;
  }
  return false;
}

bool is_sixteen(const PyValue& p) {  // a spelling that normalises to 16 (tables/precisions.def)
  const PyValue* v = reference::normalized_precision(p);
  return v && v->kind == PyValue::Kind::kInt && v->i == 16;
}

bool explicit_cluster_env(const Case& c) {
  auto is_env = [](const PyValue& v) {
    if (!v.is_instance()) return false;
    auto ci = reference::class_by_name(v.inst->cls);
    return ci && ci->kind == reference::ClassKind::kClusterEnvironment;
  };
  const PyValue& pl = c.flags.plugins;
  if (is_env(pl)) return true;
  for (const auto& v : pl.list)
    if (is_env(v)) return true;
  const PyValue& s = c.flags.strategy;
  return s.is_instance() && !s.inst->arg("cluster_environment").is_none();
}

void fallbacks_warn(const Case& c, Profile p) {
  auto o = reference::resolve(c, p);
  RC_PRE(o.ok());
  const auto& plan = o.plan();
  RC_TAG(outcome_tag(o));
  const PyValue& s = c.flags.strategy;
  if (s.is_str() && reference::ascii_lower(s.str) != plan.strategy.name) {
    RC_CLASSIFY(true, "strategy fallback");
    RC_ASSERT(warning_quotes(o, reference::ascii_lower(s.str)));
  }
  if (is_sixteen(c.flags.precision) && plan.precision.value == "bf16") {
    RC_CLASSIFY(true, "precision fallback");
    RC_ASSERT(has_warning(o, DiagCode::kCpuPrecision16) || has_warning(o, DiagCode::kTpuPrecision16));
  }
  if (c.env.count("SLURM_NTASKS") && plan.cluster_environment.cls != "SLURMEnvironment" && !explicit_cluster_env(c)) {
    RC_CLASSIFY(true, "slurm skipped");
    RC_ASSERT(has_warning(o, DiagCode::kSlurmNotManaging));
  }
}

}  // namespace

// Every profile whose policy says that kept fallbacks warn.
ACCORD_PROP_PROFILES_WHERE(FallbacksWarn, fallbacks_warn, [](const reference::Policy& pol) { return pol.fallbacks_warn; })

}  // namespace accord::prop
