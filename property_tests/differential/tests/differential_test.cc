// differential_test.cc: difference kinds, shrinking to small cases, and fixture entries.
#include <gtest/gtest.h>

#include "accord/reference/json_io.h"
#include "differential/differential.h"

namespace accord::differential {
namespace {
using nlohmann::json;
namespace cf = accord::conformance;

cf::AdapterResult ok(const char* outcome) { return {cf::ResultStatus::kOk, json::parse(outcome), ""}; }

TEST(DifferenceKind, NamesTheFirstDifference) {
  auto plan = ok(R"({"status": "ok", "plan": {"accelerator": "cpu", "num_nodes": 1}, "diagnostics": []})");
  auto plan_unsigned = plan;
  plan_unsigned.outcome["plan"]["num_nodes"] = json(1u);
  EXPECT_EQ(difference_kind(plan, plan_unsigned), "");  // 1 and 1u are the same number
  auto gpu = ok(R"({"status": "ok", "plan": {"accelerator": "gpu", "num_nodes": 1}, "diagnostics": []})");
  EXPECT_EQ(difference_kind(plan, gpu), "plan:/accelerator");
  auto err = ok(R"({"status": "error", "error": {"code": "err_a"}, "diagnostics": []})");
  auto err2 = ok(R"({"status": "error", "error": {"code": "err_b"}, "diagnostics": [{"code": "warn_x"}]})");
  EXPECT_EQ(difference_kind(plan, err), "status:ok/error");
  EXPECT_EQ(difference_kind(err, err2), "error:err_a/err_b");
  auto err_warn = ok(R"({"status": "error", "error": {"code": "err_a"}, "diagnostics": [{"code": "warn_x"}]})");
  EXPECT_EQ(difference_kind(err, err_warn), "diagnostics:+warn_x-");
  cf::AdapterResult crashed{cf::ResultStatus::kCrashed, nullptr, "boom"};
  EXPECT_EQ(difference_kind(plan, crashed), "fault:ok/crashed");
}

TEST(MinimalCase, DropsDefaults) {
  json full = json::parse(R"({"flags": {"devices": 2}, "env": {}, "interactive": false,
    "hardware": {"cuda_devices": 2, "mps": false, "fork": true, "packages": [], "gpu_busy": []}})");
  EXPECT_EQ(minimal_case_json(full), json::parse(R"({"flags": {"devices": 2}, "hardware": {"cuda_devices": 2}})"));
}

TEST(CaseStream, WithoutPackagesIsTheSameStreamWithNoPackages) {
  CaseStream plain(7), bare(7, true);
  int had_packages = 0;
  for (int k = 0; k < 300; ++k) {
    reference::Case p = plain.next().value(), q = bare.next().value();
    had_packages += !p.hardware.packages.empty();
    EXPECT_TRUE(q.hardware.packages.empty()) << k;
    p.hardware.packages.clear();
    EXPECT_EQ(reference::case_to_json(p), reference::case_to_json(q)) << k;  // only the packages differ
  }
  EXPECT_GT(had_packages, 100);  // the plain stream does declare packages, so the option changes something
}

TEST(Run, ReferenceAgainstItselfFindsNothing) {
  auto a = cf::make_reference_adapter(), b = cf::make_reference_adapter();
  Side x{a.get(), "spec", "reference"}, y{b.get(), "spec", "reference"};
  Options opt;
  opt.cases = 300;
  Report r = run(x, y, opt);
  EXPECT_EQ(r.cases, 300);
  EXPECT_EQ(r.differing, 0);
}

TEST(Run, ProfilesDifferAndShrinkToSmallFixtures) {
  auto a = cf::make_reference_adapter(), b = cf::make_reference_adapter();
  Side x{a.get(), "spec", "reference"}, y{b.get(), "lightning-1.6", "reference"};
  Options opt;
  opt.cases = 300;
  opt.seed = 7;
  Report r = run(x, y, opt);
  ASSERT_GT(r.differing, 0);
  ASSERT_FALSE(r.findings.empty());
  for (const auto& f : r.findings) {
    EXPECT_EQ(difference_kind(f.baseline, f.other), f.kind);  // the shrunk case still shows its kind
    EXPECT_LE(f.given.value("flags", json::object()).size(), 4u) << f.kind << ": " << f.given.dump();
    json fx = fixture_for(f, "spec", "reference", 7);
    EXPECT_EQ(fx["origin"], "regression-snapshot");
    EXPECT_EQ(fx["id"].get<std::string>().rfind("regressions/differential-", 0), 0u);
    EXPECT_FALSE(fx["expect"].contains("any_of"));
    EXPECT_EQ(fx["expect"].contains("plan"), f.baseline.outcome["status"] == "ok");
    json oracle = fixture_for(f, "lightning-1.6", "reference", 7, {true, "lightning-1.6.5"});
    EXPECT_EQ(oracle["origin"], "lightning-1.6.5");
    EXPECT_EQ(oracle["expect"].contains("plan"), f.other.outcome["status"] == "ok");
  }
}

TEST(Fixture, NoFixtureWhenTheChosenSideGaveNoOutcome) {
  Finding f;
  f.kind = "status";
  f.given = json::object();
  f.baseline.outcome = nullptr;  // e.g. an oracle adapter that skipped the case
  f.other.outcome = json::parse(R"({"status": "ok", "plan": {"accelerator": "cpu"}, "diagnostics": []})");
  EXPECT_TRUE(fixture_for(f, "spec", "x", 1).is_null());
  EXPECT_FALSE(fixture_for(f, "spec", "x", 1, {true, "lightning-1.6.5"}).is_null());
}

}  // namespace
}  // namespace accord::differential
