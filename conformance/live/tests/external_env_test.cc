// external_env_test.cc: processes the "cluster" creates (SLURM-like, TorchElastic-like variables).
#include "accord/conformance/live.h"
#include "ports.h"
#include "test_plans.h"
#include "test_util.h"

namespace accord::conformance {
namespace {

using nlohmann::json;
using Env = std::map<std::string, std::string>;

Env slurm(int rank, int ntasks, int port) {
  return {{"SLURM_NTASKS", std::to_string(ntasks)}, {"SLURM_PROCID", std::to_string(rank)},
          {"SLURM_LOCALID", std::to_string(rank)},  {"SLURM_NODEID", "0"},
          {"SLURM_JOB_NAME", "accord-live-test"},   {"SLURM_JOB_ID", "4242"},
          {"MASTER_PORT", std::to_string(port)}};
}

Env torchelastic(int rank, int port) {
  return {{"TORCHELASTIC_RUN_ID", "accord"}, {"RANK", std::to_string(rank)}, {"LOCAL_RANK", std::to_string(rank)},
          {"WORLD_SIZE", "2"}, {"GROUP_RANK", "0"}, {"LOCAL_WORLD_SIZE", "2"},
          {"MASTER_ADDR", "127.0.0.1"}, {"MASTER_PORT", std::to_string(port)}};
}

void expect_external_ok(const std::vector<json>& reports, const std::string& env_class) {
  ASSERT_EQ(reports.size(), 2U);
  for (int i = 0; i < 2; ++i) {
    const json& r = reports[i];
    ASSERT_EQ(r["status"], "ok") << r.dump(2);
    EXPECT_EQ(r["mode"], "external");
    EXPECT_EQ(r["started"], 1);
    const json& rep = r["ranks"][0]["report"];
    EXPECT_EQ(rep["source"], env_class);
    EXPECT_EQ(rep["rank"], i);
    EXPECT_EQ(rep["collective"]["ranks_seen"], json({0, 1}));
  }
}

TEST(External, SlurmTwoTasks) {
  const int port = live::pick_free_port();
  const json plan = testing::external_plan(2, "SLURMEnvironment");
  expect_external_ok(testing::launch_as_cluster(plan, {slurm(0, 2, port), slurm(1, 2, port)}), "SLURMEnvironment");
}

TEST(External, TorchElasticTwoWorkers) {
  const int port = live::pick_free_port();
  const json plan = testing::external_plan(2, "TorchElasticEnvironment");
  expect_external_ok(testing::launch_as_cluster(plan, {torchelastic(0, port), torchelastic(1, port)}),
                     "TorchElasticEnvironment");
}

TEST(External, WorldSizeDisagreeingWithThePlanIsReported) {
  const json plan = testing::external_plan(2, "SLURMEnvironment");
  const auto reports = testing::launch_as_cluster(plan, {slurm(0, 3, live::pick_free_port())});
  EXPECT_EQ(testing::error_code(reports[0]), "live_world_size_mismatch") << reports[0].dump(2);
}

TEST(External, MissingMasterPortIsReported) {
  Env env = torchelastic(0, 1);
  env.erase("MASTER_PORT");
  env["WORLD_SIZE"] = "1";
  const auto reports = testing::launch_as_cluster(testing::external_plan(1, "TorchElasticEnvironment"), {env});
  EXPECT_EQ(testing::error_code(reports[0]), "live_env_missing") << reports[0].dump(2);
  EXPECT_EQ(reports[0]["error"]["fields"]["variable"], "MASTER_PORT");
}

TEST(External, TakenPortIsReportedByTheStoreServer) {
  testing::TakenPort taken;
  const auto reports = testing::launch_as_cluster(testing::external_plan(1, "SLURMEnvironment"),
                                                  {slurm(0, 1, taken.port())}, 10);
  EXPECT_EQ(testing::error_code(reports[0]), "live_port_in_use") << reports[0].dump(2);
  EXPECT_EQ(reports[0]["error"]["fields"]["port"], std::to_string(taken.port()));
}

}  // namespace
}  // namespace accord::conformance
