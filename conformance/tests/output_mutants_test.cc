// output_mutants_test.cc: each class of wrong implementation changes what its row says and nothing else, leaves alone
// what it does not apply to, and the measurement counts a change as caught exactly when the case stops passing.
#include <gtest/gtest.h>

#include <set>

#include "accord/conformance/loader.h"
#include "accord/conformance/output_mutants.h"
#include "accord/reference/diagnostic.h"
#include "test_support.h"

namespace accord::conformance {
namespace {
using nlohmann::json;

OutputMutant mutant(const char* wire) {
  auto m = parse_output_mutant(wire);
  EXPECT_TRUE(m.has_value()) << wire;
  return m.value_or(OutputMutant{});
}

const json& plan_outcome() {
  static const json o = json::parse(R"({"status": "ok", "trace": [], "diagnostics": [
      {"code": "info_amp", "severity": "info", "message": "m", "fields": {}}],
    "plan": {"accelerator": "gpu", "num_processes": 2, "devices": [0, 1],
             "strategy": {"name": "ddp_spawn", "family": "ddp_spawn", "class": "DDPSpawnStrategy", "root_device": "cuda:0"},
             "precision": {"value": "16"}, "launcher": {"kind": "spawn"},
             "cluster_environment": {"class": "LightningEnvironment", "global_rank": 0}}})");
  return o;
}

const json& error_outcome() {
  static const json o = json::parse(R"({"status": "error", "diagnostics": [], "trace": [],
    "error": {"code": "err_strategy_unknown", "message": "m", "fields": {"strategy": "x", "allowed": "y"}}})");
  return o;
}

/// What changed between `a` and `b`, as json_patch operations.
json patch(OutputMutant m, const json& o) { return json::diff(o, mutate_outcome(m, o)); }

TEST(OutputMutants, EachPlanClassChangesWhatItsRowSays) {
  const json& o = plan_outcome();
  EXPECT_EQ(patch(mutant("strategy-sibling"), o), json::parse(R"([{"op": "replace", "path": "/plan/strategy/family", "value": "ddp"},
      {"op": "replace", "path": "/plan/strategy/name", "value": "ddp"}])"));
  EXPECT_EQ(mutate_outcome(mutant("precision-changed"), o)["plan"]["precision"]["value"], "32");
  EXPECT_EQ(mutate_outcome(mutant("accelerator-swapped"), o)["plan"]["accelerator"], "cpu");
  EXPECT_EQ(mutate_outcome(mutant("processes-off-by-one"), o)["plan"]["num_processes"], 3);
  EXPECT_EQ(mutate_outcome(mutant("root-device-moved"), o)["plan"]["strategy"]["root_device"], "cuda:1");
  EXPECT_EQ(mutate_outcome(mutant("rank-off-by-one"), o)["plan"]["cluster_environment"]["global_rank"], 1);
  EXPECT_EQ(mutate_outcome(mutant("cluster-env-swapped"), o)["plan"]["cluster_environment"]["class"], "SLURMEnvironment");
  EXPECT_TRUE(mutate_outcome(mutant("launcher-dropped"), o)["plan"]["launcher"].is_null());
  EXPECT_TRUE(mutate_outcome(mutant("diagnostic-dropped"), o)["diagnostics"].empty());
  for (const auto& m : output_mutants()) {  // one operation each (the sibling also renames the family it shares)
    if (mutate_outcome(m, o) == o) continue;
    EXPECT_LE(patch(m, o).size(), 2u) << output_mutant_name(m);
  }
}

TEST(OutputMutants, SiblingsAndValuesFollowTheirTables) {
  json o = plan_outcome();
  o["plan"]["strategy"] = {{"name", "deepspeed_stage_3"}, {"family", "deepspeed"}, {"root_device", "xla:3"}};
  o["plan"]["precision"]["value"] = "bf16-mixed";
  EXPECT_EQ(mutate_outcome(mutant("strategy-sibling"), o)["plan"]["strategy"],
            json({{"name", "deepspeed_stage_3_offload"}, {"family", "deepspeed"}, {"root_device", "xla:3"}}));
  EXPECT_EQ(mutate_outcome(mutant("root-device-moved"), o)["plan"]["strategy"]["root_device"], "xla:4");
  EXPECT_EQ(mutate_outcome(mutant("precision-changed"), o)["plan"]["precision"]["value"], "16-mixed");
  o["plan"]["strategy"]["root_device"] = "cpu";  // no index to move
  EXPECT_EQ(mutate_outcome(mutant("root-device-moved"), o), o);
  o["plan"]["accelerator"] = "cpu";
  EXPECT_EQ(mutate_outcome(mutant("accelerator-swapped"), o)["plan"]["accelerator"], "gpu");
}

TEST(OutputMutants, SpuriousWarningIsALiveWarningTheOutcomeLacks) {
  json changed = mutate_outcome(mutant("spurious-warning"), plan_outcome());
  ASSERT_EQ(changed["diagnostics"].size(), 2u);
  auto code = reference::diag_from_wire(changed["diagnostics"][1]["code"]);
  ASSERT_TRUE(code.has_value());
  EXPECT_EQ(reference::severity(*code), reference::Severity::kWarning);
  EXPECT_EQ(changed["diagnostics"][1]["severity"], "warning");
}

