// rank_env_test.cc: reading ranks from SLURM, TorchElastic, Kubeflow, LSF and launcher variables.
#include "rank_env.h"
#include "test_util.h"

namespace accord::conformance::live {
namespace {

using testing::failure_code;

TEST(RankEnv, SlurmRanksAndJobIdPort) {
  const Environ env = {{"SLURM_NTASKS", "4"}, {"SLURM_PROCID", "3"}, {"SLURM_LOCALID", "1"},
                       {"SLURM_NODEID", "1"}, {"SLURM_JOB_ID", "987654"}};
  const RankInfo r = read_external_rank("SLURMEnvironment", env);
  EXPECT_EQ(r.global_rank, 3);
  EXPECT_EQ(r.local_rank, 1);
  EXPECT_EQ(r.node_rank, 1);
  EXPECT_EQ(r.world_size, 4);
  EXPECT_EQ(r.master_port, 15000 + 7654);  // PL: last four digits of the job id + 15000
  EXPECT_EQ(r.master_addr, "127.0.0.1");
  EXPECT_EQ(r.source, "SLURMEnvironment");
}

TEST(RankEnv, SlurmPortFallbacks) {
  Environ env = {{"SLURM_NTASKS", "1"}, {"SLURM_PROCID", "0"}, {"SLURM_LOCALID", "0"}, {"SLURM_NODEID", "0"}};
  EXPECT_EQ(read_external_rank("SLURMEnvironment", env).master_port, 12910);
  env["MASTER_PORT"] = "29512";
  env["MASTER_ADDR"] = "10.0.0.7";
  EXPECT_EQ(read_external_rank("SLURMEnvironment", env).master_port, 29512);
  EXPECT_EQ(read_external_rank("SLURMEnvironment", env).master_addr, "10.0.0.7");
}

TEST(RankEnv, TorchElasticNeedsItsVariables) {
  Environ env = {{"RANK", "1"}, {"LOCAL_RANK", "1"}, {"GROUP_RANK", "0"}, {"WORLD_SIZE", "2"}};
  EXPECT_EQ(failure_code([&] { (void)read_external_rank("TorchElasticEnvironment", env); }), "live_env_missing");
  env["MASTER_PORT"] = "29500";
  const RankInfo r = read_external_rank("TorchElasticEnvironment", env);
  EXPECT_EQ(r.global_rank, 1);
  EXPECT_EQ(r.world_size, 2);
  env["RANK"] = "one";
  EXPECT_EQ(failure_code([&] { (void)read_external_rank("TorchElasticEnvironment", env); }), "live_env_invalid");
  env["RANK"] = "2";
  EXPECT_EQ(failure_code([&] { (void)read_external_rank("TorchElasticEnvironment", env); }), "live_env_invalid");
}

TEST(RankEnv, KubeflowNodeRankIsTheGlobalRank) {
  const Environ env = {{"RANK", "2"}, {"WORLD_SIZE", "3"}, {"MASTER_PORT", "1234"}};
  const RankInfo r = read_external_rank("KubeflowEnvironment", env);
  EXPECT_EQ(r.node_rank, 2);
  EXPECT_EQ(r.local_rank, 0);
}

TEST(RankEnv, LsfUsesJsmVariables) {
  const Environ env = {{"JSM_NAMESPACE_RANK", "1"}, {"JSM_NAMESPACE_LOCAL_RANK", "1"},
                       {"JSM_NAMESPACE_SIZE", "2"}, {"MASTER_PORT", "1234"}};
  EXPECT_EQ(read_external_rank("LSFEnvironment", env).global_rank, 1);
}

TEST(RankEnv, UnknownEnvironmentIsUnsupported) {
  EXPECT_FALSE(knows_cluster_env("MyClusterEnvironment"));
  EXPECT_EQ(failure_code([] { (void)read_external_rank("MyClusterEnvironment", {}); }),
            "live_cluster_env_unsupported");
}

TEST(RankEnv, LauncherVariables) {
  const Environ env = {{"WORLD_SIZE", "4"}, {"NODE_RANK", "1"}, {"LOCAL_RANK", "1"}, {"MASTER_PORT", "2000"}};
  const RankInfo script = read_launched_rank(env, std::nullopt, 2);
  EXPECT_EQ(script.global_rank, 3);  // NODE_RANK * procs + LOCAL_RANK when RANK is unset
  const RankInfo spawned = read_launched_rank(env, 0, 2);
  EXPECT_EQ(spawned.global_rank, 2);
  EXPECT_EQ(spawned.local_rank, 0);
  EXPECT_EQ(failure_code([] { (void)read_launched_rank({{"MASTER_PORT", "1"}}, 0, 1); }), "live_env_missing");
}

TEST(RankEnv, CurrentEnvironIsReadable) {
  setenv("ACCORD_RANK_ENV_TEST", "x=y", 1);
  EXPECT_EQ(current_environ().at("ACCORD_RANK_ENV_TEST"), "x=y");
  unsetenv("ACCORD_RANK_ENV_TEST");
}

}  // namespace
}  // namespace accord::conformance::live
