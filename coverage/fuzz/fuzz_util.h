// fuzz_util.h: invariants every fuzz target checks on an outcome of the reference (abort on violation).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "accord/reference/json_io.h"
#include "accord/reference/resolve.h"

namespace accord::fuzz {

/// Aborts with a message, so libFuzzer records the input as a crash.
[[noreturn]] inline void violated(const std::string& what) {
  std::fprintf(stderr, "fuzz invariant violated: %s\n", what.c_str());
  std::abort();
}

/// Resolves `c` under every profile and checks what resolve() guarantees: exactly one result, an error
/// of error severity or a plan, notes that are not errors, a non-empty trace, determinism, and that the
/// outcome serialises to JSON. Returns the default profile's outcome as JSON.
inline nlohmann::json check_resolve(const reference::Case& c) {
  nlohmann::json first;
  for (const auto& info : reference::profiles()) {
    reference::Profile p = info.profile;
    reference::Outcome o = reference::resolve(c, p);
    if (!o.ok() && reference::severity(o.error().code) != reference::Severity::kError)
      violated(std::string("error outcome with a non-error code ") + reference::wire_id(o.error().code));
    for (const auto& n : o.notes)
      if (reference::severity(n.code) == reference::Severity::kError)
        violated(std::string("note with an error code ") + reference::wire_id(n.code));
    if (o.trace.empty()) violated("empty trace");
    nlohmann::json j = reference::outcome_to_json(o);
    (void)j.dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);  // throws on invalid UTF-8
    if (reference::outcome_to_json(reference::resolve(c, p)) != j) violated("resolve is not deterministic");
    if (first.is_null()) first = j;
  }
  return first;
}

/// The JSON wire form round trip: reading case_to_json(c) back resolves to the same outcome.
inline void check_round_trip(const reference::Case& c, const nlohmann::json& outcome) {
  reference::Case back;
  std::string error;
  if (!reference::case_from_json(reference::case_to_json(c), &back, &error)) violated("case_to_json is unreadable: " + error);
  if (reference::outcome_to_json(reference::resolve(back, reference::default_profile())) != outcome)
    violated("the JSON round trip changes the outcome: " + reference::case_to_json(c).dump());
}

}  // namespace accord::fuzz
