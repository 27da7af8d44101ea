// select_test.cc: stage 2 (accelerator, devices, cluster environment, strategy, precision).
#include <algorithm>

#include "../test_util.h"

namespace accord::reference::testing {
namespace {
constexpr Profile kL16 = Profile::kLightning16;
using Fields = std::vector<std::string>;

TEST(Select, AutoPriorityAndAvailability) {
  EXPECT_EQ(run(R"({"flags": {"accelerator": "auto"}, "hardware": {"cuda_devices": 2, "tpu": true}})").plan().accelerator, "tpu");
  auto o = run(R"({"flags": {"accelerator": "ipu"}, "hardware": {"cuda_devices": 1}})");
  EXPECT_THAT(o, FailsWith(DiagCode::kAcceleratorUnavailable, Fields{"accelerator_class", "available"}));
  EXPECT_EQ(o.error().field("available"), "['cpu', 'gpu']");
}

// A plan's params are in key order, as its JSON object writes them: a registered name's (whose tables/strategies.def
// cell may list them in another order, DeepSpeed's stage first) as an instance's (a sorted map of arguments).
TEST(Select, RegisteredStrategyParamsAreInKeyOrder) {
  int several = 0;
  for (const auto& info : profiles())
    for (const auto& r : strategies()) {
      if (!in_profile(r, policy(info.profile))) continue;
      const std::string text = R"({"flags": {"strategy": ")" + std::string(r.name) +
                               R"(", "accelerator": "gpu", "devices": 2}, "hardware": {"cuda_devices": 2, "packages":
                               ["deepspeed", "fairscale", "horovod", "bagua", "colossalai", "lightning-bagua",
                               "lightning-colossalai"]}})";
      const Outcome o = run(text, info.profile);
      if (!o.ok()) continue;
      const auto& params = o.plan().strategy.params;
      for (size_t k = 1; k < params.size(); ++k) EXPECT_LT(params[k - 1].first, params[k].first) << r.name << " " << info.name;
      several += params.size() > 1;
    }
  EXPECT_GE(several, 4);  // DeepSpeed's offload stages, the DDP spawn variants with start_method
}

TEST(Select, MalformedDevicesGiveTypedErrors) {
  struct Row { const char* devices; DiagCode code; };
  for (const Row& r : {Row{"-1", DiagCode::kCpuDevicesInvalid}, Row{"\"abc\"", DiagCode::kCpuDevicesInvalid},
                       Row{"[1, 2]", DiagCode::kCpuDevicesInvalid}, Row{"18446744073709551615", DiagCode::kValueOutOfRange},
                       Row{"1e30", DiagCode::kCpuDevicesInvalid}}) {
    auto o = run(std::string(R"({"flags": {"accelerator": "cpu", "devices": )") + r.devices + "}}");
    EXPECT_THAT(o, FailsWith(r.code, Fields{"flag", "value"})) << r.devices;
  }
  auto g = run(R"({"flags": {"accelerator": "gpu", "devices": "1, "}, "hardware": {"cuda_devices": 2}})");
  EXPECT_THAT(g, FailsWith(DiagCode::kDevicesNotInt, Fields{"flag", "value"}));
  EXPECT_EQ(g.error().field("value"), "'1, '");
}

// select.devices-gpu-torchelastic fires only under TorchElastic, with exactly one visible GPU, for a request of other
// than one id (PL 1.6.5 device_parser.parse_gpu_ids); each condition missing leaves it out of the trace.
TEST(Select, TorchElasticExceptionNeedsAllItsConditions) {
  const std::string elastic = R"("env": {"TORCHELASTIC_RUN_ID": "1"}, )";
  auto fired = [](const Outcome& o) {
    return std::find(o.trace.begin(), o.trace.end(), RuleId::kGpuTorchElasticException) != o.trace.end();
  };
  auto with = [&](const std::string& env, int gpus, const char* devices) {
    return run(R"({)" + env + R"("flags": {"accelerator": "gpu", "devices": )" + devices +
                   R"(}, "hardware": {"torch_distributed": true, "cuda_devices": )" + std::to_string(gpus) + "}}",
               kL16);
  };
  EXPECT_TRUE(fired(with(elastic, 1, "[0, 1]")));
  EXPECT_FALSE(fired(with(elastic, 2, "[0, 1]")));  // two visible GPUs
  EXPECT_FALSE(fired(with(elastic, 1, "[0]")));     // one id requested
  EXPECT_FALSE(fired(with("", 2, "2")));            // no TorchElastic
  EXPECT_FALSE(fired(with("", 1, "[0, 1]")));       // no TorchElastic: the ids are checked (and fail)
}

