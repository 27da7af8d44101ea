// launch_test.cc: real 2-process gloo bring-up through each launcher, and how failures are reported.
#include <unistd.h>

#include <chrono>

#include "accord/conformance/live.h"
#include "test_plans.h"
#include "test_util.h"

namespace accord::conformance {
namespace {

using nlohmann::json;
using testing::error_code;

LaunchOptions quick(double timeout_s = 30) {
  LaunchOptions o;
  o.timeout_s = timeout_s;
  return o;
}

// Every rank reported, all-reduced 1+2 and saw ranks 0 and 1.
void expect_two_ranks_ok(const json& r, const std::string& mode) {
  ASSERT_EQ(r["status"], "ok") << r.dump(2);
  EXPECT_EQ(r["mode"], mode);
  EXPECT_EQ(r["backend"], "gloo");
  EXPECT_EQ(r["started"], 2);
  ASSERT_EQ(r["ranks"].size(), 2U);
  for (int i = 0; i < 2; ++i) {
    const json& rep = r["ranks"][i]["report"];
    EXPECT_EQ(rep["rank"], i);
    EXPECT_EQ(rep["local_rank"], i);
    EXPECT_EQ(rep["world_size"], 2);
    EXPECT_EQ(rep["collective"]["sum"], 3.0);
    EXPECT_EQ(rep["collective"]["ranks_seen"], json({0, 1}));
    EXPECT_NE(rep["pid"], static_cast<int>(getpid()));
  }
}

TEST(Launch, DdpSubprocessScriptTwoRanks) {
  const json r = launch(testing::ddp_plan(2), quick());
  expect_two_ranks_ok(r, "subprocess_script");
  EXPECT_EQ(r["ranks"][0]["report"]["source"], "launcher");
}

TEST(Launch, SpawnTwoRanks) { expect_two_ranks_ok(launch(testing::spawn_plan(2, "spawn"), quick()), "spawn"); }

TEST(Launch, ForkTwoRanks) { expect_two_ranks_ok(launch(testing::spawn_plan(2, "fork"), quick()), "fork"); }

TEST(Launch, NoLauncherRunsInThisProcess) {
  const json r = launch(testing::single_plan(), quick());
  ASSERT_EQ(r["status"], "ok") << r.dump(2);
  EXPECT_EQ(r["mode"], "in_process");
  EXPECT_EQ(r["ranks"][0]["pid"], static_cast<int>(getpid()));
  EXPECT_EQ(r["ranks"][0]["report"]["collective"]["sum"], 1.0);
}

TEST(Launch, TwoSimulatedNodesOnCpu) {
  json plan = testing::ddp_plan(1);
  plan["num_nodes"] = 2;
  plan["cluster_environment"]["world_size"] = 2;
  const json r = launch(plan, quick());
  ASSERT_EQ(r["status"], "ok") << r.dump(2);
  EXPECT_EQ(r["ranks"][1]["report"]["node_rank"], 1);
  EXPECT_EQ(r["ranks"][1]["report"]["local_rank"], 0);
}

TEST(Launch, DeterministicPlanRaisesInEveryRank) {
  const json r = launch(testing::ddp_plan(2, "true"), quick());
  ASSERT_EQ(r["status"], "ok") << r.dump(2);
  for (const json& rank : r["ranks"]) {
    EXPECT_EQ(rank["report"]["determinism"]["check"]["ops"][0]["observed"], "raised");
  }
}

TEST(Launch, WarnPlanOnlyWarnsInEveryRank) {
  const json r = launch(testing::ddp_plan(2, "warn"), quick());
  ASSERT_EQ(r["status"], "ok") << r.dump(2);
  for (const json& rank : r["ranks"]) {
    EXPECT_EQ(rank["report"]["determinism"]["check"]["ops"][0]["observed"], "warned");
  }
}

TEST(Launch, TakenPortFailsBeforeStart) {
  testing::TakenPort taken;
  LaunchOptions o = quick();
  o.port = taken.port();
  const json r = launch(testing::ddp_plan(2), o);
  EXPECT_EQ(error_code(r), "live_port_in_use") << r.dump(2);
  EXPECT_EQ(r["started"], 0);
  EXPECT_EQ(r["error"]["fields"]["port"], std::to_string(taken.port()));
}

TEST(Launch, CrashedRankIsReportedAndTheOtherStopped) {
  LaunchOptions o = quick(20);
  o.env["ACCORD_LIVE_FAULT"] = "1:crash";
  const auto t0 = std::chrono::steady_clock::now();
  const json r = launch(testing::ddp_plan(2), o);
  EXPECT_EQ(error_code(r), "live_worker_crashed") << r.dump(2);
  EXPECT_EQ(r["error"]["fields"]["rank"], "1");
  EXPECT_NE(r["error"]["message"].get<std::string>().find("signal 6"), std::string::npos) << r["error"];
  EXPECT_TRUE(r["ranks"][0]["aborted"].get<bool>() || r["ranks"][0]["report"].is_object());
  if (r["ranks"][0]["aborted"].get<bool>()) {
    EXPECT_EQ(r["ranks"][0].value("error", json::object()).value("code", ""), "live_worker_aborted");
  }
  EXPECT_EQ(r["ranks"][1].value("error", json::object()).value("code", ""), "live_worker_crashed");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 15.0);
}

TEST(Launch, EarlyExitIsReported) {
  LaunchOptions o = quick(20);
  o.env["ACCORD_LIVE_FAULT"] = "0:exit";
  const json r = launch(testing::spawn_plan(2), o);
  EXPECT_EQ(error_code(r), "live_worker_crashed") << r.dump(2);
  EXPECT_NE(r["error"]["message"].get<std::string>().find("exited with status 3"), std::string::npos);
}

TEST(Launch, HangingRanksAreKilledAtTheDeadline) {
  LaunchOptions o = quick(2);
  o.env["ACCORD_LIVE_FAULT"] = "*:hang";
  const auto t0 = std::chrono::steady_clock::now();
  const json r = launch(testing::ddp_plan(2), o);
  EXPECT_EQ(error_code(r), "live_worker_timeout") << r.dump(2);
  EXPECT_TRUE(r["ranks"][0]["timed_out"].get<bool>());
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 15.0);
}

TEST(Launch, OneHangingRankTimesOutTheRendezvous) {
  LaunchOptions o = quick(3);  // rank 0 reports by the deadline; the supervisor kills 5 s later
  o.env["ACCORD_LIVE_FAULT"] = "1:hang";
  const json r = launch(testing::ddp_plan(2), o);
  EXPECT_EQ(error_code(r), "live_store_timeout") << r.dump(2);
  EXPECT_EQ(r["error"]["fields"]["rank"], "0");
  EXPECT_TRUE(r["ranks"][1]["aborted"].get<bool>() || r["ranks"][1]["timed_out"].get<bool>());
}

}  // namespace
}  // namespace accord::conformance
