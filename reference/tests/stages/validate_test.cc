// validate_test.cc: stage 1 (flag checks and final flags), both profiles.
#include "../test_util.h"

namespace accord::reference::testing {
namespace {
using ::testing::Not;
constexpr Profile kSpec = Profile::kSpec;
constexpr Profile kL16 = Profile::kLightning16;

TEST(Validate, StrategyNamesAreCaseInsensitive) {
  EXPECT_THAT(run(R"({"flags": {"strategy": "DDP_Spawn", "accelerator": "cpu", "devices": 2}})"), ResolvesTo("ddp_spawn"));
  EXPECT_THAT(run(R"({"flags": {"strategy": "DDP_Spawn", "accelerator": "cpu", "devices": 2}})", kL16), ResolvesTo("ddp_spawn"));
}

TEST(Validate, UnknownAcceleratorIsAnErrorInSpecAndIgnoredIn16) {
  EXPECT_THAT(run(R"({"flags": {"accelerator": "GPU"}})"), FailsWith(DiagCode::kAcceleratorUnknown, std::vector<std::string>{"accelerator", "allowed"}));
  auto o = run(R"({"flags": {"accelerator": "GPU"}, "hardware": {"cuda_devices": 2}})", kL16);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o.plan().accelerator, "cpu");
}

TEST(Validate, SameStrategyThroughTwoFlags) {
  EXPECT_THAT(run(R"({"flags": {"strategy": "ddp", "accelerator": "ddp", "devices": 2}})"),
              FailsWith(DiagCode::kStrategyAcceleratorConflict, std::vector<std::string>{"strategy", "accelerator"}));
  auto o = run(R"({"flags": {"strategy": "DDP", "accelerator": "ddp", "devices": 2}})", kL16);
  EXPECT_THAT(o, ResolvesTo("ddp"));
  EXPECT_THAT(o, Warns(DiagCode::kAcceleratorStrategyDeprecated));
}

TEST(Validate, PrecisionSpellings) {
  for (const char* p : {"16", "\"16\"", "\"16-mixed\""}) {
    auto o = run(std::string(R"({"flags": {"accelerator": "gpu", "precision": )") + p + "}, \"hardware\": {\"cuda_devices\": 1}}");
    ASSERT_TRUE(o.ok()) << p;
    EXPECT_EQ(o.plan().precision.plugin, "NativeMixedPrecisionPlugin") << p;
  }
  EXPECT_THAT(run(R"({"flags": {"precision": "16"}})", kL16), FailsWith(DiagCode::kPrecisionUnset, std::vector<std::string>{"precision"}));
  EXPECT_THAT(run(R"({"flags": {"precision": "16-mixed"}})", kL16), FailsWith(DiagCode::kPrecisionInvalid, std::vector<std::string>{"precision"}));
  EXPECT_THAT(run(R"({"flags": {"precision": "mixed"}})"), FailsWith(DiagCode::kPrecisionInvalid, std::vector<std::string>{"precision", "allowed"}));
  EXPECT_THAT(run(R"({"flags": {"precision": 16.0}})"), FailsWith(DiagCode::kPrecisionInvalid, std::vector<std::string>{"precision"}));
}

TEST(Validate, PluginsOnePerKind) {
  EXPECT_THAT(run(R"({"flags": {"plugins": ["TorchCheckpointIO", "XLACheckpointIO"]}})", kL16),
              FailsWith(DiagCode::kPluginsDuplicate, std::vector<std::string>{"kinds"}));
  auto o = run(R"({"flags": {"plugins": [{"class": "Nope"}]}})");
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error().field("plugin"), "Nope()");
}

TEST(Validate, PrecisionAndPluginTogether) {
  const char* c = R"({"flags": {"precision": 64, "plugins": ["PrecisionPlugin"]}})";
  EXPECT_THAT(run(c), FailsWith(DiagCode::kFlagConflict, std::vector<std::string>{"first", "second"}));
  auto o = run(c, kL16);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o.plan().precision.plugin, "PrecisionPlugin");
}

