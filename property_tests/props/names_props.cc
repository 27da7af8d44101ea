// names_props.cc: strategy names are case-insensitive; accelerator names are not.
//
// Strategy (both profiles, 1.6.1+ lower-cases the flag): any casing of a registered name gives the
// same result, error code and note codes as the lower-case name. Error fields may differ: they quote
// the flag as the user wrote it (decision 7).
// Accelerator, spec: a wrong-case name is err_accelerator_unknown listing every valid name, unless an
// earlier stage already fails, which it then does identically without the accelerator flag.
// Accelerator, lightning-1.6: a wrong-case name is silently ignored (1.6.5 _check_config_and_set_final_flags): the outcome equals the
// outcome without the flag, apart from the trace.
#include "prop_util.h"

#include "accord/reference/registry.h"

namespace accord::prop {
namespace {
using reference::Case;
using reference::Profile;
using reference::PyValue;

void strategy_any_case(Case c, Profile p) {
  std::string name = *gen_recased_strategy_name();
  c.flags.strategy = PyValue::string(reference::ascii_lower(name));
  auto lower = reference::resolve(c, p);
  c.flags.strategy = PyValue::string(name);
  auto mixed = reference::resolve(c, p);
  RC_TAG(outcome_tag(lower));
  RC_ASSERT(mixed.ok() == lower.ok());
  if (lower.ok()) RC_ASSERT(without_trace(mixed)["plan"].dump() == without_trace(lower)["plan"].dump());
  else RC_ASSERT(mixed.error().code == lower.error().code);
  RC_ASSERT(note_codes(mixed) == note_codes(lower));
}

void accelerator_wrong_case(Case c, Profile p) {
  std::string name = *gen_wrong_case_accelerator_name();
  c.flags.accelerator = PyValue::string(name);
  auto o = reference::resolve(c, p);
  Case without = c;
  without.flags.accelerator = PyValue::absent();
  auto base = reference::resolve(without, p);
  RC_TAG(outcome_tag(o));
  if (!reference::policy(p).accelerator_unknown_error) {
    RC_ASSERT(without_trace(o).dump() == without_trace(base).dump());
    return;
  }
  RC_ASSERT(!o.ok());
  if (o.error().code != reference::DiagCode::kAcceleratorUnknown) {
    RC_ASSERT(!base.ok());
    RC_ASSERT(base.error().code == o.error().code);
    return;
  }
  RC_ASSERT(o.error().field("accelerator") == reference::repr(c.flags.accelerator));
  auto allowed = o.error().field("allowed").value_or("");  // "['auto', 'cpu', ...]" (spec) or "auto, cpu, ..." (2.2.5)
  RC_ASSERT(allowed.find("auto") != std::string::npos);
  for (const auto& a : reference::accelerators())
    if (reference::in_profile(a, reference::policy(p))) RC_ASSERT(allowed.find(a.name) != std::string::npos);
}

}  // namespace

ACCORD_PROP_EVERY_PROFILE(StrategyAnyCase, strategy_any_case)
ACCORD_PROP_EVERY_PROFILE(AcceleratorWrongCase, accelerator_wrong_case)

}  // namespace accord::prop
