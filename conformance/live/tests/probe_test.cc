// probe_test.cc: probe_hardware() on this machine, its JSON shape, and the `probe` command.
#include <regex>
#include <set>

#include "accord/conformance/live.h"
#include "nccl_library.h"
#include "test_util.h"

namespace accord::conformance {
namespace {

TEST(Probe, HardwareBlockHasProtocolKeysAndTypes) {
  const HardwareProbe p = probe_hardware();
  const std::set<std::string> known = {"cuda_devices", "cuda_names", "mps", "tpu", "ipu", "hpu", "fork",
                                       "torch_distributed", "cudnn_benchmark", "packages", "gpu_busy",
                                       "nccl_version"};
  for (const auto& [key, value] : p.hardware.items()) EXPECT_TRUE(known.count(key)) << key;
  EXPECT_TRUE(p.hardware["cuda_devices"].is_number_integer());
  EXPECT_EQ(p.hardware["cuda_names"].size(), p.hardware["cuda_devices"].get<std::size_t>());
  EXPECT_EQ(p.hardware["mps"], false);
  EXPECT_EQ(p.hardware["fork"], true);
  EXPECT_EQ(p.hardware["torch_distributed"], true);
  EXPECT_TRUE(p.hardware["cudnn_benchmark"].is_boolean());
  EXPECT_TRUE(p.hardware["packages"].is_array());
  const auto& nccl = p.hardware["nccl_version"];
  EXPECT_TRUE(nccl.is_null() || std::regex_match(nccl.get<std::string>(), std::regex(R"(\d+\.\d+\.\d+)"))) << nccl;
}

TEST(Probe, CpuOnlyMachineSaysSo) {
  const HardwareProbe p = probe_hardware();
  if (p.hardware["cuda_devices"].get<int>() > 0) GTEST_SKIP() << "this machine has CUDA devices";
  EXPECT_TRUE(p.hardware["cuda_names"].empty());
  EXPECT_NE(p.details["summary"].get<std::string>().find("CPU only"), std::string::npos) << p.details["summary"];
  EXPECT_EQ(p.details["backends"]["nccl"], false);
  EXPECT_EQ(p.details["backends"]["nccl-direct"], false);
  EXPECT_EQ(p.details["backends"]["gloo"], true);
}

TEST(Probe, ToJsonMergesIntoACase) {
  const nlohmann::json j = to_json(probe_hardware());
  EXPECT_TRUE(j["hardware"].is_object());
  EXPECT_TRUE(j["interactive"].is_boolean());
  EXPECT_TRUE(j["details"]["torch"]["version"].is_string());
}

TEST(Probe, CommandPrintsTheSameJson) {
  live::ScratchDir dir;
  live::ChildSpec c;
  c.argv = {"/proc/self/exe", "probe", "--compact"};
  c.log_path = dir.file("probe.log");
  const auto results = live::run_children({c}, {30, 1});
  ASSERT_TRUE(results[0].ok()) << live::describe_end(results[0]);
  const std::string out = live::file_tail(c.log_path, 100000);
  const nlohmann::json j = nlohmann::json::parse(out.substr(out.rfind("{\"details\"")));
  EXPECT_EQ(j["hardware"]["cuda_devices"], probe_hardware().hardware["cuda_devices"]);
  EXPECT_EQ(j["interactive"], false);  // stdin of a launched child is /dev/null
}

TEST(NcclVersion, DecodesBothVersionCodeLayouts) {
  EXPECT_EQ(live::nccl_version_string(22809), "2.28.9");
  EXPECT_EQ(live::nccl_version_string(21805), "2.18.5");
  EXPECT_EQ(live::nccl_version_string(2708), "2.7.8");
}

}  // namespace
}  // namespace accord::conformance
