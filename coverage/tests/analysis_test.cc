// analysis_test.cc: rule/code tallies, the gate (with `covers` that must fire), and covered / uncovered / impossible cells on small corpora.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "accord/coverage/analysis.h"
#include "accord/coverage/corpus.h"
#include "accord/reference/json_io.h"

namespace accord::coverage {
namespace {
using reference::Profile;

CorpusCase kase(const std::string& id, const char* given, std::vector<std::string> covers = {},
                std::vector<Profile> profiles = {Profile::kSpec, Profile::kLightning16}) {
  CorpusCase c{id, "test.json", std::move(profiles), std::move(covers), {}};
  std::string err;
  EXPECT_TRUE(reference::case_from_json(nlohmann::json::parse(given), &c.given, &err)) << err;
  return c;
}

int at(Dim d, const char* value) {
  const auto& v = dim_values(d);
  return static_cast<int>(std::find(v.begin(), v.end(), value) - v.begin());
}

const Matrix& matrix(const ProfileReport& p, Dim rows, Dim cols) {
  for (const auto& m : p.matrices)
    if (m.rows == rows && m.cols == cols) return m;
  throw std::runtime_error("no such matrix");
}

const CellResult& cell(const ProfileReport& p, Dim rows, const char* r, Dim cols, const char* c) {
  return matrix(p, rows, cols).cells[static_cast<size_t>(at(rows, r))][static_cast<size_t>(at(cols, c))];
}

const Tally& tally(const std::vector<Tally>& ts, const std::string& name) {
  for (const auto& t : ts)
    if (t.name == name) return t;
  throw std::runtime_error("no tally " + name);
}

TEST(Analysis, CountsRulesAndCodesPerProfile) {
  std::vector<CorpusCase> corpus = {
      kase("a/cpu", R"({"flags": {"accelerator": "cpu", "devices": 2}})"),
      kase("a/tpu64", R"({"flags": {"accelerator": "tpu", "precision": 64}, "hardware": {"tpu": true}})"),
      kase("a/spec-only", R"({"flags": {"accelerator": "CPU"}})", {}, {Profile::kSpec}),
  };
  Report r = analyze(corpus, {Profile::kSpec, Profile::kLightning16});
  ASSERT_EQ(r.profiles.size(), 2u);
  EXPECT_EQ(r.profiles[0].cases, 3);
  EXPECT_EQ(r.profiles[1].cases, 2);
  EXPECT_EQ(r.profiles[0].ok, 1);
  const Tally& spawn = tally(r.profiles[0].rules, "select.strategy-default-ddp-spawn");
  EXPECT_EQ(spawn.cases, 1);
  EXPECT_EQ(spawn.ids, std::vector<std::string>{"a/cpu"});
  EXPECT_EQ(tally(r.profiles[0].codes, "err_tpu_precision_64").cases, 1);
  EXPECT_EQ(tally(r.profiles[0].codes, "err_accelerator_unknown").cases, 1);
  EXPECT_EQ(tally(r.codes_total, "err_tpu_precision_64").cases, 2);  // one run per profile
  // spec-only rules are not listed for lightning-1.6 and vice versa.
  EXPECT_THROW(tally(r.profiles[1].rules, "validate.accelerator-unknown"), std::runtime_error);
  EXPECT_THROW(tally(r.profiles[0].rules, "validate.accelerator-ignored"), std::runtime_error);
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(std::count(r.missing_codes.begin(), r.missing_codes.end(), "err_flag_conflict"));
  EXPECT_TRUE(std::count(r.profiles[0].missing_rules.begin(), r.profiles[0].missing_rules.end(), "select.accelerator-auto-tpu"));
}

TEST(Analysis, ReportsCoversThatDidNotFire) {
  Report r = analyze({kase("a/x", R"({"flags": {"accelerator": "cpu"}})", {"select.accelerator-auto-gpu", "realize.launcher"})},
                     {Profile::kSpec});
  ASSERT_EQ(r.covers_mismatch.size(), 1u);
  EXPECT_EQ(r.covers_mismatch[0], "test.json: a/x [spec]: covers select.accelerator-auto-gpu but it did not fire");
}

TEST(Analysis, ACoversMismatchIsCheckedPerProfileThatHasTheRule) {
  // precision=64 selects the double-precision plugin (select.precision-64), never select.precision-32, on
  // both profiles. validate.accelerator-unknown is a spec-only rule: it fires for 'CPU' on spec, and the
  // lightning-1.6 run (which ignores the unknown name) is not asked to fire it.
  Report r = analyze({kase("a/y", R"({"flags": {"accelerator": "cpu", "precision": 64}})", {"select.precision-32"}),
                      kase("a/z", R"({"flags": {"accelerator": "CPU"}})", {"validate.accelerator-unknown"})},
                     {Profile::kSpec, Profile::kLightning16});
  EXPECT_EQ(r.covers_mismatch, (std::vector<std::string>{
                                   "test.json: a/y [spec]: covers select.precision-32 but it did not fire",
                                   "test.json: a/y [lightning-1.6]: covers select.precision-32 but it did not fire"}));
}

/// Writes `text` as <dir>/cases/bad.json in a fresh directory under the system temp dir; returns the dir.
std::filesystem::path write_fixture(const std::string& name, const std::string& text) {
  auto dir = std::filesystem::temp_directory_path() / ("accord-coverage-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "cases");
  std::ofstream(dir / "cases" / "bad.json") << text;
  return dir;
}

TEST(Analysis, AFixtureWhoseCoversDoesNotFireFailsTheGate) {
  const char* src = std::getenv("ACCORD_SOURCE_DIR");
  ASSERT_NE(src, nullptr) << "ACCORD_SOURCE_DIR is not set";
  std::vector<std::string> errors;
  std::vector<CorpusCase> corpus = load_corpus(std::string(src) + "/fixtures", &errors);
  ASSERT_TRUE(errors.empty()) << errors.front();
  // The real corpus plus one fixture that claims a rule its case never reaches: an explicit cpu
  // accelerator never auto-selects a GPU (SPEC select.accelerator-auto-gpu applies to 'auto' only).
  // Every rule and code has a case, so the mismatch alone fails the gate.
  auto dir = write_fixture("bad-covers", R"({"cases": [{
      "id": "flags/bad-covers", "title": "claims a rule it never reaches",
      "covers": ["select.accelerator-auto-gpu"], "origin": "spec:select.accelerator-auto-gpu",
      "given": {"flags": {"accelerator": "cpu"}},
      "expect": {"plan": {"accelerator": "cpu"}}}]})");
  std::vector<CorpusCase> bad = load_corpus(dir.string(), &errors);
  ASSERT_TRUE(errors.empty()) << errors.front();
  ASSERT_EQ(bad.size(), 1u);
  corpus.push_back(bad[0]);
  // every code has a case in one of them
  Report r = analyze(corpus, {Profile::kSpec, Profile::kLightning16, Profile::kLightning22, Profile::kFabric22});
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(r.missing_codes.empty());
  for (const auto& p : r.profiles) EXPECT_TRUE(p.missing_rules.empty());
  const std::string file = (dir / "cases" / "bad.json").string();
  EXPECT_EQ(r.covers_mismatch, (std::vector<std::string>{
                                   file + ": flags/bad-covers [spec]: covers select.accelerator-auto-gpu but it did not fire",
                                   file + ": flags/bad-covers [lightning-1.6]: covers select.accelerator-auto-gpu but it did not fire"}));
  std::filesystem::remove_all(dir);
}