TEST(OutputMutants, ErrorClassesChangeTheErrorOnly) {
  const json& e = error_outcome();
  json swapped = mutate_outcome(mutant("error-code-swapped"), e);
  auto code = reference::diag_from_wire(swapped["error"]["code"]);
  ASSERT_TRUE(code.has_value());
  EXPECT_NE(swapped["error"]["code"], "err_strategy_unknown");
  EXPECT_EQ(reference::severity(*code), reference::Severity::kError);
  // the flag goes, not the context field before it (allowed values); an error naming no flag is left alone
  EXPECT_EQ(mutate_outcome(mutant("error-field-dropped"), e)["error"]["fields"], json({{"allowed", "y"}}));
  json context_only = e;
  context_only["error"]["fields"] = {{"allowed", "y"}, {"available", "z"}};
  EXPECT_EQ(mutate_outcome(mutant("error-field-dropped"), context_only), context_only);
  // Plan classes leave an error alone, error classes a plan, and every class an outcome that is not an object.
  for (const char* plan_only : {"strategy-sibling", "precision-changed", "root-device-moved", "launcher-dropped", "spurious-warning",
                                "diagnostic-dropped"})
    EXPECT_EQ(mutate_outcome(mutant(plan_only), e), e) << plan_only;
  for (const char* error_only : {"error-code-swapped", "error-field-dropped"})
    EXPECT_EQ(mutate_outcome(mutant(error_only), plan_outcome()), plan_outcome()) << error_only;
  for (const auto& m : output_mutants()) EXPECT_EQ(mutate_outcome(m, json("x")), json("x"));
}

TEST(OutputMutants, TableNamesAreUniqueAndParse) {
  std::set<std::string> names;
  for (const auto& m : output_mutants()) {
    EXPECT_TRUE(names.insert(output_mutant_name(m)).second) << output_mutant_name(m);
    EXPECT_EQ(parse_output_mutant(output_mutant_name(m)), m);
    EXPECT_GT(std::string(output_mutant_meaning(m)).size(), 10u);
  }
  EXPECT_GE(names.size(), 12u);
  EXPECT_FALSE(parse_output_mutant("no-such-class").has_value());
}

// A case pinning the strategy name catches the sibling; one pinning only the accelerator misses it; a case whose
// expectation the implementation does not meet is left out.
TEST(OutputMutants, MeasurementCountsWhatStopsPassing) {
  testing::TempDir d;
  d.write("cases/strategy/x.json", R"({"cases": [
    {"id": "strategy/pins-name", "title": "t", "origin": "regression-snapshot", "profiles": ["spec"],
     "given": {"flags": {"accelerator": "cpu", "devices": 2, "strategy": "ddp_spawn"}},
     "expect": {"plan": {"strategy": {"name": "ddp_spawn"}}}},
    {"id": "strategy/pins-accelerator", "title": "t", "origin": "regression-snapshot", "profiles": ["spec"],
     "given": {"flags": {"accelerator": "cpu", "devices": 2, "strategy": "ddp_spawn"}},
     "expect": {"plan": {"accelerator": "cpu"}}},
    {"id": "strategy/wrong-expectation", "title": "t", "origin": "regression-snapshot", "profiles": ["spec"],
     "given": {"flags": {"accelerator": "cpu", "devices": 2, "strategy": "ddp_spawn"}},
     "expect": {"plan": {"accelerator": "gpu"}}}]})");
  Corpus c = load_corpus(d.path());
  ASSERT_TRUE(c.errors.empty()) << to_string(c.errors.front());
  auto ref = make_reference_adapter();
  std::string err;
  ASSERT_TRUE(ref->start(&err));
  OutputMutantReport r = measure_output_mutants(c.fixtures, *ref, {"spec"});
  ASSERT_EQ(r.bases.size(), 1u);
  EXPECT_EQ(r.bases[0].cases, 3u);
  EXPECT_EQ(r.bases[0].not_passing_ids, std::vector<std::string>{"strategy/wrong-expectation"});
  ASSERT_EQ(r.tallies.size(), output_mutants().size());
  for (const auto& t : r.tallies) EXPECT_EQ(t.caught + t.missed.size(), t.changed) << output_mutant_name(t.mutant);
  const auto& sibling = r.tallies[static_cast<std::size_t>(mutant("strategy-sibling"))];
  EXPECT_EQ(sibling.changed, 2u);
  EXPECT_EQ(sibling.caught, 1u);
  EXPECT_EQ(sibling.missed, std::vector<std::string>{"strategy/pins-accelerator"});
  const auto& accelerator = r.tallies[static_cast<std::size_t>(mutant("accelerator-swapped"))];
  EXPECT_EQ(accelerator.caught, 1u);
  EXPECT_EQ(accelerator.missed, std::vector<std::string>{"strategy/pins-name"});
  EXPECT_DOUBLE_EQ(accelerator.share(), 0.5);
}

}  // namespace
}  // namespace accord::conformance
