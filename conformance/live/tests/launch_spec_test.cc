// launch_spec_test.cc: how a plan maps onto a launch mode, process counts and devices.
#include "launch_spec.h"
#include "test_plans.h"
#include "test_util.h"

namespace accord::conformance::live {
namespace {

using nlohmann::json;
using testing::failure_code;

TEST(LaunchSpec, DdpIsASubprocessScriptPerDevice) {
  const LaunchSpec s = read_launch_spec(testing::ddp_plan(2));
  EXPECT_EQ(s.mode, LaunchMode::kSubprocessScript);
  EXPECT_EQ(s.world_size, 2);
  EXPECT_EQ(s.procs_per_node, 2);
  EXPECT_EQ(s.devices, (std::vector<std::string>{"cpu", "cpu"}));
}

TEST(LaunchSpec, SpawnStartMethodDecidesExecOrFork) {
  EXPECT_EQ(read_launch_spec(testing::spawn_plan(2, "spawn")).mode, LaunchMode::kSpawn);
  EXPECT_EQ(read_launch_spec(testing::spawn_plan(2, "forkserver")).mode, LaunchMode::kSpawn);
  EXPECT_EQ(read_launch_spec(testing::spawn_plan(2, "fork")).mode, LaunchMode::kFork);
}

TEST(LaunchSpec, ExternalEnvironmentOverridesTheLauncher) {
  const LaunchSpec s = read_launch_spec(testing::external_plan(2, "SLURMEnvironment"));
  EXPECT_EQ(s.mode, LaunchMode::kExternal);
  EXPECT_EQ(s.world_size, 2);
  EXPECT_EQ(s.procs_per_node, 1);
  EXPECT_EQ(s.env_class, "SLURMEnvironment");
  // PL >= 2.0 keeps a spawn launcher under SLURM; the processes still come from the cluster.
  json spawned = testing::spawn_plan(2);
  spawned["cluster_environment"]["class"] = "TorchElasticEnvironment";
  spawned["cluster_environment"]["creates_processes_externally"] = true;
  EXPECT_EQ(read_launch_spec(spawned).mode, LaunchMode::kExternal);
}

TEST(LaunchSpec, NoLauncherRunsOneProcessOnTheRootDevice) {
  const LaunchSpec s = read_launch_spec(testing::single_plan());
  EXPECT_EQ(s.mode, LaunchMode::kInProcess);
  EXPECT_EQ(s.world_size, 1);
  EXPECT_EQ(s.devices, std::vector<std::string>{"cpu"});
  // Trainer(strategy="dp", devices=2): one process, num_processes 2, world size 1, root cuda:0.
  json dp = testing::make_plan(2, "cuda", {{"kind", nullptr}});
  dp["cluster_environment"]["world_size"] = 1;
  const LaunchSpec d = read_launch_spec(dp);
  EXPECT_EQ(d.mode, LaunchMode::kInProcess);
  EXPECT_EQ(d.devices, std::vector<std::string>{"cuda:0"});
  EXPECT_EQ(d.all_devices.size(), 3U);
}

TEST(LaunchSpec, AcceptsAWholeOutcome) {
  const json outcome = {{"status", "ok"}, {"plan", testing::ddp_plan(2)}};
  EXPECT_EQ(read_launch_spec(outcome).world_size, 2);
  const json failed = {{"status", "error"}, {"error", {{"code", "err_strategy_unknown"}}}};
  EXPECT_EQ(failure_code([&] { (void)read_launch_spec(failed); }), "live_plan_not_ok");
}

TEST(LaunchSpec, RejectsWhatNoMachineHereRuns) {
  json xla = testing::ddp_plan(2);
  xla["launcher"] = {{"kind", "xla"}};
  EXPECT_EQ(failure_code([&] { (void)read_launch_spec(xla); }), "live_launcher_unsupported");
  json tpu = testing::ddp_plan(2);
  tpu["parallel_devices"] = {"xla:0", "xla:1"};
  EXPECT_EQ(failure_code([&] { (void)read_launch_spec(tpu); }), "live_accelerator_unsupported");
}

TEST(LaunchSpec, RejectsInconsistentPlans) {
  json world = testing::ddp_plan(2);
  world["cluster_environment"]["world_size"] = 3;
  EXPECT_EQ(failure_code([&] { (void)read_launch_spec(world); }), "live_plan_invalid");
  json few = testing::ddp_plan(2);
  few["parallel_devices"] = {"cpu"};
  EXPECT_EQ(failure_code([&] { (void)read_launch_spec(few); }), "live_plan_invalid");
  json lone = testing::single_plan();
  lone["cluster_environment"]["world_size"] = 2;
  EXPECT_EQ(failure_code([&] { (void)read_launch_spec(lone); }), "live_plan_invalid");
  EXPECT_EQ(failure_code([&] { (void)read_launch_spec(json::array()); }), "live_plan_invalid");
  json nodes = testing::ddp_plan(2);
  nodes["num_nodes"] = "two";
  EXPECT_EQ(failure_code([&] { (void)read_launch_spec(nodes); }), "live_plan_invalid");
}

TEST(LaunchSpec, CudaDeviceNames) {
  EXPECT_EQ(cuda_index("cuda:3"), 3);
  EXPECT_EQ(cuda_index("cuda"), 0);
  EXPECT_EQ(cuda_index("cpu"), -1);
  EXPECT_EQ(cuda_index("cuda:"), -1);
  EXPECT_EQ(cuda_index("cuda:1x"), -1);
}

}  // namespace
}  // namespace accord::conformance::live
