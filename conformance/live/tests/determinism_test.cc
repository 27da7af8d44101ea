// determinism_test.cc: apply_determinism/check_determinism in this process (state restored after each).
#include <cstdlib>
#include <stdexcept>

#include <gtest/gtest.h>

#include "accord/conformance/live.h"
#include "test_plans.h"
#include "torch_facts.h"

namespace accord::conformance {
namespace {

using nlohmann::json;
using testing::determinism_block;

class Determinism : public ::testing::Test {
 protected:
  void SetUp() override { saved_ = live::torch_facts(); }
  void TearDown() override {
    (void)apply_determinism({{"use_deterministic_algorithms", saved_.deterministic_algorithms},
                             {"warn_only", saved_.warn_only},
                             {"cudnn_benchmark", saved_.cudnn_benchmark},
                             {"cudnn_deterministic", saved_.cudnn_deterministic}});
    unsetenv("CUBLAS_WORKSPACE_CONFIG");
  }
  live::TorchFacts saved_;
};

TEST_F(Determinism, TrueMakesANondeterministicOpRaise) {
  (void)apply_determinism(determinism_block("true"));
  const json r = check_determinism(determinism_block("true"));
  EXPECT_TRUE(r["ok"].get<bool>()) << r.dump(2);
  ASSERT_FALSE(r["ops"].empty());
  EXPECT_EQ(r["ops"][0]["op"], "Tensor.put_(accumulate=False)");
  EXPECT_EQ(r["ops"][0]["observed"], "raised");
  EXPECT_NE(r["ops"][0]["message"].get<std::string>().find("use_deterministic_algorithms(True)"), std::string::npos);
}

TEST_F(Determinism, WarnOnlyWarnsInsteadOfRaising) {
  (void)apply_determinism(determinism_block("warn"));
  const json r = check_determinism(determinism_block("warn"));
  EXPECT_TRUE(r["ok"].get<bool>()) << r.dump(2);
  EXPECT_EQ(r["ops"][0]["observed"], "warned");
  EXPECT_NE(r["ops"][0]["message"].get<std::string>().find("warn_only=True"), std::string::npos);
}

TEST_F(Determinism, OffLeavesTheOpSilent) {
  (void)apply_determinism(determinism_block("off"));
  const json r = check_determinism(determinism_block("off"));
  EXPECT_TRUE(r["ok"].get<bool>()) << r.dump(2);
  EXPECT_EQ(r["ops"][0]["observed"], "silent");
}

TEST_F(Determinism, EveryFieldReadsBack) {
  const json applied = apply_determinism(determinism_block("true"))["applied"];
  EXPECT_EQ(applied["use_deterministic_algorithms"], true);
  EXPECT_EQ(applied["cudnn_deterministic"], true);
  EXPECT_EQ(applied["env"]["CUBLAS_WORKSPACE_CONFIG"], ":4096:8");
  const live::TorchFacts now = live::torch_facts();
  EXPECT_TRUE(now.deterministic_algorithms);
  EXPECT_FALSE(now.warn_only);
  EXPECT_FALSE(now.cudnn_benchmark);
  EXPECT_TRUE(now.cudnn_deterministic);
  ASSERT_NE(std::getenv("CUBLAS_WORKSPACE_CONFIG"), nullptr);
  EXPECT_STREQ(std::getenv("CUBLAS_WORKSPACE_CONFIG"), ":4096:8");
}

TEST_F(Determinism, NullFieldsLeaveSettingsUntouched) {
  (void)apply_determinism({{"cudnn_benchmark", true}});
  const json applied = apply_determinism({{"use_deterministic_algorithms", nullptr}, {"cudnn_benchmark", nullptr},
                                          {"env", nullptr}})["applied"];
  EXPECT_TRUE(applied.empty()) << applied;
  EXPECT_TRUE(live::torch_facts().cudnn_benchmark);
  EXPECT_TRUE(apply_determinism(nullptr)["applied"].empty());
}

TEST_F(Determinism, CheckReportsASettingThatDidNotTakeEffect) {
  (void)apply_determinism(determinism_block("off"));
  const json r = check_determinism(determinism_block("true"));
  EXPECT_FALSE(r["ok"].get<bool>());
  EXPECT_EQ(r["checks"][0]["setting"], "use_deterministic_algorithms");
  EXPECT_EQ(r["checks"][0]["actual"], false);
  EXPECT_EQ(r["ops"][0]["observed"], "silent");  // consistent with torch's real state
}

TEST_F(Determinism, WrongTypesAreRejected) {
  EXPECT_THROW((void)apply_determinism({{"use_deterministic_algorithms", "yes"}}), std::invalid_argument);
  EXPECT_THROW((void)apply_determinism({{"env", {{"CUBLAS_WORKSPACE_CONFIG", 8}}}}), std::invalid_argument);
  EXPECT_THROW((void)apply_determinism(json::array()), std::invalid_argument);
  const json r = check_determinism({{"warn_only", 1}});
  EXPECT_FALSE(r["ok"].get<bool>());
  EXPECT_TRUE(r["error"].is_string());
}

TEST_F(Determinism, UnknownDeviceIsAnErrorNotACrash) {
  const json r = check_determinism(determinism_block("off"), "cuda:7");
  EXPECT_FALSE(r["ok"].get<bool>());
  EXPECT_EQ(r["ops"][0]["observed"], "error");
}

}  // namespace
}  // namespace accord::conformance
