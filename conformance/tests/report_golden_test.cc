// report_golden_test.cc: every reporter's output against a golden file, volatile fields normalised.
// Regenerate with ACCORD_UPDATE_GOLDEN=1 (then review the diff).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include "accord/conformance/comparison.h"
#include "accord/conformance/loader.h"
#include "accord/conformance/report.h"
#include "mutant/mutant_adapter.h"
#include "test_support.h"

namespace accord::conformance {
namespace {

std::string normalise(std::string s) {
  const std::string data = ACCORD_TEST_DATA;
  for (std::size_t p; (p = s.find(data)) != std::string::npos;) s.replace(p, data.size(), "<data>");
  const std::pair<const char*, const char*> rules[] = {
      {R"("seconds":[0-9.eE+-]+)", R"("seconds":0)"},
      {R"(time="[0-9.]+")", R"(time="0")"},
      {R"([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z)", "<timestamp>"},
      {R"(\b[0-9]+(\.[0-9]+)? (ms|s)\b)", "<duration>"},
  };
  for (const auto& [from, to] : rules) s = std::regex_replace(s, std::regex(from), to);
  return s;
}

/// The JSON report without what the reference's own evolution changes (outcomes, capabilities):
/// the golden file tests the report's shape, not the resolver.
std::string without_volatile_json(const std::string& lines) {
  std::istringstream in(lines);
  std::string out;
  for (std::string l; std::getline(in, l);) {
    nlohmann::json j = nlohmann::json::parse(l);
    j.erase("outcome");
    if (j.contains("implementation")) j["implementation"].erase("capabilities");
    out += j.dump() + "\n";
  }
  return out;
}

void check_golden(const std::string& name, const std::string& actual) {
  const std::string path = std::string(ACCORD_TEST_GOLDEN) + "/" + name;
  const std::string got = normalise(actual);
  const char* update = std::getenv("ACCORD_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") {
    std::ofstream(path, std::ios::trunc) << got;
    GTEST_SKIP() << "updated " << path;
  }
  EXPECT_EQ(got, testing::read_file(path)) << "golden " << path << " differs; rerun with ACCORD_UPDATE_GOLDEN=1 and review";
}

std::vector<CaseResult> run_into(const AdapterFactory& f, ResultSink& extra) {
  Corpus c = load_corpus(testing::data_dir("mutant"));
  Runner r(f, RunOptions{});
  std::string err;
  EXPECT_TRUE(r.start(&err));
  CollectingSink collect;
  MultiSink sinks;
  sinks.add(&collect);
  sinks.add(&extra);
  r.run(c.fixtures, testing::data_dir("mutant"), sinks);
  return collect.results;
}

TEST(ReportGolden, TextJsonJunitMarkdownHtml) {
  testing::TempDir d;
  std::ostringstream text;
  MultiSink sinks;
  sinks.add(make_text_reporter(text));
  for (const auto& fmt : report_formats()) {
    std::string err;
    auto s = make_file_reporter(fmt, d.path() + "/report." + fmt, &err);
    ASSERT_TRUE(s) << err;
    sinks.add(std::move(s));
  }
  run_into([] { return testing::make_mutant_adapter(); }, sinks);
  check_golden("conform.txt", text.str());
  for (const auto& fmt : report_formats()) {
    std::string file = testing::read_file(d.path() + "/report." + fmt);
    if (fmt == "json") file = without_volatile_json(file);
    check_golden("conform." + fmt, file);
  }
}

TEST(ReportGolden, ComparisonTable) {
  CollectingSink none;
  auto ref = run_into([] { return make_reference_adapter(); }, none);
  auto mut = run_into([] { return testing::make_mutant_adapter(); }, none);
  Corpus c = load_corpus(testing::data_dir("mutant"));
  ComparisonTable t = build_comparison({{"accord-reference (spec)", "reference", "spec"}, {"accord-mutant (spec)", "mutant", "spec"}}, c.fixtures,
                                       {ref, mut});
  t.corpus = "conformance/tests/data/mutant";
  // Differ: the 4 ddp_spawn cases (name), the 3 benchmark+deterministic cases (warning), ddp_cpu (code).
  EXPECT_EQ(t.differing(), 8u);
  ASSERT_FALSE(t.rows.empty());
  EXPECT_TRUE(t.rows.front().differ);
  for (const char* fmt : {"text", "markdown", "json", "html"}) check_golden(std::string("compare.") + fmt, render_comparison(t, fmt));
}

/// Reports are written while the run goes: before end(), every result so far is in the file.
TEST(ReportStreaming, ResultsAreOnDiskBeforeTheRunEnds) {
  testing::TempDir d;
  for (const auto& fmt : report_formats()) {
    std::string err, path = d.path() + "/r." + fmt;
    auto s = make_file_reporter(fmt, path, &err);
    ASSERT_TRUE(s);
    RunHeader h;
    h.implementation.name = "impl";
    s->begin(h);
    CaseResult r;
    r.id = "strategy/streamed-one";
    r.verdict = Verdict::kFailed;
    s->result(r);
    r.id = "strategy/streamed-two";
    s->result(r);
    std::string partial = testing::read_file(path);
    EXPECT_NE(partial.find("strategy/streamed-one"), std::string::npos) << fmt;
    EXPECT_NE(partial.find("strategy/streamed-two"), std::string::npos) << fmt;
    s->end(Summary{});
    EXPECT_NE(testing::read_file(path).find("strategy/streamed-two"), std::string::npos) << fmt;
  }
}

TEST(ReportFiles, UnwritablePathIsAnError) {
  std::string err;
  EXPECT_EQ(make_file_reporter("json", "/nonexistent/dir/r.json", &err), nullptr);
  EXPECT_NE(err.find("/nonexistent/dir/r.json"), std::string::npos);
  EXPECT_EQ(make_file_reporter("yaml", "/tmp/r.yaml", &err), nullptr);
}

}  // namespace
}  // namespace accord::conformance
