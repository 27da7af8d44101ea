// reuse_test.cc: resolve(case, profile, outcome) into an outcome that holds another case's result (its storage
// reused) gives exactly the outcome of resolve(case, profile), for every pair of a few cases that fill every part an
// outcome can carry: a plan with registered or user-given strategy params, an error, notes, a long trace, SLURM
// ranks, Fabric's LT_* arguments (two journals in one resolution).
#include "test_util.h"

namespace accord::reference::testing {
namespace {
using nlohmann::json;

const char* const kCases[] = {
    R"({})",
    R"({"flags": {"strategy": {"class": "DDPStrategy", "args": {"find_unused_parameters": false, "static_graph": true}}, "accelerator": "cpu", "devices": 2}})",
    R"({"flags": {"strategy": {"class": "DeepSpeedStrategy", "args": {"stage": 3}}, "accelerator": "gpu", "devices": 2,
                  "precision": 16}, "hardware": {"cuda_devices": 4, "packages": ["deepspeed"]}})",
    R"({"flags": {"strategy": "ddp_spawn", "accelerator": "gpu", "devices": "0,1", "sync_batchnorm": true,
                  "deterministic": true}, "hardware": {"cuda_devices": 2}})",
    R"({"flags": {"strategy": "no_such_strategy"}})",
    R"({"flags": {"accelerator": "tpu", "devices": 3}, "hardware": {"tpu": true}})",
    R"({"flags": {"strategy": "ddp", "num_nodes": 2, "devices": 2, "accelerator": "gpu"}, "hardware": {"cuda_devices": 2},
        "env": {"SLURM_NTASKS": "4", "SLURM_JOB_NAME": "train", "SLURM_PROCID": "3", "SLURM_LOCALID": "1", "SLURM_NODEID": "1"}})",
    R"({"flags": {"accelerator": "cpu", "devices": 2}, "env": {"LT_ACCELERATOR": "cpu", "LT_STRATEGY": "ddp", "LT_DEVICES": "2"}})",
};

Case parse(const char* text) {
  Case c;
  std::string err;
  EXPECT_TRUE(case_from_json(json::parse(text), &c, &err)) << err << "\n" << text;
  return c;
}

TEST(ResolveInto, ReusedOutcomeEqualsAFreshOneForEveryPairOfCases) {
  for (const auto& info : profiles())
    for (const char* before : kCases)
      for (const char* now : kCases) {
        Outcome reused = resolve(parse(before), info.profile);
        resolve(parse(now), info.profile, reused);
        EXPECT_EQ(outcome_to_json(reused).dump(), outcome_to_json(resolve(parse(now), info.profile)).dump())
            << info.name << ": " << now << " after " << before;
      }
}

}  // namespace
}  // namespace accord::reference::testing
