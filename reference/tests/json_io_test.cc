// json_io_test.cc: the wire form: case parsing errors name the JSON Pointer; round trips are lossless.
#include <set>

#include "accord/reference/flags.h"
#include "test_util.h"

namespace accord::reference::testing {
namespace {
using nlohmann::json;

std::string parse_error(const std::string& text) {
  Case c;
  std::string err;
  EXPECT_FALSE(case_from_json(json::parse(text), &c, &err)) << text;
  return err;
}

TEST(JsonIo, BadCasesNameThePointerAndValue) {
  EXPECT_EQ(parse_error(R"([1])").rfind(": a case must be a JSON object", 0), 0u);
  EXPECT_NE(parse_error(R"({"flags": {"devicez": 2}})").find("/flags/devicez"), std::string::npos);
  EXPECT_NE(parse_error(R"({"flags": {"devices": {"a": 1}}})").find("/flags/devices"), std::string::npos);
  EXPECT_NE(parse_error(R"({"env": {"X": 1}})").find("/env/X"), std::string::npos);
  EXPECT_NE(parse_error(R"({"hardware": {"cuda_devices": -1}})").find("/hardware/cuda_devices"), std::string::npos);
  EXPECT_NE(parse_error(R"({"hardware": {"gpus": 1}})").find("unknown hardware key"), std::string::npos);
  EXPECT_NE(parse_error(R"({"interactive": "yes"})").find("/interactive"), std::string::npos);
  EXPECT_NE(parse_error(R"({"flags": {"plugins": [{"class": "X", "argz": {}}]}})").find("/flags/plugins/0/argz"), std::string::npos);
  EXPECT_NE(parse_error(R"({"extra": 1})").find("unknown case key"), std::string::npos);
}

TEST(JsonIo, BadPartsNameThePointerAndTheValue) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"flags": [1]})", "/flags: must be an object, got [1]"},
      {R"({"env": "RANK=0"})", "/env: must be an object of strings, got \"RANK=0\""},
      {R"({"hardware": 2})", "/hardware: must be an object, got 2"},
      {R"({"hardware": {"mps": 1}})", "/hardware/mps: must be true or false, got 1"},
      {R"({"hardware": {"tpu": "yes"}})", "/hardware/tpu: must be true or false, got \"yes\""},
      {R"({"hardware": {"ipu": null}})", "/hardware/ipu: must be true or false, got null"},
      {R"({"hardware": {"hpu": 0}})", "/hardware/hpu: must be true or false, got 0"},
      {R"({"hardware": {"fork": "no"}})", "/hardware/fork: must be true or false, got \"no\""},
      {R"({"hardware": {"torch_distributed": []}})", "/hardware/torch_distributed: must be true or false, got []"},
      {R"({"hardware": {"cudnn_benchmark": {}}})", "/hardware/cudnn_benchmark: must be true or false, got {}"},
      {R"({"hardware": {"cuda_devices": 4097}})", "/hardware/cuda_devices: must be an integer in 0..4096, got 4097"},
      {R"({"hardware": {"cuda_devices": "2"}})", "/hardware/cuda_devices: must be an integer in 0..4096, got \"2\""},
      {R"({"hardware": {"tpu_cores": -8}})", "/hardware/tpu_cores: must be a non-negative integer, got -8"},
      {R"({"hardware": {"tpu_cores": 8.0}})", "/hardware/tpu_cores: must be a non-negative integer, got 8.0"},
      {R"({"hardware": {"packages": "apex"}})", "/hardware/packages: must be a list of package names, got \"apex\""},
      {R"({"hardware": {"packages": ["apex", 1]}})", "/hardware/packages/1: must be a string, got 1"},
      {R"({"hardware": {"gpu_busy": 0}})", "/hardware/gpu_busy: must be a list of GPU ids, got 0"},
      {R"({"hardware": {"gpu_busy": [0, "1"]}})", "/hardware/gpu_busy/1: must be an integer, got \"1\""},
      {R"({"flags": {"strategy": {"args": {}}}})", "/flags/strategy: an object must be an instance {\"class\": \"Name\", \"args\": {...}}, got {\"args\":{}}"},
      {R"({"flags": {"strategy": {"class": 1}}})", "/flags/strategy: an object must be an instance {\"class\": \"Name\", \"args\": {...}}, got {\"class\":1}"},
      {R"({"flags": {"strategy": {"class": "DDPStrategy", "args": [1]}}})", "/flags/strategy/args: must be an object, got [1]"},
      {R"({"flags": {"strategy": {"class": "DDPStrategy", "args": {"x": {"y": 1}}}}})",
       "/flags/strategy/args/x: an object must be an instance {\"class\": \"Name\", \"args\": {...}}, got {\"y\":1}"},
      {R"({"flags": {"devices": [0, {"a": 1}]}})", "/flags/devices/1: an object must be an instance {\"class\": \"Name\", \"args\": {...}}, got {\"a\":1}"},
  };
  for (const auto& [text, message] : cases) EXPECT_EQ(parse_error(text), message) << text;
}

