// reuse_test.cc: resolve(case, profile, outcome) into an outcome that holds another case's result (its storage
// reused) gives exactly the outcome of resolve(case, profile), for every pair of a few cases that fill every part an
// outcome can carry: a plan with registered or user-given strategy params, an error, one note or four (a kept note's
// storage is reused, the kept notes past the new ones dropped), a long trace, SLURM ranks, Fabric's LT_* arguments
// (two journals in one resolution).
#include <thread>
#include <utility>
#include <variant>
#include <vector>

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
    R"({"flags": {"accelerator": "ddp_spawn", "benchmark": true, "deterministic": true, "precision": 16}})",
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

/// An outcome is a plan or an error, also when it reuses one that held the other: plan() of an error and error() of a
/// plan throw std::bad_variant_access (the plan a failed resolution was filling stays in the outcome's storage, unread).
TEST(ResolveInto, AnOutcomeIsAPlanOrAnErrorWhateverItHeldBefore) {
  const Case plan = parse(kCases[1]), error = parse(kCases[4]);
  for (const auto& info : profiles()) {
    Outcome o = resolve(plan, info.profile);
    ASSERT_TRUE(o.ok()) << info.name;
    EXPECT_EQ(o.plan().num_processes, 2) << info.name;
    EXPECT_THROW(o.error(), std::bad_variant_access) << info.name;
    resolve(error, info.profile, o);
    ASSERT_FALSE(o.ok()) << info.name;
    EXPECT_EQ(o.error().code, DiagCode::kStrategyUnknown) << info.name;
    EXPECT_THROW(o.plan(), std::bad_variant_access) << info.name;
    resolve(plan, info.profile, o);
    EXPECT_TRUE(o.ok()) << info.name;
    EXPECT_EQ(o.plan().num_processes, 2) << info.name;
  }
}

/// Each text resolved on every profile, all in one thread in either order, gives what it gives in a thread of its own,
/// where no thread-local value was built before.
void in_turn_as_alone(const std::vector<const char*>& texts) {
  std::vector<std::pair<const char*, Profile>> runs;
  for (const auto& info : profiles())
    for (const char* text : texts) runs.emplace_back(text, info.profile);
  auto text_of = [](const std::pair<const char*, Profile>& r) { return outcome_to_json(resolve(parse(r.first), r.second)).dump(); };
  std::vector<std::string> alone;
  for (const auto& r : runs) std::thread([&] { alone.push_back(text_of(r)); }).join();
  for (bool reversed : {false, true})
    std::thread([&] {
      for (std::size_t k = 0; k < runs.size(); ++k) {
        const std::size_t i = reversed ? runs.size() - 1 - k : k;
        EXPECT_EQ(text_of(runs[i]), alone[i]) << profile_name(runs[i].second) << ": " << runs[i].first << (reversed ? " (reversed)" : "");
      }
    }).join();
}

// The lists of names a message shows (accelerators, registered or interactive-compatible strategies, the classes of a
// group) are built once per profile, kind and thread and then shared.
TEST(ResolveInto, MessageListsBuiltOnceAreThoseOfTheirProfileAndKind) {
  in_turn_as_alone({
      R"({"flags": {"accelerator": "foo"}})",
      R"({"flags": {"strategy": "no_such_strategy"}})",
      R"({"flags": {"strategy": "ddp", "accelerator": "cpu", "devices": 2}, "interactive": true})",
      R"({"flags": {"strategy": "ddp", "accelerator": "tpu", "devices": 8}, "hardware": {"tpu": true}})",
      R"({"flags": {"strategy": "ddp", "accelerator": "hpu", "devices": 8}, "hardware": {"hpu": true}})",
  });
}

// The default single-device strategies are built once per (class, device) and thread, and shared by every profile:
// 1.6.5's SingleTPUStrategy and 2.2.5's SingleDeviceXLAStrategy both take device `xla:1` here, and each profile must
// get its own class.
TEST(ResolveInto, DefaultStrategiesBuiltOnceAreThoseOfTheirClassAndDevice) {
  in_turn_as_alone({
      R"({"flags": {"accelerator": "tpu", "devices": [1]}, "hardware": {"tpu": true}})",
      R"({"flags": {"accelerator": "tpu", "devices": 1}, "hardware": {"tpu": true}})",
      R"({"flags": {"accelerator": "gpu", "devices": [1]}, "hardware": {"cuda_devices": 2}})",
      R"({"flags": {"accelerator": "hpu", "devices": 1}, "hardware": {"hpu": true}})",
      R"({})",
  });
}

}  // namespace
}  // namespace accord::reference::testing
