// prop_util.h: helpers shared by the property files: outcome views, tags, and the per-profile macro.
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "accord/reference/json_io.h"
#include "accord/reference/resolve.h"
#include "gen/case.h"

namespace accord::prop {

/// The outcome on the wire without its trace (what two resolutions that took different paths share).
nlohmann::json without_trace(const reference::Outcome& o);
/// Status and plan or error only (no notes, no trace).
nlohmann::json result_only(const reference::Outcome& o);
/// The sorted wire ids of the notes.
std::vector<std::string> note_codes(const reference::Outcome& o);
/// `gpu/ddp_spawn` for a plan, the error code otherwise (for RC_TAG).
std::string outcome_tag(const reference::Outcome& o);
/// The plan's values as JSON, for messages: accelerator, strategy, devices, precision, num_nodes.
nlohmann::json plan_core(const reference::Plan& p);

}  // namespace accord::prop

/// Defines the property `Suite.Spec` and `Suite.Lightning16` from `check(const Case&, Profile)`.
#define ACCORD_PROP_BOTH_PROFILES(Suite, check)                                                                      \
  RC_GTEST_PROP(Suite, Spec, (const accord::reference::Case& c)) { check(c, accord::reference::Profile::kSpec); }     \
  RC_GTEST_PROP(Suite, Lightning16, (const accord::reference::Case& c)) {                                            \
    check(c, accord::reference::Profile::kLightning16);                                                              \
  }
