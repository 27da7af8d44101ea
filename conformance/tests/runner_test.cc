// runner_test.cc: case selection, verdicts (divergences, strict unexpected pass), fail-fast, jobs.
#include <gtest/gtest.h>

#include "accord/conformance/loader.h"
#include "accord/conformance/report.h"
#include "accord/conformance/runner.h"
#include "mutant/mutant_adapter.h"
#include "test_support.h"

namespace accord::conformance {
namespace {
using nlohmann::json;

std::vector<Fixture> mutant_corpus() {
  Corpus c = load_corpus(testing::data_dir("mutant"));
  EXPECT_TRUE(c.errors.empty());
  return c.fixtures;
}

const Fixture& by_id(const std::vector<Fixture>& fs, const std::string& id) {
  for (const auto& f : fs)
    if (f.id == id) return f;
  ADD_FAILURE() << "no fixture " << id;
  return fs.front();
}

TEST(Runner, SelectionFollowsProfileAndFilter) {
  auto fs = mutant_corpus();
  RunOptions o;
  EXPECT_EQ(select_cases(fs, o).size(), 10u);
  o.filter.emplace("^strategy/ddp-spawn");
  EXPECT_EQ(select_cases(fs, o).size(), 4u);
  fs[0].profiles = {"lightning-1.6"};
  o.filter.reset();
  EXPECT_EQ(select_cases(fs, o).size(), 9u);
}

TEST(Runner, JudgeAppliesDivergencesStrictly) {
  auto fs = mutant_corpus();
  const Fixture& named = by_id(fs, "strategy/ddp-spawn-named");
  auto ref = make_reference_adapter();
  auto mut = testing::make_mutant_adapter();
  std::string err;
  ASSERT_TRUE(mut->start(&err));
  AdapterResult good = ref->resolve(named.id, "spec", named.given);
  AdapterResult bad = mut->resolve(named.id, "spec", named.given);
  Divergences none;
  EXPECT_EQ(judge(named, "spec", good, none).verdict, Verdict::kPassed);
  CaseResult failed = judge(named, "spec", bad, none);
  EXPECT_EQ(failed.verdict, Verdict::kFailed);
  ASSERT_EQ(failed.diffs.size(), 1u);
  EXPECT_EQ(failed.diffs[0].pointer, "/plan/strategy/name");
  Divergences listed{"div.json", "x", {{named.id, "answers ddp (issue #1)"}}};
  CaseResult xfail = judge(named, "spec", bad, listed);
  EXPECT_EQ(xfail.verdict, Verdict::kExpectedDivergence);
  EXPECT_EQ(xfail.message, "answers ddp (issue #1)");
  CaseResult xpass = judge(named, "spec", good, listed);
  EXPECT_EQ(xpass.verdict, Verdict::kUnexpectedPass);
  EXPECT_TRUE(is_bad(xpass.verdict));
  EXPECT_EQ(judge(named, "spec", {ResultStatus::kCrashed, nullptr, "gone"}, listed).verdict, Verdict::kCrashed);
}

TEST(Runner, AnExpectationThatChecksNothingIsAnErrorNotAPass) {
  Corpus c = load_corpus(testing::data_dir("lint/checks-nothing"));
  ASSERT_EQ(c.fixtures.size(), 1u);
  const Fixture& f = c.fixtures[0];
  auto ref = make_reference_adapter();
  CaseResult r = judge(f, "spec", ref->resolve(f.id, "spec", f.given), Divergences{});
  EXPECT_EQ(r.verdict, Verdict::kErrored);
  EXPECT_TRUE(is_bad(r.verdict));
  EXPECT_NE(r.message.find("/cases/0/expect: the expectation checks nothing"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("x.json"), std::string::npos) << r.message;
}

TEST(Runner, MissingCapabilityIsSkippedWithoutAsking) {
  Fixture f = mutant_corpus().front();
  f.requires_ = {"accelerator:ipu", "env:slurm"};
  ImplementationInfo info;
  info.capabilities = {"env:slurm"};
  EXPECT_EQ(missing_capabilities(f, info), std::vector<std::string>{"accelerator:ipu"});
}

TEST(Runner, DivergenceFileIsValidated) {
  testing::TempDir d;
  d.write("ok.json", R"({"implementation": "lightning", "divergences": {"strategy/a": "issue 12"}})");
  d.write("bad.json", R"({"implementation": "lightning", "divergences": {"strategy/a": ""}})");
  d.write("extra.json", R"({"implementation": "lightning", "skips": {}})");
  Divergences div;
  std::string err;
  ASSERT_TRUE(load_divergences(d.path() + "/ok.json", &div, &err)) << err;
  EXPECT_EQ(div.reasons.at("strategy/a"), "issue 12");
  EXPECT_FALSE(load_divergences(d.path() + "/bad.json", &div, &err));
  EXPECT_NE(err.find("/divergences/strategy~1a"), std::string::npos) << err;
  EXPECT_FALSE(load_divergences(d.path() + "/extra.json", &div, &err));
  EXPECT_NE(err.find("/skips"), std::string::npos);
  EXPECT_FALSE(load_divergences(d.path() + "/missing.json", &div, &err));
}

TEST(Runner, ReferenceDivergenceFileExistsAndIsEmpty) {
  Divergences div;
  std::string err;
  ASSERT_TRUE(load_divergences(std::string(ACCORD_FIXTURES_DIR) + "/../conformance/implementations/accord-reference.json", &div, &err))
      << err;
  EXPECT_EQ(div.implementation, "accord-reference");
  EXPECT_TRUE(div.reasons.empty());
}

TEST(Runner, FailFastStopsAfterTheFirstBadVerdict) {
  auto fs = mutant_corpus();
  RunOptions o;
  o.fail_fast = true;
  Runner r([] { return testing::make_mutant_adapter(); }, o);
  std::string err;
  ASSERT_TRUE(r.start(&err));
  CollectingSink sink;
  Summary s = r.run(fs, "mutant", sink);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(sink.results.back().verdict, Verdict::kFailed);
  EXPECT_EQ(s.count(Verdict::kFailed), 1u);
  EXPECT_EQ(s.not_run + sink.results.size(), s.selected);
  EXPECT_GT(s.not_run, 0u);
}

TEST(Runner, StaleDivergencesAreReported) {
  auto fs = mutant_corpus();
  RunOptions o;
  o.divergences.reasons = {{"strategy/gone-case", "was removed"}};
  Runner r([] { return make_reference_adapter(); }, o);
  std::string err;
  ASSERT_TRUE(r.start(&err));
  CollectingSink sink;
  Summary s = r.run(fs, "mutant", sink);
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.stale_divergences, std::vector<std::string>{"strategy/gone-case"});
}

TEST(Runner, ParallelJobsGiveTheSameVerdicts) {
  auto fs = mutant_corpus();
  auto verdicts = [&](int jobs) {
    RunOptions o;
    o.jobs = jobs;
    Runner r([] { return testing::make_mutant_adapter(); }, o);
    std::string err;
    EXPECT_TRUE(r.start(&err));
    CollectingSink sink;
    r.run(fs, "mutant", sink);
    std::map<std::string, Verdict> m;
    for (const auto& c : sink.results) m[c.id] = c.verdict;
    return m;
  };
  auto one = verdicts(1);
  EXPECT_EQ(one.size(), 10u);
  EXPECT_EQ(verdicts(4), one);
}

// A packed corpus (what `accord conform` holds) runs to the same results as its Fixtures: verdicts, diffs, and the
// case input of every failing case.
TEST(Runner, PackedCorpusGivesTheSameResultsAsFixtures) {
  auto results = [](LoadAs as, int jobs) {
    Corpus c = load_corpus(testing::data_dir("mutant"), nullptr, as);
    EXPECT_TRUE(c.errors.empty());
    RunOptions o;
    o.jobs = jobs;
    o.divergences.reasons = {{"strategy/gone-case", "was removed"}};
    Runner r([] { return testing::make_mutant_adapter(); }, o);
    std::string err;
    EXPECT_TRUE(r.start(&err));
    CollectingSink sink;
    Summary s = r.run(c, "mutant", sink);
    std::map<std::string, std::string> m;
    for (const auto& x : sink.results) {
      std::string diffs;
      for (const auto& d : x.diffs) diffs += d.pointer + "=" + d.actual.dump() + ";";
      m[x.id] = std::string(verdict_name(x.verdict)) + " " + diffs + " " + x.given.dump() + " " + x.file + x.pointer;
    }
    EXPECT_EQ(s.stale_divergences, std::vector<std::string>{"strategy/gone-case"});
    return m;
  };
  auto fixtures = results(LoadAs::kFixtures, 1);
  ASSERT_EQ(fixtures.size(), 10u);
  EXPECT_EQ(results(LoadAs::kPacked, 1), fixtures);
  EXPECT_EQ(results(LoadAs::kPacked, 3), fixtures);
}

TEST(Runner, APackedCaseThatNoLongerReadsIsErroredNeverPassed) {
  Corpus c = load_corpus(testing::data_dir("mutant"), nullptr, LoadAs::kPacked);
  ASSERT_FALSE(c.packed.empty());
  c.packed[0].text = "{\"id\": ";  // as if the memory were overwritten
  Runner r([] { return make_reference_adapter(); }, RunOptions{});
  std::string err;
  ASSERT_TRUE(r.start(&err));
  CollectingSink sink;
  Summary s = r.run(c, "mutant", sink);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.count(Verdict::kErrored), 1u);
  EXPECT_EQ(s.count(Verdict::kPassed), c.packed.size() - 1);
  for (const auto& x : sink.results) {
    if (x.id == c.packed[0].id) {
      EXPECT_EQ(x.verdict, Verdict::kErrored);
      EXPECT_NE(x.message.find(": packed case " + x.id + ": "), std::string::npos) << x.message;
    }
  }
}

}  // namespace
}  // namespace accord::conformance