TEST(Select, GpuParserForms) {
  struct Row { const char* devices; std::vector<std::string> want; };
  for (const Row& r : {Row{"2", {"cuda:0", "cuda:1"}}, Row{"-1", {"cuda:0", "cuda:1"}}, Row{"\"-1\"", {"cuda:0", "cuda:1"}},
                       Row{"\"1,\"", {"cuda:1"}}, Row{"\"0,1\"", {"cuda:0", "cuda:1"}}, Row{"[1]", {"cuda:1"}}, Row{"\"1\"", {"cuda:0"}}}) {
    auto o = run(std::string(R"({"flags": {"accelerator": "gpu", "devices": )") + r.devices + "}, \"hardware\": {\"cuda_devices\": 2}}");
    ASSERT_TRUE(o.ok()) << r.devices << " " << o.error();
    EXPECT_EQ(o.plan().parallel_devices, r.want) << r.devices;
  }
}

TEST(Select, SlurmManagesOnlyWhenCountsMatch) {
  auto o = run(R"({"flags": {"accelerator": "cpu", "devices": 2}, "env": {"SLURM_NTASKS": "0x2", "SLURM_PROCID": "1", "SLURM_LOCALID": "1", )"
    R"("SLURM_NODEID": "0"}})");
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o.plan().cluster_environment.cls, "SLURMEnvironment");
  EXPECT_EQ(o.plan().strategy.name, "ddp");  // the default ddp_spawn falls back under SLURM (1.6.5 _check_strategy_and_fallback)
  EXPECT_TRUE(std::none_of(o.notes.begin(), o.notes.end(), [](const Diagnostic& d) { return d.code == DiagCode::kStrategyClusterFallback; }))
      << "the default is not the user's choice, so replacing it is not a fallback";
  auto asked = run(R"({"flags": {"accelerator": "cpu", "devices": 2, "strategy": "ddp_spawn"}, "env": {"SLURM_NTASKS": "2", "SLURM_PROCID": "0", )"
    R"("SLURM_LOCALID": "0", "SLURM_NODEID": "0"}})");
  EXPECT_THAT(asked, ResolvesTo("ddp"));
  EXPECT_THAT(asked, Warns(DiagCode::kStrategyClusterFallback));
  EXPECT_EQ(o.plan().cluster_environment.global_rank, 1);
  auto skip = run(R"({"flags": {"accelerator": "cpu", "devices": 2}, "env": {"SLURM_NTASKS": "3"}})");
  EXPECT_EQ(skip.plan().cluster_environment.cls, "LightningEnvironment");
  EXPECT_THAT(skip, Warns(DiagCode::kSlurmNotManaging));
  EXPECT_TRUE(run(R"({"flags": {"accelerator": "cpu", "devices": 2}, "env": {"SLURM_NTASKS": "3"}})", kL16).notes.empty());
}

TEST(Select, DpOnCpu) {
  EXPECT_THAT(run(R"({"flags": {"strategy": "dp"}})"), FailsWith(DiagCode::kStrategyNeedsGpu, Fields{"strategy", "accelerator"}));
  auto o = run(R"({"flags": {"strategy": "dp"}})", kL16);
  EXPECT_THAT(o, ResolvesTo("ddp"));
  EXPECT_THAT(o, Warns(DiagCode::kStrategyCpuFallback));
}

TEST(Select, GpuAcceleratorInstanceWithOneDevice) {
  const char* c = R"({"flags": {"accelerator": "GPUAccelerator", "devices": 1}, "hardware": {"cuda_devices": 1}})";
  EXPECT_EQ(run(c).plan().strategy.root_device, "cuda:0");
  EXPECT_EQ(run(c, kL16).plan().strategy.root_device, "cpu");
}

TEST(Select, TpuWithForeignStrategyFailsBeforePrecisionInSpec) {
  const char* c = R"({"flags": {"accelerator": "tpu", "strategy": "ddp", "precision": 16}, "hardware": {"tpu": true}})";
  auto spec = run(c);
  EXPECT_THAT(spec, FailsWith(DiagCode::kAcceleratorStrategyMismatch, Fields{"accelerator_class", "strategy_class"}));
  EXPECT_TRUE(spec.notes.empty());
  auto l16 = run(c, kL16);
  EXPECT_THAT(l16, FailsWith(DiagCode::kAcceleratorStrategyMismatch, Fields{"accelerator_class", "strategy_class"}));
  EXPECT_THAT(l16, Warns(DiagCode::kTpuPrecision16));
}

TEST(Select, PrecisionOnCpuBecomesBf16WithAWarning) {
  auto o = run(R"({"flags": {"precision": 16}})");
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o.plan().precision.value, "bf16");
  EXPECT_EQ(o.plan().precision.device, "cpu");
  EXPECT_THAT(o, Warns(DiagCode::kCpuPrecision16));
}

TEST(Select, ShardedApexIsOwnedByTheStrategyInSpec) {
  const char* c = R"({"flags": {"strategy": "ddp_sharded", "precision": 16, "amp_backend": "apex", "accelerator": "gpu", "devices": 2}, )"
    R"("hardware": {"cuda_devices": 2}})";
  EXPECT_EQ(run(c).error().field("owner"), "DDPShardedStrategy");
  EXPECT_EQ(run(c).trace.back(), RuleId::kStrategyAmpBackends);
  EXPECT_EQ(run(c, kL16).trace.back(), RuleId::kShardedApex);
}

}  // namespace
}  // namespace accord::reference::testing
