// mutant_test.cc: the deliberately wrong implementation fails exactly the cases it should, through
// the real protocol (conformance_mutant_impl as a subprocess), under both profiles.
#include <gtest/gtest.h>

#include <set>

#include "accord/conformance/loader.h"
#include "accord/conformance/report.h"
#include "accord/conformance/runner.h"
#include "test_support.h"

namespace accord::conformance {
namespace {

std::map<std::string, Verdict> run(const std::string& impl, const std::string& profile, int jobs = 1,
                                   const Divergences& div = {}) {
  Corpus c = load_corpus(testing::data_dir("mutant"));
  EXPECT_TRUE(c.errors.empty());
  RunOptions o;
  o.profile = profile;
  o.jobs = jobs;
  o.divergences = div;
  AdapterFactory f = impl.empty() ? AdapterFactory([] { return make_reference_adapter(); })
                                  : AdapterFactory([impl] { return make_subprocess_adapter(impl, 10); });
  Runner r(f, o);
  std::string err;
  EXPECT_TRUE(r.start(&err)) << err;
  CollectingSink sink;
  r.run(c.fixtures, "mutant", sink);
  std::map<std::string, Verdict> m;
  for (const auto& res : sink.results) m[res.id] = res.verdict;
  return m;
}

std::set<std::string> with(const std::map<std::string, Verdict>& m, Verdict v) {
  std::set<std::string> s;
  for (const auto& [id, x] : m)
    if (x == v) s.insert(id);
  return s;
}

const std::set<std::string> kFailUnderBoth = {"strategy/ddp-spawn-named", "strategy/ddp-cpu-rejected",
                                              "determinism/benchmark-warns", "determinism/exact-diagnostics"};

TEST(Mutant, ReferencePassesTheWholeMutantCorpus) {
  for (const char* p : {"spec", "lightning-1.6"}) {
    auto m = run("", p);
    EXPECT_EQ(m.size(), 10u);
    EXPECT_EQ(with(m, Verdict::kPassed).size(), 10u) << p;
  }
}

TEST(Mutant, FailsExactlyTheExpectedCasesUnderSpec) {
  auto m = run(ACCORD_MUTANT_IMPL, "spec");
  auto want = kFailUnderBoth;
  want.insert("strategy/ddp-spawn-profile-split");  // spec checks the name; lightning-1.6 does not
  EXPECT_EQ(with(m, Verdict::kFailed), want);
  EXPECT_EQ(with(m, Verdict::kPassed).size(), m.size() - want.size());
}

TEST(Mutant, FailsExactlyTheExpectedCasesUnderLightning16) {
  auto m = run(ACCORD_MUTANT_IMPL, "lightning-1.6");
  EXPECT_EQ(with(m, Verdict::kFailed), kFailUnderBoth);
  EXPECT_EQ(with(m, Verdict::kPassed).size(), m.size() - kFailUnderBoth.size());
}

TEST(Mutant, ParallelSubprocessesAgree) {
  EXPECT_EQ(run(ACCORD_MUTANT_IMPL, "spec", 3), run(ACCORD_MUTANT_IMPL, "spec", 1));
}

TEST(Mutant, DivergenceListTurnsFailuresIntoExpectedAndFlagsStrictPasses) {
  Divergences d{"mutant.json", "accord-mutant", {}};
  for (const auto& id : kFailUnderBoth) d.reasons[id] = "known mutant mistake";
  d.reasons["strategy/ddp-named"] = "wrongly listed: the mutant gets this one right";
  auto m = run(ACCORD_MUTANT_IMPL, "lightning-1.6", 1, d);
  EXPECT_EQ(with(m, Verdict::kExpectedDivergence), kFailUnderBoth);
  EXPECT_EQ(with(m, Verdict::kUnexpectedPass), std::set<std::string>{"strategy/ddp-named"});
  EXPECT_TRUE(with(m, Verdict::kFailed).empty());
}

}  // namespace
}  // namespace accord::conformance