TEST(Validate, DevicesZeroNamesTheAcceleratorAsGiven) {
  auto o = run(R"({"flags": {"devices": false, "accelerator": "gpu"}})", kL16);
  EXPECT_THAT(o, FailsWith(DiagCode::kDevicesZero, std::vector<std::string>{"devices", "accelerator"}));
  EXPECT_EQ(o.error().field("accelerator"), "gpu");
  EXPECT_EQ(o.error().field("devices"), "False");
  EXPECT_EQ(run(R"({"flags": {"devices": "0"}})").error().field("accelerator"), "None");
}

TEST(Validate, LegacyFlags) {
  auto o = run(R"({"flags": {"devices": 4, "gpus": 2}, "hardware": {"cuda_devices": 2}})", kL16);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o.plan().parallel_devices, (std::vector<std::string>{"cuda:0", "cuda:1"}));
  EXPECT_THAT(o, Warns(DiagCode::kDevicesIgnoredLegacy));
  EXPECT_THAT(run(R"({"flags": {"accelerator": "cpu", "gpus": 2}})"), FailsWith(DiagCode::kFlagConflict, std::vector<std::string>{"first", "second"}));
  auto same = run(R"({"flags": {"accelerator": "gpu", "gpus": 2}, "hardware": {"cuda_devices": 2}})");
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same.plan().parallel_devices.size(), 2u);
  auto ignored = run(R"({"flags": {"gpus": "0"}, "hardware": {"cuda_devices": 2}})", kL16);
  ASSERT_TRUE(ignored.ok());
  EXPECT_EQ(ignored.plan().accelerator, "cpu");
}

// The flags the multiple-legacy-flags note names are those passed (not None), in the order 1.6.5 reads them
// (num_processes, gpus, ipus, tpu_cores; tables/diagnostics.def "has been set: {flags}"); spec's conflict names the
// first truthy one and the last other one given.
TEST(Validate, LegacyFlagsNamedAreThoseGiven) {
  auto o = run(R"({"flags": {"gpus": 2, "num_processes": 2, "ipus": null}, "hardware": {"cuda_devices": 2}})", kL16);
  ASSERT_TRUE(o.ok());
  const Diagnostic* note = nullptr;
  for (const auto& n : o.notes)
    if (n.code == DiagCode::kMultipleLegacyFlags) note = &n;
  ASSERT_NE(note, nullptr);
  EXPECT_EQ(note->field("flags"), "num_processes=2, gpus=2");  // ipus=None is not set
  auto spec = run(R"({"flags": {"gpus": 2, "num_processes": 0, "tpu_cores": 8}})");
  EXPECT_EQ(spec.error().field("first"), "gpus=2");
  EXPECT_EQ(spec.error().field("second"), "tpu_cores=8");
}

TEST(Validate, NumNodes) {
  EXPECT_THAT(run(R"({"flags": {"num_nodes": 0}})"), FailsWith(DiagCode::kNumNodesInvalid, std::vector<std::string>{"num_nodes"}));
  EXPECT_THAT(run(R"({"flags": {"num_nodes": "2"}})"), FailsWith(DiagCode::kNumNodesInvalid, std::vector<std::string>{"num_nodes"}));
  EXPECT_THAT(run(R"({"flags": {"num_nodes": "2", "accelerator": "cpu"}})", kL16), ResolvesTo("ddp"));
  EXPECT_THAT(run(R"({"flags": {"num_nodes": 99999999999}})", kL16), FailsWith(DiagCode::kValueOutOfRange, std::vector<std::string>{"flag", "value"}));
}

TEST(Validate, AmpBackend) {
  EXPECT_THAT(run(R"({"flags": {"amp_backend": "bogus"}})"), FailsWith(DiagCode::kAmpBackendInvalid, std::vector<std::string>{"amp_backend"}));
  EXPECT_THAT(run(R"({"flags": {"amp_backend": "bogus"}})", kL16), Not(FailsWith(DiagCode::kAmpBackendInvalid, std::vector<std::string>{})));
  EXPECT_THAT(run(R"({"flags": {"amp_backend": "native", "amp_level": "O2"}})", kL16),
              FailsWith(DiagCode::kAmpLevelWithoutApex, std::vector<std::string>{"amp_level", "amp_backend"}));
}

}  // namespace
}  // namespace accord::reference::testing