TEST(Analysis, CellsAreCoveredUncoveredImpossibleOrNotApplicable) {
  Report r = analyze({kase("a/cpu-ddp", R"({"flags": {"accelerator": "cpu", "strategy": "ddp", "devices": 2}})")}, {Profile::kSpec});
  const ProfileReport& p = r.profiles[0];
  const CellResult& covered = cell(p, Dim::kAccelerator, "cpu", Dim::kStrategy, "ddp");
  EXPECT_EQ(covered.status, CellStatus::kCovered);
  EXPECT_EQ(covered.cases, 1);
  EXPECT_EQ(covered.probes, 0);  // an ok case settles the cell without probes
  const CellResult& uncovered = cell(p, Dim::kAccelerator, "gpu", Dim::kStrategy, "ddp");
  EXPECT_EQ(uncovered.status, CellStatus::kUncovered);
  EXPECT_FALSE(uncovered.witness.empty());
  const CellResult& tpu64 = cell(p, Dim::kAccelerator, "tpu", Dim::kPrecision, "64");
  EXPECT_EQ(tpu64.status, CellStatus::kImpossible);
  ASSERT_FALSE(tpu64.errors.empty());
  EXPECT_EQ(tpu64.errors[0].error, "err_tpu_precision_64 (select.precision-tpu-64)");
  EXPECT_GT(tpu64.probes, 0);
  // spec: dp needs a GPU accelerator (decision 4b); lightning-1.6 falls back to ddp instead.
  EXPECT_EQ(cell(p, Dim::kAccelerator, "cpu", Dim::kStrategy, "dp").status, CellStatus::kImpossible);
  EXPECT_EQ(cell(p, Dim::kHardware, "cpu-only", Dim::kAccelerator, "gpu").status, CellStatus::kImpossible);
  EXPECT_EQ(cell(p, Dim::kLegacy, "gpus", Dim::kDevicesForm, "absent").status, CellStatus::kNotApplicable);
  Report l16 = analyze({}, {Profile::kLightning16});
  EXPECT_EQ(cell(l16.profiles[0], Dim::kAccelerator, "cpu", Dim::kStrategy, "dp").status, CellStatus::kUncovered);
}

TEST(Analysis, ErrorCasesInAnImpossibleCellAreCountedWithTheProbes) {
  Report r = analyze({kase("p/tpu64", R"({"flags": {"accelerator": "tpu", "precision": "64"}, "hardware": {"tpu": true}})")},
                     {Profile::kSpec});
  const CellResult& c = cell(r.profiles[0], Dim::kAccelerator, "tpu", Dim::kPrecision, "64");
  EXPECT_EQ(c.status, CellStatus::kImpossible);
  EXPECT_EQ(c.cases, 1);
  EXPECT_EQ(c.case_ids, std::vector<std::string>{"p/tpu64"});
  int total = 0;
  for (const auto& e : c.errors) total += e.count;
  EXPECT_EQ(total, c.probes + 1);
}

TEST(Analysis, AnEmptyCorpusFailsTheGate) {
  Report r = analyze({}, {Profile::kSpec});
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.missing_codes.size(), r.codes_total.size());
}

}  // namespace
}  // namespace accord::coverage
