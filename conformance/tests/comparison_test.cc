// comparison_test.cc: `accord compare`'s table: the fields that differ, cases set apart (skipped, unanswered, not
// selected for a side's profile) never counted as differences, agreement per pair, groupings, the reproducing command.
#include "accord/conformance/comparison.h"

#include <gtest/gtest.h>

namespace accord::conformance {
namespace {
using nlohmann::json;

Fixture fixture(const std::string& id, std::vector<std::string> covers) {
  Fixture f;
  f.id = id, f.covers = std::move(covers), f.file = "cases/x.json", f.pointer = "/cases/0";
  f.given = {{"flags", {{"devices", 2}}}};
  return f;
}

CaseResult answered(const std::string& id, const json& outcome, Verdict v = Verdict::kPassed) {
  CaseResult r;
  r.id = id, r.outcome = outcome, r.verdict = v;
  return r;
}

json plan(const std::string& strategy, const std::string& root) {
  return {{"status", "ok"}, {"plan", {{"strategy", {{"name", strategy}, {"root_device", root}}}, {"accelerator", "gpu"}}}, {"diagnostics", json::array()}};
}

json error(const std::string& code) {
  return {{"status", "error"}, {"error", {{"code", code}, {"fields", {{"flag", "devices"}}}}}, {"diagnostics", json::array()}};
}

TEST(Comparison, FieldsThatDifferKeyByKeyAndWholeWhereASideLacksThePart) {
  auto d = differing_fields({plan("ddp", "cuda:0"), plan("ddp", "cuda:1"), plan("ddp_spawn", "cuda:1")});
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].pointer, "/plan/strategy/name");
  EXPECT_EQ(d[1].pointer, "/plan/strategy/root_device");
  EXPECT_EQ(d[1].values, (std::vector<json>{"cuda:0", "cuda:1", "cuda:1"}));
  d = differing_fields({plan("ddp", "cuda:0"), error("err_x")});
  std::vector<std::string> pointers;
  for (const auto& f : d) pointers.push_back(f.pointer);
  EXPECT_EQ(pointers, (std::vector<std::string>{"/error", "/plan", "/status"}));  // a part one side lacks: one field, whole
  EXPECT_FALSE(d[0].present[0]);
  EXPECT_TRUE(d[0].present[1]);
  EXPECT_TRUE(differing_fields({json{{"a", json::array({1, 2})}}, json{{"a", json::array({1, 2})}}}).empty());
  EXPECT_EQ(differing_fields({json{{"a", json::array({1, 2})}}, json{{"a", json::array({2, 1})}}}).at(0).pointer, "/a");  // arrays whole
}

TEST(Comparison, SkippedUnansweredAndUnselectedCasesAreApartNotDifferences) {
  std::vector<Fixture> fx = {fixture("s/same", {"r.one"}), fixture("s/differs", {"r.one", "r.two"}), fixture("s/skipped", {}),
                             fixture("s/errored", {}), fixture("s/only-a", {}), fixture("s/nowhere", {})};
  CaseResult skipped;
  skipped.id = "s/skipped", skipped.verdict = Verdict::kSkipped, skipped.message = "requires accelerator:tpu";
  CaseResult errored;
  errored.id = "s/errored", errored.verdict = Verdict::kErrored, errored.message = "no reply within 10 s";
  std::vector<CaseResult> a = {answered("s/same", plan("ddp", "cuda:0")), answered("s/differs", plan("ddp", "cuda:0")),
                               answered("s/skipped", plan("ddp", "cuda:0")), answered("s/errored", plan("ddp", "cuda:0")),
                               answered("s/only-a", plan("ddp", "cuda:0"))};
  std::vector<CaseResult> b = {answered("s/same", plan("ddp", "cuda:0")), answered("s/differs", plan("ddp_spawn", "cuda:0"), Verdict::kFailed),
                               skipped, errored};
  ComparisonTable t = build_comparison({{"A", "reference", "spec"}, {"B", "python3 impl.py", "lightning-1.6"}}, fx, {a, b});
  ASSERT_EQ(t.rows.size(), 5u);  // s/nowhere ran on no side
  EXPECT_EQ(t.differing(), 1u);
  EXPECT_EQ(t.apart(), 3u);
  EXPECT_EQ(t.rows[0].id, "s/differs");  // differing first, then apart, then the same; corpus order within
  EXPECT_EQ(t.rows[1].apart, "skipped by B (requires accelerator:tpu)");
  EXPECT_EQ(t.rows[2].apart, "errored on B (no reply within 10 s)");
  EXPECT_EQ(t.rows[3].apart, "not run on B (not selected for profile lightning-1.6)");
  EXPECT_EQ(t.rows[4].id, "s/same");
  ASSERT_EQ(t.agreement().size(), 1u);
  EXPECT_EQ(t.agreement()[0].compared, 2u);
  EXPECT_EQ(t.agreement()[0].same, 1u);
  EXPECT_EQ(t.by_field(), (std::map<std::string, std::size_t>{{"/plan/strategy/name", 1}}));
  EXPECT_EQ(t.by_rule(), (std::map<std::string, std::size_t>{{"r.one", 1}, {"r.two", 1}}));
  t.corpus = "my fixtures";
  EXPECT_EQ(t.reproduce(t.rows[0]), "accord compare 'my fixtures' --filter '^s/differs$' --impl reference --impl 'python3 impl.py' "
                                    "--impl-profile spec --impl-profile lightning-1.6");
  for (const char* format : {"text", "markdown", "json", "html"}) {
    std::string out = render_comparison(t, format);
    EXPECT_NE(out.find("ddp_spawn"), std::string::npos) << format;  // the differing value
    EXPECT_NE(out.find("skipped by B"), std::string::npos) << format;
    EXPECT_EQ(out.find("s/same"), std::string::npos) << format;  // agreeing cases listed only with list_all
  }
  t.list_all = true;
  EXPECT_NE(render_comparison(t, "text").find("s/same"), std::string::npos);
}

TEST(Comparison, ThreeSidesAgreementPerPair) {
  std::vector<Fixture> fx = {fixture("s/one", {}), fixture("s/two", {})};
  std::vector<CaseResult> a = {answered("s/one", plan("ddp", "cuda:0")), answered("s/two", error("err_x"))};
  std::vector<CaseResult> b = {answered("s/one", plan("ddp", "cuda:0")), answered("s/two", error("err_y"))};
  std::vector<CaseResult> c = {answered("s/one", plan("dp", "cuda:0")), answered("s/two", error("err_x"))};
  ComparisonTable t = build_comparison({{"A", "reference:spec", "spec"}, {"B", "reference:spec", "spec"}, {"C", "x", "spec"}}, fx, {a, b, c});
  auto p = t.agreement();
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].same, 1u);  // A-B: s/one
  EXPECT_EQ(p[1].same, 1u);  // A-C: s/two
  EXPECT_EQ(p[2].same, 0u);  // B-C: neither
  EXPECT_NE(t.reproduce(t.rows[0]).find(" --impl x --profile spec"), std::string::npos);  // one profile: said once
  t.implementations.pop_back();  // only `reference:PROFILE` left: the profiles go without saying
  EXPECT_EQ(t.reproduce(t.rows[0]), "accord compare '' --filter '^s/one$' --impl reference:spec --impl reference:spec");
}

TEST(Comparison, ShellQuote) {
  EXPECT_EQ(shell_quote("reference:spec"), "reference:spec");
  EXPECT_EQ(shell_quote("python3 a.py"), "'python3 a.py'");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_quote(""), "''");
}

}  // namespace
}  // namespace accord::conformance
