// plan_check_test.cc: plans this machine cannot honour fail before anything starts.
#include <chrono>

#include "accord/conformance/live.h"
#include "plan_check.h"
#include "test_plans.h"
#include "test_util.h"

namespace accord::conformance::live {
namespace {

using nlohmann::json;
using testing::failure_code;

HardwareProbe machine(int gpus, bool nccl, bool nccl_direct) {
  HardwareProbe p;
  p.hardware = {{"cuda_devices", gpus}, {"fork", true}, {"torch_distributed", true}};
  p.details = {{"summary", "test machine"}, {"backends", {{"gloo", true}, {"nccl", nccl}, {"nccl-direct", nccl_direct}}}};
  return p;
}

json cuda_ddp(int n) { return testing::make_plan(n, "cuda", {{"kind", "subprocess_script"}}); }

TEST(PlanCheck, TwoCudaDevicesOnThisCpuMachineFailBeforeStart) {
  const HardwareProbe here = probe_hardware();
  if (here.hardware["cuda_devices"].get<int>() >= 2) GTEST_SKIP() << "this machine has 2 GPUs";
  const auto t0 = std::chrono::steady_clock::now();
  const json r = launch(cuda_ddp(2), LaunchOptions{});
  EXPECT_EQ(testing::error_code(r), "live_hardware_missing") << r.dump(2);
  EXPECT_EQ(r["started"], 0);
  EXPECT_EQ(r["error"]["fields"]["requested"], "cuda:0, cuda:1");
  EXPECT_NE(r["error"]["message"].get<std::string>().find("0 CUDA device(s)"), std::string::npos) << r["error"];
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10.0);
}

TEST(PlanCheck, BackendChoice) {
  const LaunchSpec cpu = read_launch_spec(testing::ddp_plan(2));
  const LaunchSpec gpu = read_launch_spec(cuda_ddp(2));
  EXPECT_EQ(choose_backend(cpu, "auto", machine(2, true, true)), Backend::kGloo);
  EXPECT_EQ(choose_backend(gpu, "auto", machine(2, true, true)), Backend::kNccl);
  EXPECT_EQ(choose_backend(gpu, "auto", machine(2, false, true)), Backend::kNcclDirect);
  EXPECT_EQ(choose_backend(gpu, "gloo", machine(2, true, true)), Backend::kGloo);
  EXPECT_EQ(failure_code([&] { (void)choose_backend(gpu, "mpi", machine(2, true, true)); }), "live_backend_unavailable");
}

TEST(PlanCheck, EachPredicateHasItsCode) {
  const auto check = [](const json& plan, const HardwareProbe& hw, const std::string& backend = "auto") {
    return failure_code([&] {
      const LaunchSpec spec = read_launch_spec(plan);
      check_against_machine(spec, choose_backend(spec, backend, hw), hw);
    });
  };
  EXPECT_EQ(check(cuda_ddp(2), machine(2, true, false)), "no failure");
  EXPECT_EQ(check(cuda_ddp(2), machine(1, true, false)), "live_hardware_missing");
  EXPECT_EQ(check(cuda_ddp(2), machine(2, false, false)), "live_backend_unavailable");
  EXPECT_EQ(check(testing::ddp_plan(2), machine(0, false, false), "nccl"), "live_backend_unavailable");
  json fork = cuda_ddp(2);
  fork["launcher"] = {{"kind", "spawn"}, {"start_method", "fork"}};
  EXPECT_EQ(check(fork, machine(2, true, false)), "live_launcher_unsupported");
  HardwareProbe no_dist = machine(0, false, false);
  no_dist.hardware["torch_distributed"] = false;
  EXPECT_EQ(check(testing::ddp_plan(2), no_dist), "live_hardware_missing");
  json nodes = cuda_ddp(2);
  nodes["num_nodes"] = 2;
  nodes["cluster_environment"]["world_size"] = 4;
  EXPECT_EQ(check(nodes, machine(2, true, false)), "live_hardware_missing");
}

}  // namespace
}  // namespace accord::conformance::live
