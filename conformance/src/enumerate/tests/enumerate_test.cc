// enumerate_test.cc: domains, covering arrays, the worker pool, decision tables and their diff.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "accord/reference/json_io.h"
#include "accord/reference/resolve.h"
#include "enumerate/covering.h"
#include "enumerate/diff.h"
#include "enumerate/domain.h"
#include "enumerate/outcome_class.h"
#include "enumerate/run.h"
#include "enumerate/table.h"

namespace accord::enumerate {
namespace {

/// A per-process prefix in the test temp directory: two test runs at once (plain and sanitizer builds) must not
/// write each other's tables.
std::string scratch_prefix() { return ::testing::TempDir() + "accord-enumerate-" + std::to_string(getpid()) + "-"; }
using nlohmann::json;
namespace ref = accord::reference;

const json kSmall = json::parse(R"({"axes": [
  {"name": "cluster", "presets": [{"label": "none", "case": {}},
                                  {"label": "slurm", "case": {"env": {"SLURM_NTASKS": "2", "SLURM_PROCID": "0", "SLURM_LOCALID": "0", "SLURM_NODEID": "0"}}}]},
  {"name": "cuda", "hardware": "cuda_devices", "values": [0, 2]},
  {"name": "devices", "flag": "devices", "absent": true, "values": [1, 2, "0,1"]},
  {"name": "accelerator", "flag": "accelerator", "absent": true, "values": ["cpu", "gpu", "GPU"]},
  {"name": "strategy", "flag": "strategy", "absent": true, "values": ["ddp", "DDP_Spawn", "dp", "foo"]}]})");

Domain small() {
  Domain d;
  std::string error;
  EXPECT_TRUE(load_domain(kSmall, &d, &error)) << error;
  return d;
}

/// The case of a cell built from scratch: every axis applied to a default case.
ref::Case fresh_case(const Domain& d, std::uint64_t cell) {
  ref::Case c;
  auto digits = d.decode(cell);
  for (std::size_t a = 0; a < d.axes.size(); ++a) apply(d.axes[a], digits[a], c);
  return c;
}

TEST(Domain, CountsDecodesAndDescribes) {
  Domain d = small();
  EXPECT_EQ(d.cells(), 2u * 2 * 4 * 4 * 5);
  EXPECT_EQ(d.decode(0), (std::vector<std::uint32_t>{0, 0, 0, 0, 0}));
  EXPECT_EQ(d.decode(1), (std::vector<std::uint32_t>{0, 0, 0, 0, 1}));
  EXPECT_EQ(d.describe(d.decode(d.cells() - 1)), "cluster=slurm cuda=2 devices=0,1 accelerator=GPU strategy=foo");
}

TEST(Domain, AnAxisResetsWhatItOwns) {
  Domain d = small();
  ref::Case c;
  apply(d.axes[0], 1, c);
  EXPECT_EQ(c.env.size(), 4u);
  apply(d.axes[0], 0, c);
  EXPECT_TRUE(c.env.empty());
  apply(d.axes[3], 2, c);
  EXPECT_EQ(c.flags.accelerator.str, "gpu");
  apply(d.axes[3], 0, c);
  EXPECT_TRUE(c.flags.accelerator.is_absent());
}

TEST(Domain, BadFilesNameThePointer) {
  auto error_of = [](const char* text) {
    Domain d;
    std::string error;
    EXPECT_FALSE(load_domain(json::parse(text), &d, &error)) << text;
    return error;
  };
  EXPECT_EQ(error_of(R"({"axes": []})").rfind(": a domain must be", 0), 0u);
  EXPECT_NE(error_of(R"({"axes": [{"name": "a", "flag": "nope", "values": [1]}]})").find("/axes/0/flag: unknown flag"), std::string::npos);
  EXPECT_NE(error_of(R"({"axes": [{"name": "a", "hardware": "cuda_devices", "values": [-1]}]})").find("/axes/0/values/0: /hardware/cuda_devices"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"axes": [{"name": "a", "flag": "devices", "values": [1]}, {"name": "b", "flag": "devices", "values": [2]}]})")
                .find("already set by axis 'a'"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"axes": [{"name": "a", "flag": "devices", "values": [1, 1]}]})").find("duplicate value label"), std::string::npos);
}

TEST(Domain, TheDefaultDomainHasOverTenMillionCells) {
  const char* root = std::getenv("ACCORD_SOURCE_DIR");
  ASSERT_NE(root, nullptr);
  std::ifstream in(std::string(root) + "/property_tests/domains/default.json");
  Domain d;
  std::string error;
  ASSERT_TRUE(load_domain(json::parse(in), &d, &error)) << error;
  EXPECT_GE(d.cells(), 10000000u);
}

