// profile_inheritance_test.cc: fixture cases follow the parent chain of tables/profiles.def. The test-only child
// profile of reference/tests/data/demo_profile.def inherits every lightning-1.6 case; the whole corpus runs on it
// in-process, and the only cases that fail are the ones its one overridden policy (num_nodes_positive) changes.
#include <gtest/gtest.h>

#include <algorithm>

#include "accord/conformance/fixture.h"
#include "accord/conformance/loader.h"
#include "accord/conformance/report.h"
#include "accord/conformance/runner.h"
#include "demo_profile.h"

namespace accord::conformance {
namespace {
using nlohmann::json;

Fixture fixture(std::vector<std::string> profiles, std::vector<std::string> except = {}) {
  Fixture f;
  f.id = "x/y";
  f.profiles = std::move(profiles);
  f.profiles_except = std::move(except);
  f.has_expect = true;
  f.expect.pointer = "/cases/0/expect";
  return f;
}

TEST(ProfileInheritance, ACaseOfTheParentAppliesToAnInheritingChild) {
  const std::string demo = reference::profile_name(reference::testing::demo_profile());
  EXPECT_TRUE(fixture({"lightning-1.6"}).applies_to(demo));
  EXPECT_TRUE(fixture({}).applies_to(demo));  // a default case of the parent
  EXPECT_FALSE(fixture({"spec"}).applies_to(demo));
  EXPECT_FALSE(fixture({"lightning-1.6"}, {demo}).applies_to(demo));  // profiles_except stops the inheritance
  EXPECT_TRUE(fixture({demo}).applies_to(demo));
  // spec is a child of lightning-1.6 that does not inherit cases (its corpus lists it by name).
  EXPECT_FALSE(fixture({"lightning-1.6"}).applies_to("spec"));
  EXPECT_TRUE(fixture({}).applies_to("spec"));
  EXPECT_FALSE(fixture({}).applies_to("no-such-profile"));
  EXPECT_TRUE(fixture({"no-such-profile"}).applies_to("no-such-profile"));
}

TEST(ProfileInheritance, TheChildTakesTheParentsExpectationUnlessItHasItsOwn) {
  const std::string demo = reference::profile_name(reference::testing::demo_profile());
  Fixture f = fixture({"spec", "lightning-1.6"});
  f.expect_by_profile["lightning-1.6"].pointer = "/cases/0/expect_by_profile/lightning-1.6";
  EXPECT_EQ(f.expectation_for(demo)->pointer, "/cases/0/expect_by_profile/lightning-1.6");
  EXPECT_EQ(f.expectation_for("spec")->pointer, "/cases/0/expect");  // spec is listed: its own chain stops there
  f.expect_by_profile[demo].pointer = "/cases/0/expect_by_profile/" + demo;
  EXPECT_EQ(f.expectation_for(demo)->pointer, "/cases/0/expect_by_profile/" + demo);
}

// The child's answer is the error of the one rule its override adds (a num_nodes the parent accepts).
bool rejected_by_the_extra_rule(const json& outcome) {
  if (!outcome.is_object() || outcome.value("status", "") != "error") return false;
  const json& trace = outcome.value("trace", json::array());
  return outcome["error"].value("code", "") == "err_num_nodes_invalid" &&
         std::find(trace.begin(), trace.end(), "validate.num-nodes-positive") != trace.end();
}

TEST(ProfileInheritance, TheWholeCorpusRunsOnTheChild) {
  const std::string demo = reference::profile_name(reference::testing::demo_profile());
  Corpus corpus = load_corpus(ACCORD_FIXTURES_DIR);
  ASSERT_TRUE(corpus.errors.empty());
  RunOptions parent_options, child_options;
  parent_options.profile = "lightning-1.6";
  child_options.profile = demo;
  EXPECT_EQ(select_cases(corpus.fixtures, child_options).size(), select_cases(corpus.fixtures, parent_options).size());
  Runner runner([] { return make_reference_adapter(); }, child_options);
  std::string error;
  ASSERT_TRUE(runner.start(&error)) << error;
  CollectingSink sink;
  Summary s = runner.run(corpus.fixtures, ACCORD_FIXTURES_DIR, sink);
  std::size_t passed = 0, failed = 0;
  for (const auto& r : sink.results) {
    if (r.verdict == Verdict::kPassed) ++passed;
    if (r.verdict != Verdict::kFailed) continue;
    ++failed;
    EXPECT_TRUE(rejected_by_the_extra_rule(r.outcome)) << r.id << " fails on " << demo << " for another reason: " << r.outcome.dump();
  }
  EXPECT_GT(passed, 1000u);
  EXPECT_GT(failed, 0u);  // the override changes some inherited outcome
  EXPECT_EQ(s.selected, sink.results.size());
}

}  // namespace
}  // namespace accord::conformance
