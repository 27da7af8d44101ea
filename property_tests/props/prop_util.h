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
/// Every profile of tables/profiles.def, and a profile's wire name as a gtest parameter name (`lightning_1_6`).
std::vector<reference::Profile> all_profiles();
std::string profile_param_name(const ::testing::TestParamInfo<reference::Profile>& info);

}  // namespace accord::prop

/// Defines the property `Profiles/Suite.Holds/<profile>` from `Check(const Case&, Profile)`, once per profile of the
/// profile table; each runs RapidCheck with the RC_PARAMS budget.
#define ACCORD_PROP_EVERY_PROFILE(Suite, Check) ACCORD_PROP_PROFILES_WHERE(Suite, Check, [](const auto&) { return true; })
/// The same for the profiles whose policies satisfy `Where(const Policy&)`; the others are skipped.
#define ACCORD_PROP_PROFILES_WHERE(Suite, Check, Where)                                                           \
  class Suite : public ::testing::TestWithParam<accord::reference::Profile> {};                                   \
  TEST_P(Suite, Holds) {                                                                                          \
    const accord::reference::Profile profile = GetParam();                                                        \
    if (!(Where)(accord::reference::policy(profile))) GTEST_SKIP() << "the property does not apply to this profile"; \
    EXPECT_TRUE(rc::check(#Suite, [profile](const accord::reference::Case& c) { Check(c, profile); }));           \
  }                                                                                                               \
  INSTANTIATE_TEST_SUITE_P(Profiles, Suite, ::testing::ValuesIn(accord::prop::all_profiles()),                    \
                           accord::prop::profile_param_name);
