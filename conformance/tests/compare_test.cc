// compare_test.cc: outcome vs expectation: partial plans, errors, diagnostics, trace, any_of.
#include <gtest/gtest.h>

#include "accord/conformance/compare.h"
#include "test_support.h"

namespace accord::conformance {
namespace {
using nlohmann::json;
using testing::expectation;

json plan_outcome() {
  return {{"status", "ok"},
          {"plan", {{"accelerator", "gpu"}, {"num_processes", 2}, {"num_nodes", 1}, {"devices", json::array({0, 1})},
                    {"strategy", {{"name", "ddp_spawn"}, {"family", "ddp_spawn"}, {"params", json::object()}}}}},
          {"diagnostics", json::array({{{"code", "info_amp"}, {"fields", json::object()}}})},
          {"trace", json::array({"select.accelerator-auto", "select.strategy-registry"})}};
}

json error_outcome() {
  return {{"status", "error"},
          {"error", {{"code", "err_strategy_ddp_cpu"}, {"fields", {{"strategy", "'ddp_cpu'"}}}, {"message", "Use strategy='ddp' instead."}}},
          {"diagnostics", json::array()},
          {"trace", json::array()}};
}

TEST(Compare, PartialPlanPassesOnListedFieldsOnly) {
  auto c = compare(plan_outcome(), expectation({{"plan", {{"strategy", {{"name", "ddp_spawn"}}}}}}));
  EXPECT_TRUE(c.pass);
  EXPECT_TRUE(c.diffs.empty());
}

TEST(Compare, PlanMismatchNamesThePointerExpectedAndActual) {
  auto c = compare(plan_outcome(), expectation({{"plan", {{"strategy", {{"name", "ddp"}}}, {"num_processes", 2}}}}));
  ASSERT_FALSE(c.pass);
  ASSERT_EQ(c.diffs.size(), 1u);
  EXPECT_EQ(c.diffs[0].pointer, "/plan/strategy/name");
  EXPECT_EQ(c.diffs[0].expected, "ddp");
  EXPECT_EQ(c.diffs[0].actual, "ddp_spawn");
  EXPECT_EQ(format_diffs(c.diffs), "  /plan/strategy/name: expected \"ddp\", got \"ddp_spawn\"\n");
}

TEST(Compare, MissingFieldIsReportedAsMissing) {
  auto c = compare(plan_outcome(), expectation({{"plan", {{"layer_sync", nullptr}}}}));
  ASSERT_EQ(c.diffs.size(), 1u);
  EXPECT_EQ(c.diffs[0].pointer, "/plan/layer_sync");
  EXPECT_EQ(c.diffs[0].note, "missing");
  EXPECT_EQ(format_diffs(c.diffs), "  /plan/layer_sync: expected null, got nothing\n");
}

TEST(Compare, ArraysAndEmptyObjectsCompareExactly) {
  EXPECT_FALSE(compare(plan_outcome(), expectation({{"plan", {{"devices", {0}}}}})).pass);
  EXPECT_TRUE(compare(plan_outcome(), expectation({{"plan", {{"devices", {0, 1}}}}})).pass);
  // An expected {} is an object: every listed key (none) matches, so it only asks for an object.
  EXPECT_TRUE(compare(plan_outcome(), expectation({{"plan", {{"strategy", {{"params", json::object()}}}}}})).pass);
}

TEST(Compare, DeterminismEnvIsComparedWhole) {
  json o = plan_outcome();
  o["plan"]["determinism"] = {{"env", {{"CUBLAS_WORKSPACE_CONFIG", ":4096:8"}, {"HOROVOD_FUSION_THRESHOLD", "0"}}}};
  // the variables set are a set of answers: one the implementation adds is a difference, {} means none
  auto c = compare(o, expectation({{"plan", {{"determinism", {{"env", {{"CUBLAS_WORKSPACE_CONFIG", ":4096:8"}}}}}}}}));
  ASSERT_FALSE(c.pass);
  EXPECT_EQ(c.diffs[0].pointer, "/plan/determinism/env");
  EXPECT_FALSE(compare(o, expectation({{"plan", {{"determinism", {{"env", json::object()}}}}}})).pass);
  EXPECT_TRUE(compare(o, expectation({{"plan", {{"determinism", {{"env", o["plan"]["determinism"]["env"]}}}}}})).pass);
}

TEST(Compare, PlanExpectedButErrorGivenFailsOnStatus) {
  auto c = compare(error_outcome(), expectation({{"plan", {{"accelerator", "cpu"}}}}));
  ASSERT_EQ(c.diffs.size(), 1u);
  EXPECT_EQ(c.diffs[0].pointer, "/status");
  EXPECT_NE(c.diffs[0].note.find("err_strategy_ddp_cpu"), std::string::npos);
}

TEST(Compare, ErrorChecksCodeFieldsValuesAndMessage) {
  EXPECT_TRUE(compare(error_outcome(), expectation({{"error", {{"code", "err_strategy_ddp_cpu"}, {"fields", {"strategy"}},
                                                               {"field_values", {{"strategy", "'ddp_cpu'"}}},
                                                               {"message_regex", "strategy='ddp'"}}}}))
                  .pass);
  auto c = compare(error_outcome(), expectation({{"error", {{"code", "err_flag_conflict"}, {"fields", {"accelerator"}},
                                                            {"field_values", {{"strategy", "'ddp'"}}},
                                                            {"message_regex", "^nothing like it$"}}}}));
  ASSERT_EQ(c.diffs.size(), 4u);
  EXPECT_EQ(c.diffs[0].pointer, "/error/code");
  EXPECT_EQ(c.diffs[1].pointer, "/error/fields/accelerator");
  EXPECT_EQ(c.diffs[2].pointer, "/error/fields/strategy");
  EXPECT_EQ(c.diffs[2].actual, "'ddp_cpu'");
  EXPECT_EQ(c.diffs[3].pointer, "/error/message");
}

TEST(Compare, ErrorExpectedButPlanGiven) {
  auto c = compare(plan_outcome(), expectation({{"error", {{"code", "err_strategy_ddp_cpu"}}}}));
  ASSERT_EQ(c.diffs.size(), 1u);
  EXPECT_EQ(c.diffs[0].pointer, "/status");
  EXPECT_NE(c.diffs[0].note.find("ddp_spawn/gpu/2"), std::string::npos);
}

TEST(Compare, DiagnosticsPresentAbsentAndExact) {
  json base = {{"plan", {{"accelerator", "gpu"}}}};
  json e = base;
  e["diagnostics"] = {"info_amp"};
  EXPECT_TRUE(compare(plan_outcome(), expectation(e)).pass);
  e["diagnostics"] = {"warn_slurm_not_managing"};
  auto c = compare(plan_outcome(), expectation(e));
  ASSERT_EQ(c.diffs.size(), 1u);
  EXPECT_EQ(c.diffs[0].pointer, "/diagnostics");
  e = base;
  e["diagnostics_absent"] = {"info_amp"};
  c = compare(plan_outcome(), expectation(e));
  ASSERT_EQ(c.diffs.size(), 1u);
  EXPECT_EQ(c.diffs[0].pointer, "/diagnostics/0/code");
  e = base;
  e["diagnostics_exact"] = true;  // with no diagnostics listed: there must be none
  c = compare(plan_outcome(), expectation(e));
  ASSERT_EQ(c.diffs.size(), 1u);
  EXPECT_NE(c.diffs[0].note.find("diagnostics_exact"), std::string::npos);
}

TEST(Compare, TraceIncludesIsCheckedOnlyWhenAsked) {
  json e = {{"plan", {{"accelerator", "gpu"}}}, {"trace_includes", {"select.strategy-registry"}}};
  EXPECT_TRUE(compare(plan_outcome(), expectation(e)).pass);
  e["trace_includes"] = {"select.cluster-env-slurm"};
  auto c = compare(plan_outcome(), expectation(e));
  ASSERT_EQ(c.diffs.size(), 1u);
  EXPECT_EQ(c.diffs[0].pointer, "/trace");
  EXPECT_TRUE(compare(plan_outcome(), expectation(e), /*check_trace=*/false).pass);
}

TEST(Compare, AnyOfPassesWhenOneAlternativeHolds) {
  json e = {{"any_of", {{{"error", {{"code", "err_flag_conflict"}}}}, {{"plan", {{"strategy", {{"name", "ddp_spawn"}}}}}}}}};
  EXPECT_TRUE(compare(plan_outcome(), expectation(e)).pass);
  e = {{"any_of", {{{"plan", {{"accelerator", "cpu"}}}}, {{"plan", {{"accelerator", "tpu"}}}}}}};
  auto c = compare(plan_outcome(), expectation(e));
  ASSERT_EQ(c.diffs.size(), 2u);
  EXPECT_EQ(c.diffs[0].note, "any_of[0]");
  EXPECT_EQ(c.diffs[1].note, "any_of[1]");
}

TEST(Compare, AnyOfStillChecksTheOuterDiagnostics) {
  json e = {{"any_of", {{{"plan", {{"accelerator", "gpu"}}}}, {{"plan", {{"accelerator", "cpu"}}}}}},
            {"diagnostics", {"warn_slurm_not_managing"}}};
  EXPECT_FALSE(compare(plan_outcome(), expectation(e)).pass);
}

TEST(Compare, MalformedOutcomeFails) {
  auto e = expectation({{"plan", {{"accelerator", "gpu"}}}});
  EXPECT_FALSE(compare(json("not an object"), e).pass);
  EXPECT_FALSE(compare(json{{"status", "maybe"}}, e).pass);
  auto c = compare(json{{"status", "ok"}, {"plan", 3}}, e);
  ASSERT_EQ(c.diffs.size(), 1u);
  EXPECT_EQ(c.diffs[0].note, "expected an object");
}

TEST(Compare, ChecksNothing) {
  EXPECT_TRUE(checks_nothing(expectation({{"plan", json::object()}})));
  EXPECT_FALSE(checks_nothing(expectation({{"plan", json::object()}, {"diagnostics", {"info_amp"}}})));
  EXPECT_FALSE(checks_nothing(expectation({{"plan", json::object()}, {"diagnostics_exact", true}})));
  EXPECT_FALSE(checks_nothing(expectation({{"error", {{"code", "err_flag_conflict"}}}})));
  EXPECT_TRUE(checks_nothing(expectation({{"any_of", {{{"plan", json::object()}}, {{"plan", {{"accelerator", "cpu"}}}}}}})));
}

TEST(Compare, OutcomeClassAndFingerprint) {
  EXPECT_EQ(outcome_class(plan_outcome()), "ddp_spawn/gpu/2");
  json multi = plan_outcome();
  multi["plan"]["num_nodes"] = 4;
  EXPECT_EQ(outcome_class(multi), "ddp_spawn/gpu/2x4");
  EXPECT_EQ(outcome_class(error_outcome()), "err_strategy_ddp_cpu");
  EXPECT_EQ(outcome_class(json(nullptr)), "invalid outcome");
  json other = error_outcome();
  other["error"]["message"] = "different words";
  other["trace"] = {"validate.strategy-ddp-cpu"};
  EXPECT_EQ(outcome_fingerprint(other), outcome_fingerprint(error_outcome()));
  other["error"]["fields"]["strategy"] = "'ddp'";
  EXPECT_NE(outcome_fingerprint(other), outcome_fingerprint(error_outcome()));
}

}  // namespace
}  // namespace accord::conformance
