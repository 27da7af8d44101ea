// core_props.cc: totality, determinism and the JSON round trip, for every profile.
#include "prop_util.h"

namespace accord::prop {
namespace {
using nlohmann::json;
using reference::Case;
using reference::Outcome;
using reference::Profile;
using reference::Severity;

// resolve() returns for every case (no crash, no exception) a plan or exactly one error, never an
// error-severity note, and a non-empty trace; a plan names its accelerator, strategy, precision, env.
void totality(const Case& c, Profile p) {
  Outcome o = reference::resolve(c, p);
  RC_TAG(outcome_tag(o));
  json j = reference::outcome_to_json(o);
  RC_ASSERT(j.contains("plan") != j.contains("error"));
  RC_ASSERT(j["status"].get<std::string>() == (o.ok() ? "ok" : "error"));
  RC_ASSERT(!o.trace.empty());
  for (const auto& n : o.notes) RC_ASSERT(reference::severity(n.code) != Severity::kError);
  if (!o.ok()) {
    RC_ASSERT(reference::severity(o.error().code) == Severity::kError);
    return;
  }
  const auto& plan = o.plan();
  RC_ASSERT(!plan.accelerator.empty());
  RC_ASSERT(!plan.strategy.name.empty());
  RC_ASSERT(!plan.strategy.cls.empty());
  RC_ASSERT(!plan.precision.value.empty());
  RC_ASSERT(!plan.precision.plugin.empty());
  RC_ASSERT(!plan.cluster_environment.cls.empty());
}

// The same input gives the same outcome, whatever was resolved before (no hidden state), and resolving into an outcome
// that holds another case's plan or error (its storage reused) gives the outcome of a fresh resolve.
void determinism(const Case& c, Profile p) {
  json first = reference::outcome_to_json(reference::resolve(c, p));
  Case other = *rc::gen::arbitrary<Case>();
  Outcome reused = reference::resolve(other, p);
  Case copy = c;
  json second = reference::outcome_to_json(reference::resolve(copy, p));
  reference::resolve(c, p, reused);
  RC_TAG(first["status"].get<std::string>());
  RC_ASSERT(first.dump() == second.dump());
  RC_ASSERT(reference::outcome_to_json(reused).dump() == first.dump());
}

// case_to_json -> text -> case_from_json gives the same case and the same outcome; the outcome's
// wire form survives its own text form.
void json_round_trip(const Case& c, Profile p) {
  json wire = reference::case_to_json(c);
  json parsed = json::parse(wire.dump());
  Case back;
  std::string error;
  RC_ASSERT(reference::case_from_json(parsed, &back, &error));
  RC_ASSERT(error.empty());
  RC_ASSERT(reference::case_to_json(back).dump() == wire.dump());
  json a = reference::outcome_to_json(reference::resolve(c, p));
  json b = reference::outcome_to_json(reference::resolve(back, p));
  RC_TAG(a["status"].get<std::string>());
  RC_ASSERT(a.dump() == b.dump());
  RC_ASSERT(json::parse(a.dump()) == a);
  RC_ASSERT(json::parse(a.dump()).dump() == a.dump());
}

}  // namespace

ACCORD_PROP_EVERY_PROFILE(Totality, totality)
ACCORD_PROP_EVERY_PROFILE(Determinism, determinism)
ACCORD_PROP_EVERY_PROFILE(JsonRoundTrip, json_round_trip)

}  // namespace accord::prop
