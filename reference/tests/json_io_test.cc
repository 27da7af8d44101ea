// json_io_test.cc: the wire form: case parsing errors name the JSON Pointer; round trips are lossless.
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