TEST(JsonIo, LongValuesAreShortenedInMessages) {
  std::string err = parse_error(json{{"hardware", std::string(200, 'x')}}.dump());
  EXPECT_EQ(err, "/hardware: must be an object, got \"" + std::string(76, 'x') + "...");
  // The limit is 80 characters of JSON text: a value of exactly 80 is kept whole, one of 81 is shortened.
  EXPECT_EQ(parse_error(json{{"hardware", std::string(78, 'x')}}.dump()),
            "/hardware: must be an object, got \"" + std::string(78, 'x') + "\"");
  EXPECT_EQ(parse_error(json{{"hardware", std::string(79, 'x')}}.dump()),
            "/hardware: must be an object, got \"" + std::string(76, 'x') + "...");
}

TEST(JsonIo, HardwareFacts) {
  Case c;
  std::string err;
  ASSERT_TRUE(case_from_json(json::parse(R"({"hardware": {"tpu_cores": 8, "mps": true, "ipu": false, "hpu": true,
      "fork": false, "torch_distributed": false, "cudnn_benchmark": true, "gpu_busy": [1], "cuda_devices": 4096,
      "cuda_names": ["A100"], "nccl_version": "2.10", "probe": {"torch": "1.11"}}, "interactive": true})"), &c, &err)) << err;
  EXPECT_TRUE(c.hardware.tpu);
  EXPECT_TRUE(c.hardware.mps);
  EXPECT_FALSE(c.hardware.ipu);
  EXPECT_TRUE(c.hardware.hpu);
  EXPECT_FALSE(c.hardware.fork);
  EXPECT_FALSE(c.hardware.torch_distributed);
  EXPECT_TRUE(c.hardware.cudnn_benchmark);
  EXPECT_EQ(c.hardware.gpu_busy, SortedSet<int>{1});
  EXPECT_EQ(c.hardware.cuda_devices, 4096);
  EXPECT_TRUE(c.interactive);
  ASSERT_TRUE(case_from_json(json::parse(R"({"hardware": {"tpu_cores": 0}})"), &c, &err)) << err;
  EXPECT_FALSE(c.hardware.tpu);  // tpu_cores: 0 means no TPU
}

// flag_names() and flag_slot() are the rows of tables/flags.def, in table order, one distinct UserFlags member each.
TEST(JsonIo, FlagNamesInWireOrder) {
  UserFlags f;
  std::set<const PyValue*> members;
  ASSERT_EQ(flag_names().size(), flags().size());
  for (std::size_t k = 0; k < flags().size(); ++k) {
    int index = -1;
    bool instances = false;
    EXPECT_EQ(flag_names()[k], flags()[k].name);
    EXPECT_EQ(flag_slot(f, flags()[k].name, &index, &instances), &(f.*flags()[k].member));
    EXPECT_EQ(index, static_cast<int>(k));
    EXPECT_EQ(instances, flags()[k].instances);
    members.insert(&(f.*flags()[k].member));
  }
  EXPECT_EQ(members.size() * sizeof(PyValue), sizeof(UserFlags)) << "every UserFlags member is a row";
}

TEST(JsonIo, OnlyAFlagsOwnNameFindsItsRow) {
  std::size_t longest = 0;
  for (const auto& f : flags()) {
    const std::string name = f.name;
    longest = std::max(longest, name.size());
    EXPECT_EQ(flag_row(name), &f);
    std::string other_last = name, other_first = name;
    other_last.back() = other_last.back() == 'z' ? 'y' : 'z';     // same length and first letter
    other_first.front() = other_first.front() == 'z' ? 'y' : 'z';  // same length and last letter
    EXPECT_EQ(flag_row(other_last), nullptr) << other_last;
    EXPECT_EQ(flag_row(other_first), nullptr) << other_first;
    EXPECT_EQ(flag_row(name.substr(0, name.size() - 1)), nullptr) << name;
    EXPECT_EQ(flag_row(name + "s"), nullptr) << name;
  }
  // Names past the longest flag's length, the first of them exactly one longer (the edge of the length look-up).
  for (std::size_t n = longest + 1; n <= longest + 3; ++n) EXPECT_EQ(flag_row(std::string(n, 'a')), nullptr) << n;
  EXPECT_EQ(flag_row(""), nullptr);
}