TEST(OutcomeClass, SameFromPlanAndFromWireJson) {
  Domain d = small();
  std::string direct;
  for (std::uint64_t k = 0; k < d.cells(); ++k) {
    auto o = ref::resolve(fresh_case(d, k), ref::Profile::kSpec);
    outcome_class(o, &direct);
    EXPECT_EQ(direct, outcome_class(json::parse(ref::outcome_to_json(o).dump()))) << d.describe(d.decode(k));
  }
  auto o = ref::resolve(ref::Case{}, ref::Profile::kSpec);
  outcome_class(o, &direct);
  EXPECT_EQ(direct, "single_device|cpu|1|32|Lightning");
  EXPECT_EQ(outcome_class(json::parse(R"({"status": "weird"})")), "!invalid");
}

TEST(Run, WorkersAgreeWithResolvingEachCellFromScratch) {
  Domain d = small();
  RunOptions one, two;
  one.jobs = 1;
  two.jobs = 2;
  two.chunk = 7;  // chunks that start mid-odometer
  auto make = [] { return reference_classifier(ref::Profile::kSpec); };
  RunResult a = run_cells(d, nullptr, make, one), b = run_cells(d, nullptr, make, two);
  ASSERT_EQ(a.ids.size(), d.cells());
  std::string cls;
  for (std::uint64_t k = 0; k < d.cells(); ++k) {
    outcome_class(ref::resolve(fresh_case(d, k), ref::Profile::kSpec), &cls);
    EXPECT_EQ(a.classes[a.ids[k]], cls) << d.describe(d.decode(k));
    EXPECT_EQ(b.classes[b.ids[k]], cls) << d.describe(d.decode(k));
  }
}

TEST(Table, RoundTripAndDiff) {
  Domain d = small();
  auto run = [&](ref::Profile p) {
    Table t;
    t.domain = d;
    t.header = {{"domain", kSmall}, {"profile", ref::profile_name(p)}};
    RunResult r = run_cells(d, nullptr, [p] { return reference_classifier(p); }, RunOptions{});
    t.ids = r.ids;
    t.classes = r.classes;
    return t;
  };
  Table spec = run(ref::Profile::kSpec), l16 = run(ref::Profile::kLightning16);
  std::string dir = scratch_prefix(), error;
  ASSERT_TRUE(write_table(dir + "spec.table", spec, &error)) << error;
  ASSERT_TRUE(write_table(dir + "l16.table", l16, &error)) << error;
  Table a, b;
  ASSERT_TRUE(read_table(dir + "spec.table", &a, &error)) << error;
  ASSERT_TRUE(read_table(dir + "l16.table", &b, &error)) << error;
  std::remove((dir + "spec.table").c_str());
  std::remove((dir + "l16.table").c_str());
  ASSERT_EQ(a.ids, spec.ids);
  EXPECT_EQ(a.classes, spec.classes);
  EXPECT_EQ(diff_tables(a, a, 10).differing, 0u);
  TableDiff diff = diff_tables(a, b, 1000);
  EXPECT_EQ(diff.compared, d.cells());
  EXPECT_GT(diff.differing, 0u);  // dp on CPU: an error in spec, ddp in 1.6.5 (decision 4b)
  bool dp = false;
  for (const auto& c : diff.cells) dp = dp || (c.class_a == "err_strategy_needs_gpu" && c.class_b.rfind("ddp|cpu", 0) == 0);
  EXPECT_TRUE(dp);
}

TEST(Table, CoveringRowsDiffByLabels) {
  Domain d = small();
  Table full, cover;
  full.domain = cover.domain = d;
  full.header = cover.header = {{"domain", kSmall}};
  auto make = [] { return reference_classifier(ref::Profile::kSpec); };
  auto r = run_cells(d, nullptr, make, RunOptions{});
  full.ids = r.ids, full.classes = r.classes;
  cover.exhaustive = false;
  cover.rows = covering_array({2, 2, 4, 4, 5}, 2);
  auto rc_ = run_cells(d, &cover.rows, make, RunOptions{});
  cover.ids = rc_.ids, cover.classes = rc_.classes;
  std::string dir = scratch_prefix(), error;
  ASSERT_TRUE(write_table(dir + "cover.table", cover, &error)) << error;
  Table back;
  ASSERT_TRUE(read_table(dir + "cover.table", &back, &error)) << error;
  std::remove((dir + "cover.table").c_str());
  EXPECT_EQ(back.rows, cover.rows);
  TableDiff diff = diff_tables(back, full, 10);
  EXPECT_EQ(diff.compared, cover.rows.size());
  EXPECT_EQ(diff.differing, 0u);
  EXPECT_EQ(diff.only_a, 0u);
}

RC_GTEST_PROP(Covering, EveryTupleIsCovered, ()) {
  auto sizes = *rc::gen::container<std::vector<std::uint32_t>>(*rc::gen::inRange<std::size_t>(1, 7), rc::gen::inRange<std::uint32_t>(1, 6));
  int t = *rc::gen::inRange(1, 4);
  auto rows = covering_array(sizes, t);
  RC_ASSERT(covers(rows, sizes, t));
  std::uint64_t product = 1;
  for (auto s : sizes) product *= s;
  RC_ASSERT(rows.size() <= product);
  if (static_cast<std::size_t>(t) >= sizes.size()) RC_ASSERT(rows.size() == product);
}

}  // namespace
}  // namespace accord::enumerate
