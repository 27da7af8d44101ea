// realize_test.cc: stage 3 (launcher, ranks, interactive check, determinism).
#include "../test_util.h"

namespace accord::reference::testing {
namespace {
constexpr Profile kL16 = Profile::kLightning16;
using Fields = std::vector<std::string>;

TEST(Realize, LauncherFollowsTheStrategyAndTheClusterEnvironment) {
  auto spawn = run(R"({"flags": {"accelerator": "cpu", "devices": 2}})");
  EXPECT_EQ(spawn.plan().launcher.kind, "spawn");
  EXPECT_EQ(spawn.plan().launcher.start_method, "spawn");
  auto ddp = run(R"({"flags": {"accelerator": "cpu", "devices": 2, "strategy": "ddp"}})");
  EXPECT_EQ(ddp.plan().launcher.kind, "subprocess_script");
  auto external = run(R"({"flags": {"accelerator": "cpu", "devices": 2, "strategy": "ddp"}, "env": {"LOCAL_RANK": "1"}})");
  EXPECT_EQ(external.plan().launcher.kind, "");
  EXPECT_TRUE(external.plan().cluster_environment.creates_processes_externally);
  EXPECT_EQ(external.plan().cluster_environment.global_rank, 1);
}

TEST(Realize, WorldRanks) {
  auto o = run(R"({"flags": {"accelerator": "cpu", "devices": 2, "num_nodes": 2}, "env": {"NODE_RANK": "1", "LOCAL_RANK": "1"}})");
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o.plan().cluster_environment.world_size, 4);
  EXPECT_EQ(o.plan().cluster_environment.global_rank, 3);
  auto te = run(R"({"flags": {"accelerator": "cpu", "devices": 2, "strategy": "ddp"}, "env": {"TORCHELASTIC_RUN_ID": "1", "RANK": "3", )"
    R"("LOCAL_RANK": "1", "WORLD_SIZE": "4", "GROUP_RANK": "1"}})");
  EXPECT_EQ(te.plan().cluster_environment.world_size, 4);
  EXPECT_EQ(te.plan().cluster_environment.global_rank, 3);
  EXPECT_THAT(run(R"({"flags": {"accelerator": "cpu", "devices": 2, "strategy": "ddp"}, "env": {"TORCHELASTIC_RUN_ID": "1"}})"),
              FailsWith(DiagCode::kEnvMissing, Fields{"environment", "variable"}));
}

TEST(Realize, InteractiveCompatibilityComesFromTheLauncher) {
  auto o = run(R"({"flags": {"accelerator": "cpu", "devices": 2}, "interactive": true})");
  EXPECT_THAT(o, FailsWith(DiagCode::kInteractiveIncompatible, Fields{"strategy", "compatible"}));
  EXPECT_NE(o.error().field("compatible")->find("dp"), std::string::npos);
  EXPECT_NE(o.error().field("compatible")->find("tpu_spawn"), std::string::npos);
  EXPECT_TRUE(run(R"({"flags": {"accelerator": "cpu"}, "interactive": true})").ok());
}

struct DetRow { const char* det; const char* bench; bool prior; bool use; bool warn_only; bool cudnn_bench; bool cublas; };

TEST(Realize, DeterminismMatrixSpec) {
  for (const DetRow& r : {DetRow{"null", "null", true, false, false, true, false}, DetRow{"true", "null", true, true, false, false, true},
                          DetRow{"\"warn\"", "null", true, true, true, false, true}, DetRow{"false", "null", true, false, false, true, false},
                          DetRow{"true", "true", false, true, false, true, true}, DetRow{"null", "false", true, false, false, false, false}}) {
    std::string c = std::string(R"({"flags": {"deterministic": )") + r.det + ", \"benchmark\": " + r.bench +
                    "}, \"hardware\": {\"cudnn_benchmark\": " + (r.prior ? "true" : "false") + "}}";
    auto o = run(c);
    ASSERT_TRUE(o.ok()) << c;
    const auto& d = o.plan().determinism;
    EXPECT_EQ(d.use_deterministic_algorithms, r.use) << c;
    EXPECT_EQ(d.warn_only, r.warn_only) << c;
    EXPECT_EQ(d.cudnn_benchmark, r.cudnn_bench) << c;
    EXPECT_EQ(d.env.count("CUBLAS_WORKSPACE_CONFIG") == 1, r.cublas) << c;
    EXPECT_EQ(d.env.count("HOROVOD_FUSION_THRESHOLD"), 0u) << c;
  }
}

TEST(Realize, DeterminismIn16SetsHorovodFusionAlways) {
  auto o = run(R"({"flags": {"deterministic": true}})", kL16);
  EXPECT_EQ(o.plan().determinism.env.at("HOROVOD_FUSION_THRESHOLD"), "0");
  EXPECT_FALSE(o.plan().determinism.cudnn_deterministic);
  EXPECT_TRUE(run(R"({"flags": {"deterministic": true}})").plan().determinism.cudnn_deterministic);
  EXPECT_THAT(run(R"({"flags": {"deterministic": true, "benchmark": true}})", kL16), Warns(DiagCode::kBenchmarkWithDeterministic));
}

}  // namespace
}  // namespace accord::reference::testing