TEST(JsonIo, ValuesBackToJson) {
  Case c;
  std::string err;
  ASSERT_TRUE(case_from_json(json::parse(R"({"flags": {"devices": 18446744073709551615, "precision": 16.5,
      "num_nodes": -2, "deterministic": null, "benchmark": true, "gpus": [0, "1"],
      "strategy": {"class": "DDPStrategy", "args": {"find_unused_parameters": false, "cluster_environment": "SLURMEnvironment"}},
      "plugins": {"class": "TorchCheckpointIO"}}})"), &c, &err)) << err;
  json flags = case_to_json(c)["flags"];
  EXPECT_EQ(flags["devices"], json::parse("18446744073709551615"));
  EXPECT_EQ(flags["precision"], 16.5);
  EXPECT_EQ(flags["num_nodes"], -2);
  EXPECT_EQ(flags["deterministic"], nullptr);
  EXPECT_EQ(flags["benchmark"], true);
  EXPECT_EQ(flags["gpus"], json::parse(R"([0, "1"])"));
  EXPECT_EQ(flags["strategy"], json::parse(R"({"class": "DDPStrategy", "args": {"find_unused_parameters": false,
      "cluster_environment": {"class": "SLURMEnvironment"}}})"));
  EXPECT_EQ(flags["plugins"], json::parse(R"({"class": "TorchCheckpointIO"})"));
  EXPECT_FALSE(flags.contains("accelerator"));  // not passed: absent, not null
}

TEST(JsonIo, ClassNamesBecomeInstancesOnlyWhereInstancesAreAllowed) {
  Case c;
  std::string err;
  ASSERT_TRUE(case_from_json(json::parse(R"({"flags": {"strategy": "DDPStrategy", "devices": "DDPStrategy",
      "plugins": ["SLURMEnvironment", {"class": "Mystery"}]}})"), &c, &err)) << err;
  EXPECT_TRUE(c.flags.strategy.is_instance());
  EXPECT_TRUE(c.flags.devices.is_str());
  EXPECT_TRUE(c.flags.plugins.list[0].is_instance());
  EXPECT_EQ(c.flags.plugins.list[1].inst->cls, "Mystery");
}

TEST(JsonIo, HugeIntegersStayExact) {
  Case c;
  std::string err;
  ASSERT_TRUE(case_from_json(json::parse(R"({"flags": {"devices": 18446744073709551615}})"), &c, &err));
  EXPECT_EQ(c.flags.devices.kind, PyValue::Kind::kBigInt);
  EXPECT_EQ(repr(c.flags.devices), "18446744073709551615");
}

TEST(JsonIo, CaseRoundTripKeepsTheOutcome) {
  const char* text = R"({"flags": {"strategy": {"class": "DDPStrategy", "args": {"find_unused_parameters": false}},
      "accelerator": "cpu", "devices": "2", "precision": "bf16", "plugins": ["TorchCheckpointIO"]},
      "env": {"LOCAL_RANK": "0"}, "hardware": {"cuda_devices": 1, "packages": ["apex"]}, "interactive": false})";
  Case a, b;
  std::string err;
  ASSERT_TRUE(case_from_json(json::parse(text), &a, &err));
  ASSERT_TRUE(case_from_json(case_to_json(a), &b, &err)) << err;
  for (Profile p : {Profile::kSpec, Profile::kLightning16})
    EXPECT_EQ(outcome_to_json(resolve(a, p)), outcome_to_json(resolve(b, p)));
}

TEST(JsonIo, OutcomeShape) {
  json ok = outcome_to_json(run(R"({"flags": {"accelerator": "cpu", "devices": 2, "strategy": "ddp_find_unused_parameters_false"}})"));
  EXPECT_EQ(ok["status"], "ok");
  EXPECT_EQ(ok["plan"]["strategy"]["params"]["find_unused_parameters"], false);
  EXPECT_EQ(ok["plan"]["parallel_devices"], json::array({"cpu", "cpu"}));
  EXPECT_TRUE(ok["trace"].is_array());
  json err = outcome_to_json(run(R"({"flags": {"strategy": "dp", "accelerator": "cpu"}})"));
  EXPECT_EQ(err["status"], "error");
  EXPECT_EQ(err["error"]["code"], "err_strategy_needs_gpu");
  EXPECT_EQ(err["error"]["fields"]["strategy"], "'dp'");
  EXPECT_NE(err["error"]["message"].get<std::string>().find("strategy='dp'"), std::string::npos);
}

}  // namespace
}  // namespace accord::reference::testing
