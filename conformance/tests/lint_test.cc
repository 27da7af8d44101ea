// lint_test.cc: each rejection of `accord lint`, one bad corpus per rule (conformance/tests/data/lint/).
#include <gtest/gtest.h>

#include <algorithm>

#include "accord/conformance/lint.h"
#include "accord/conformance/report.h"
#include "accord/conformance/runner.h"
#include "demo_profile.h"
#include "test_support.h"

namespace accord::conformance {
namespace {

struct LintCase {
  const char* dir;
  const char* file_suffix;
  const char* pointer;
  const char* message_part;
};

class LintRejects : public ::testing::TestWithParam<LintCase> {};

/// The reference's vocabularies with the shipped profiles only: the test-only demo profile (profile_inheritance_test)
/// is left out, as it is there or not depending on which tests ran before in the same process.
const Vocabulary& shipped_vocabulary() {
  static const Vocabulary v = [] {
    Vocabulary out = reference_vocabulary();
    out.profile_names = [] {
      auto names = reference_vocabulary().profile_names();
      names.erase(std::remove(names.begin(), names.end(), reference::testing::demo_profile_name()), names.end());
      return names;
    };
    return out;
  }();
  return v;
}

TEST_P(LintRejects, ExactlyOneProblemWithFileAndPointer) {
  const LintCase& c = GetParam();
  LintResult r = lint_corpus(testing::data_dir(std::string("lint/") + c.dir), shipped_vocabulary());
  ASSERT_EQ(r.problems.size(), 1u) << (r.problems.empty() ? "no problem" : to_string(r.problems[1]));
  const LoadError& p = r.problems[0];
  std::string suffix = c.file_suffix;
  EXPECT_EQ(p.file.substr(p.file.size() - std::min(p.file.size(), suffix.size())), suffix);
  EXPECT_EQ(p.pointer, c.pointer);
  EXPECT_NE(p.message.find(c.message_part), std::string::npos) << p.message;
}

// `accord conform` agrees with lint: the corpus does not load (conform refuses it, as it refuses repeated ids), or the
// case is errored with lint's message on every profile it applies to; never passed.
TEST_P(LintRejects, ConformNeverPassesTheCase) {
  const LintCase& c = GetParam();
  const std::string dir = testing::data_dir(std::string("lint/") + c.dir);
  Corpus corpus = load_corpus(dir, nullptr, LoadAs::kPacked);
  if (!corpus.errors.empty() || std::string(c.dir) == "duplicate-id") return;
  std::size_t ran = 0;
  for (const auto& profile : shipped_vocabulary().profile_names()) {
    RunOptions o;
    o.profile = profile;
    o.lint = &shipped_vocabulary();
    Runner runner([] { return make_reference_adapter(); }, o);
    std::string err;
    ASSERT_TRUE(runner.start(&err)) << err;
    CollectingSink sink;
    Summary s = runner.run(corpus, dir, sink);
    EXPECT_FALSE(s.ok() && s.selected > 0) << profile;
    for (const auto& r : sink.results) {
      ++ran;
      EXPECT_EQ(r.verdict, Verdict::kErrored) << profile << " " << r.id;
      EXPECT_NE(r.message.find("accord lint rejects the case: "), std::string::npos) << r.message;
      EXPECT_NE(r.message.find(c.message_part), std::string::npos) << r.message;
      EXPECT_NE(r.message.find(std::string(c.pointer) + ": "), std::string::npos) << r.message;
    }
  }
  EXPECT_GT(ran, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Corpora, LintRejects,
    ::testing::Values(
        LintCase{"invalid-json", "strategy/x.json", "", "not valid JSON"},
        LintCase{"schema-missing-title", "strategy/x.json", "/cases/0", "Missing required property 'title'"},
        LintCase{"schema-unknown-plan-key", "strategy/x.json", "/cases/0/expect/plan", "'stratgy'"},
        LintCase{"bad-id", "strategy/x.json", "/cases/0/id", "\"Strategy/Foo_bar\""},
        LintCase{"duplicate-id", "strategy/b.json", "/cases/0/id", "duplicate id 'strategy/example'"},
        LintCase{"area-mismatch", "devices/x.json", "/cases/0/id", "in folder 'devices'"},
        LintCase{"unknown-rule-covers", "strategy/x.json", "/cases/0/covers/0", "unknown rule ID 'select.no-such-rule'"},
        LintCase{"unknown-rule-trace", "strategy/x.json", "/cases/0/expect/trace_includes/0", "unknown rule ID"},
        LintCase{"unknown-code-error", "strategy/x.json", "/cases/0/expect/error/code", "'err_no_such_code'"},
        LintCase{"unknown-code-diagnostics", "strategy/x.json", "/cases/0/expect/diagnostics/0", "'warn_no_such_code'"},
        LintCase{"unknown-profile", "strategy/x.json", "/cases/0/profiles/1", "unknown profile 'lightning-9'"},
        LintCase{"unknown-profile-key", "strategy/x.json", "/cases/0/expect_by_profile/lightning-9", "unknown profile"},
        LintCase{"profile-not-listed", "strategy/x.json", "/cases/0/expect_by_profile/lightning-1.6", "does not list"},
        LintCase{"missing-expectation", "strategy/x.json", "/cases/0", "no expectation for profile 'lightning-1.6'"},
        LintCase{"checks-nothing", "strategy/x.json", "/cases/0/expect", "checks nothing"},
        LintCase{"checks-nothing-any-of", "strategy/x.json", "/cases/0/expect", "checks nothing"},
        LintCase{"unknown-capability", "strategy/x.json", "/cases/0/requires/0", "'accelerator:quantum'"},
        LintCase{"bad-regex", "strategy/x.json", "/cases/0/expect/error/message_regex", "not a valid ECMAScript regex"},
        LintCase{"unreadable-given", "strategy/x.json", "/cases/0/given", "/flags/devices"},
        LintCase{"present-and-absent", "strategy/x.json", "/cases/0/expect", "both diagnostics and diagnostics_absent"},
        LintCase{"any-of-without-reason", "strategy/x.json", "/cases/0/expect/any_of", "say why each is right in any_of_reason"},
        LintCase{"error-flag-field-missing", "strategy/x.json", "/cases/0/expect/error/fields",
                 "error 'err_strategy_unknown' names the flags of its catalogue template; list strategy too"}),
    [](const ::testing::TestParamInfo<LintCase>& i) {
      std::string n = i.param.dir;
      for (auto& ch : n) ch = ch == '-' ? '_' : ch;
      return n;
    });

TEST(Lint, CleanCorpusHasNoProblems) {
  LintResult r = lint_corpus(testing::data_dir("lint/clean"), reference_vocabulary());
  EXPECT_TRUE(r.problems.empty()) << to_string(r.problems.front());
  EXPECT_EQ(r.files, 1u);
  EXPECT_EQ(r.cases, 2u);
}

TEST(Lint, SelfTestCorporaAreClean) {
  for (const char* d : {"mutant", "faults"}) {
    LintResult r = lint_corpus(testing::data_dir(d), reference_vocabulary());
    EXPECT_TRUE(r.problems.empty()) << d << ": " << to_string(r.problems.front());
  }
}

TEST(Lint, RegressionsKeepTheirOwnArea) {
  testing::TempDir d;
  d.write("regressions/r.json", testing::read_file(testing::data_dir("lint/clean/cases/strategy/x.json")));
  EXPECT_TRUE(lint_corpus(d.path(), reference_vocabulary()).problems.empty());
}

}  // namespace
}  // namespace accord::conformance
