// profiles_test.cc: the profile table (tables/profiles.def, policies.def, policy_overrides.def) and what follows
// from it: parents, policies, rule membership, run-time profiles (the test-only profile of data/demo_profile.def).
#include <algorithm>
#include <set>

#include "demo_profile.h"
#include "test_util.h"

namespace accord::reference::testing {
namespace {

TEST(ProfilesTable, NamesAreUniqueAndParentsExist) {
  std::set<std::string> names;
  for (const auto& p : profiles()) {
    EXPECT_TRUE(names.insert(p.name).second) << p.name;
    EXPECT_EQ(profile_name(p.profile), p.name);
    Profile back;
    ASSERT_TRUE(parse_profile(p.name, &back));
    EXPECT_EQ(back, p.profile);
    EXPECT_FALSE(p.release.empty());
    EXPECT_FALSE(p.description.empty());
    int depth = 0;  // the chain ends at a root
    for (std::optional<Profile> q = p.parent; q; q = profile_info(*q).parent) ASSERT_LT(++depth, 64) << p.name;
  }
  EXPECT_EQ(profile_info(default_profile()).name, profiles().front().name);
  Profile unused;
  EXPECT_FALSE(parse_profile("Spec", &unused));
  EXPECT_FALSE(parse_profile("", &unused));
}

TEST(ProfilesTable, PolicyIsTheParentsWithTheOverrides) {
  for (const auto& p : profiles()) {
    Policy expected = p.parent ? policy(*p.parent) : Policy{};
    for (const auto& name : policy_names()) {
      std::string want = *policy_value(expected, name);
      for (const auto& o : p.overrides)
        if (o.policy == name) want = o.value;
      EXPECT_EQ(*policy_value(p.policy, name), want) << p.name << " " << name;
    }
  }
}

TEST(ProfilesTable, EveryOverrideChangesItsParentsValue) {
  for (const auto& p : profiles()) {
    std::set<std::string> seen;
    for (const auto& o : p.overrides) {
      EXPECT_TRUE(seen.insert(o.policy).second) << p.name << " overrides " << o.policy << " twice";
      ASSERT_TRUE(p.parent) << p.name << ": a root profile has no overrides (set the policy's root value instead)";
      EXPECT_NE(*policy_value(policy(*p.parent), o.policy), o.value) << p.name << " " << o.policy << " repeats its parent";
      EXPECT_GT(o.reason.size(), 10u) << p.name << " " << o.policy;
    }
  }
}

TEST(ProfilesTable, GatesNamePolicies) {
  const auto& names = policy_names();
  std::set<std::string> gating;
  for (int k = 0; k < rule_count(); ++k) {
    auto g = rule_gate(static_cast<RuleId>(k));
    if (!g) continue;
    EXPECT_NE(std::find(names.begin(), names.end(), g->policy), names.end()) << rule_wire(static_cast<RuleId>(k));
    gating.insert(g->policy);
  }
  // A gated rule belongs to exactly the profiles whose policy has one of the gate's values (`a|b`).
  auto one_of = [](const std::string& value, const std::string& values) {
    return ("|" + values + "|").find("|" + value + "|") != std::string::npos;
  };
  for (int k = 0; k < rule_count(); ++k) {
    auto r = static_cast<RuleId>(k);
    auto g = rule_gate(r);
    for (const auto& p : profiles())
      EXPECT_EQ(rule_in_profile(r, p.profile), !g || (one_of(*policy_value(p.policy, g->policy), g->value) &&
                                                     (g->release.empty() || one_of(*policy_value(p.policy, "connector_release"), g->release))))
          << rule_wire(r);
  }
  EXPECT_FALSE(gating.empty());
}

// gate_value_names names the values whose bits are set, among the policy's own values only (profiles.h:
// policy_values is empty for an unknown name; connector_release has three values, tables/policy_enums.def).
TEST(ProfilesTable, GateValueNamesReadsOnlyThePolicysValues) {
  EXPECT_EQ(gate_value_names("no_such_policy", ~0u), "");
  EXPECT_EQ(gate_value_names("connector_release", 0xFu), "lightning16|lightning22|fabric22");
  EXPECT_EQ(gate_value_names("connector_release", 0x2u), "lightning22");
}

TEST(ProfilesTable, AddProfileRejectsBadRows) {
  Profile p;
  std::string error;
  EXPECT_FALSE(add_profile("spec", "lightning-1.6", Connector::kTrainer, "x", false, false, "x", {}, &p, &error));
  EXPECT_NE(error.find("exists already"), std::string::npos) << error;
  EXPECT_FALSE(add_profile("t-unknown-parent", "lightning-0.1", Connector::kTrainer, "x", false, false, "x", {}, &p, &error));
  EXPECT_NE(error.find("unknown parent profile 'lightning-0.1'"), std::string::npos) << error;
  EXPECT_FALSE(add_profile("t-unknown-policy", "spec", Connector::kTrainer, "x", false, false, "x", {{"no_such_policy", "true", "r"}},
                           &p, &error));
  EXPECT_NE(error.find("unknown policy 'no_such_policy'"), std::string::npos) << error;
  EXPECT_FALSE(add_profile("t-bad-value", "spec", Connector::kTrainer, "x", false, false, "x",
                           {{"exclusive_strategy_check", "early", "r"}}, &p, &error));
  EXPECT_NE(error.find("cannot be 'early' (one of: at_realize, at_strategy_selection)"), std::string::npos) << error;
  EXPECT_FALSE(parse_profile("t-unknown-policy", &p));
}

// The demo child: one overridden policy, and through the rules' gates one extra rule, resolved end to end.
TEST(DemoProfile, HasItsParentsRulesAndOneMore) {
  Profile demo = demo_profile();
  const ProfileInfo& info = profile_info(demo);
  ASSERT_TRUE(info.parent);
  EXPECT_EQ(*info.parent, Profile::kLightning16);
  EXPECT_TRUE(policy(demo).num_nodes_positive);
  EXPECT_FALSE(policy(Profile::kLightning16).num_nodes_positive);
  std::vector<std::string> extra, missing;
  for (int k = 0; k < rule_count(); ++k) {
    auto r = static_cast<RuleId>(k);
    if (rule_in_profile(r, demo) && !rule_in_profile(r, Profile::kLightning16)) extra.push_back(rule_wire(r));
    if (!rule_in_profile(r, demo) && rule_in_profile(r, Profile::kLightning16)) missing.push_back(rule_wire(r));
  }
  EXPECT_EQ(extra, std::vector<std::string>{"validate.num-nodes-positive"});
  EXPECT_TRUE(missing.empty());
}

TEST(DemoProfile, ResolvesEndToEnd) {
  Profile demo = demo_profile();
  const char* zero_nodes = R"({"flags": {"accelerator": "cpu", "num_nodes": 0}})";
  Outcome strict = run(zero_nodes, demo);
  EXPECT_THAT(strict, FailsWith(DiagCode::kNumNodesInvalid, std::vector<std::string>{"num_nodes"}));
  EXPECT_NE(std::find(strict.trace.begin(), strict.trace.end(), RuleId::kNumNodesPositive), strict.trace.end());
  EXPECT_TRUE(run(zero_nodes, Profile::kLightning16).ok());  // the parent accepts it
  // Where num_nodes is positive, the child answers as its parent, notes included; its trace adds the extra rule
  // where the check ran.
  for (const char* c : {R"({"flags": {"precision": "16"}})", R"({"flags": {"accelerator": "GPU"}})",
                        R"({"flags": {"strategy": "ddp_spawn", "accelerator": "cpu", "devices": 2, "num_nodes": 2}})",
                        R"({"flags": {"gpus": 2, "devices": 3}, "hardware": {"cuda_devices": 4}})"}) {
    Outcome child = run(c, demo), parent = run(c, Profile::kLightning16);
    nlohmann::json a = outcome_to_json(child), b = outcome_to_json(parent);
    a.erase("trace");
    b.erase("trace");
    EXPECT_EQ(a, b) << c;
    std::vector<RuleId> trace = child.trace;
    trace.erase(std::remove(trace.begin(), trace.end(), RuleId::kNumNodesPositive), trace.end());
    EXPECT_EQ(trace, parent.trace) << c;
  }
}

}  // namespace
}  // namespace accord::reference::testing
