// differential_test.cc: difference kinds, shrinking to small cases, and fixture entries.
#include <gtest/gtest.h>

#include <set>

#include "accord/conformance/case_needs.h"
#include "accord/reference/json_io.h"
#include "differential/differential.h"

namespace accord::differential {
namespace {
using nlohmann::json;
namespace cf = accord::conformance;
namespace ref = accord::reference;

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
  EXPECT_TRUE(r.elapsed_baseline.empty());  // no side was asked for its time
}

TEST(Run, TimingModeKeepsEachSidesOwnTimePerCase) {
  auto a = cf::make_reference_adapter(), b = cf::make_reference_adapter();
  a->ask_timing(true);
  Side x{a.get(), "spec", "reference"}, y{b.get(), "spec", "reference"};
  Options opt;
  opt.cases = 50;
  EXPECT_TRUE(run(x, y, opt).elapsed_baseline.empty());  // one side timed: no pair to compare
  b->ask_timing(true);
  Report r = run(x, y, opt);
  ASSERT_EQ(r.elapsed_baseline.size(), 50u);
  ASSERT_EQ(r.elapsed_other.size(), 50u);
  for (size_t k = 0; k < 50; ++k) {
    EXPECT_GE(r.elapsed_baseline[k], 0);
    EXPECT_GE(r.elapsed_other[k], 0);
  }
}

/// The reference, declaring fewer capabilities than it has (as a Lightning 2.x adapter declares no flag:amp_backend).
class Narrowed : public cf::Adapter {
 public:
  explicit Narrowed(std::set<std::string> drop) : inner_(cf::make_reference_adapter()), drop_(std::move(drop)) {}
  bool start(std::string* error) override {
    bool ok = inner_->start(error);
    info_ = inner_->info();
    for (const auto& t : drop_) info_.capabilities.erase(t);
    return ok;
  }
  const cf::ImplementationInfo& info() const override { return info_; }
  cf::AdapterResult resolve(const std::string& id, const std::string& profile, const json& case_json) override {
    asked.push_back(case_json);
    return inner_->resolve(id, profile, case_json);
  }
  void stop() override { inner_->stop(); }
  std::vector<json> asked;

 private:
  std::unique_ptr<cf::Adapter> inner_;
  std::set<std::string> drop_;
  cf::ImplementationInfo info_;
};

TEST(Run, CasesUsingACapabilityASideLacksAreNotAskedAndCountedApart) {
  auto a = cf::make_reference_adapter();
  Narrowed b({"flag:amp_backend", "env:slurm", "accelerator:tpu"});
  std::string err;
  ASSERT_TRUE(a->start(&err) && b.start(&err)) << err;
  Side x{a.get(), "spec", "reference"}, y{&b, "spec", "narrowed"};
  Options opt;
  opt.cases = 400;
  opt.seed = 11;
  std::vector<std::uint64_t> told;  // progress counts every generated case, skipped ones too
  opt.progress = [&](std::uint64_t done, std::uint64_t total) {
    told.push_back(done);
    EXPECT_EQ(total, 400u);
  };
  Report r = run(x, y, opt);
  EXPECT_GT(r.skipped, 0);
  EXPECT_EQ(r.cases + r.skipped, 400);
  EXPECT_EQ(told, (std::vector<std::uint64_t>{1, 51, 101, 151, 201, 251, 301, 351, 400}));
  EXPECT_EQ(r.differing, 0);  // the same resolver on both sides: nothing differs among the cases asked
  EXPECT_GT(r.skipped_by["flag:amp_backend"], 0);
  EXPECT_GT(r.skipped_by["env:slurm"], 0);
  for (const auto& asked : b.asked) {  // no case it cannot handle was sent, shrinking included
    ref::Case c;
    ASSERT_TRUE(ref::case_from_json(asked, &c, &err)) << err;
    for (const auto& tag : cf::case_needs(c)) EXPECT_TRUE(b.info().capabilities.count(tag)) << tag << ": " << asked.dump();
  }
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
