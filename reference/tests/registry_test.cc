// registry_test.cc: the rule tables load and agree with each other.
#include "accord/reference/profiles.h"
#include "accord/reference/registry.h"
#include "accord/reference/value.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

namespace accord::reference {
namespace {

// A mutation build (coverage/mutate --schemata) reads the guarded table cells at run time, so its tables are
// initialised dynamically by design and this check is left out there.
#ifndef ACCORD_MUTANT_SCHEMATA
// Look-ups made while this file's statics are initialised, before main and before (or after) those of the library's
// files: the tables are constant-initialised (their text columns counted by the compiler, registry.cc lit()), so they
// see every row whatever the order.
const int kClassRowAtStart = class_row("LightningEnvironment");
const std::string kAcceleratorAtStart(row(AcceleratorId::kGpu).name);
const std::string kLauncherAtStart(row(LauncherKind::kSpawn).start_method);
const std::string kClusterEnvAtStart(row(ClusterEnvId::kSlurm).cls);

TEST(Registry, TablesAreReadBeforeMain) {
  EXPECT_EQ(kClassRowAtStart, class_row("LightningEnvironment"));
  EXPECT_GE(kClassRowAtStart, 0);
  EXPECT_EQ(kAcceleratorAtStart, "gpu");
  EXPECT_EQ(kLauncherAtStart, "spawn");
  EXPECT_EQ(kClusterEnvAtStart, "SLURMEnvironment");
}
#endif  // ACCORD_MUTANT_SCHEMATA

TEST(Registry, TwentyEightStrategyNamesAllLowerCaseAndUnique) {
  std::set<std::string> names;
  const Policy& l16 = policy(Profile::kLightning16);
  for (const auto& s : strategies()) {
    EXPECT_EQ(std::string(s.name), ascii_lower(std::string(s.name)));
    if (in_profile(s, l16)) names.emplace(s.name);
  }
  EXPECT_EQ(names.size(), 28u);  // 1.6.5's StrategyRegistry
  EXPECT_EQ(strategy_by_name("ddp_find_unused_parameters_false", l16).value(), StrategyId::kDdpFindUnusedFalse);
  EXPECT_FALSE(strategy_by_name("DDP", l16));
  // A name both releases register, with a row each: the profile's row.
  const Policy& l22 = policy(Profile::kLightning22);
  EXPECT_EQ(strategy_by_name("ddp", l16).value(), StrategyId::kDdp);
  EXPECT_EQ(strategy_by_name("ddp", l22).value(), StrategyId::kDdpV2);
  EXPECT_FALSE(strategy_by_name("ddp_fork", l16));
  EXPECT_FALSE(strategy_by_name("ddp2", l22));
  std::set<std::string> names22;
  for (const auto& s : strategies())
    if (in_profile(s, l22)) names22.emplace(s.name);
  EXPECT_EQ(names22.size(), 26u);  // 2.2.5's StrategyRegistry with torch.distributed, and _graveyard's single_tpu
}

TEST(Registry, AcceleratorRegistryOrder) {
  std::vector<std::string> names, names22;
  for (const auto& a : accelerators()) {
    if (in_profile(a, policy(Profile::kLightning16))) names.emplace_back(a.name);
    if (in_profile(a, policy(Profile::kLightning22))) names22.emplace_back(a.name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"cpu", "gpu", "hpu", "ipu", "tpu"}));
  EXPECT_EQ(names22, (std::vector<std::string>{"cpu", "cuda", "mps", "tpu"}));  // 2.2.5: registered in class-name order
}

// A class gated to other profiles is not a class there (tables/precision_plugins.def: HalfPrecisionPlugin where
// classes_from_2x holds, spec only; HalfPrecision in the 2.2.5 connectors), while every class some profile has is known
// by name, and the profile's class list agrees with its look-ups.
TEST(Registry, GatedClassesExistOnlyInTheirProfiles) {
  EXPECT_EQ(class_by_name("HalfPrecisionPlugin", policy(Profile::kSpec))->kind, ClassKind::kPrecisionPlugin);
  EXPECT_FALSE(class_by_name("HalfPrecisionPlugin", policy(Profile::kLightning16)));
  EXPECT_FALSE(class_by_name("HalfPrecision", policy(Profile::kLightning16)));
  EXPECT_EQ(class_by_name("HalfPrecision", policy(Profile::kLightning22))->kind, ClassKind::kPrecisionPlugin);
  for (const auto& name : class_names()) EXPECT_TRUE(class_by_name(name)) << name;
  for (const auto& p : profiles()) {
    const auto in_profile = class_names(policy(p.profile));
    for (const auto& name : class_names())
      EXPECT_EQ(std::count(in_profile.begin(), in_profile.end(), name), class_by_name(name, policy(p.profile)) ? 1 : 0)
          << name << " in " << p.name;
  }
  const auto l16 = class_names(policy(Profile::kLightning16));
  EXPECT_EQ(std::count(l16.begin(), l16.end(), "DDPStrategy"), 1);
  EXPECT_EQ(std::count(l16.begin(), l16.end(), "HalfPrecisionPlugin"), 0);
}

TEST(Registry, ClassNamesAreUniqueAcrossTables) {
  auto names = class_names();
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  EXPECT_EQ(class_by_name("SLURMEnvironment")->kind, ClassKind::kClusterEnvironment);
  EXPECT_EQ(class_by_name("CustomLayerSync")->native, false);
  EXPECT_FALSE(class_by_name("ddpstrategy"));
}

TEST(Registry, RowsAreIndexedByTheirIds) {
  for (const auto& r : strategy_classes()) EXPECT_EQ(&row(r.id), &r);
  for (const auto& r : precision_plugins()) EXPECT_EQ(&row(r.id), &r);
  for (const auto& r : cluster_envs()) EXPECT_EQ(&row(r.id), &r);
  for (const auto& r : launchers()) EXPECT_EQ(&row(r.id), &r);
}

TEST(Registry, EveryClassHasItsConstructorArguments) {
  for (const auto& name : class_names()) EXPECT_NE(constructor_args(name), nullptr) << name;  // constructor_args.def
  EXPECT_EQ(constructor_args("NoSuchClass"), nullptr);
}

TEST(Registry, TakesArgument) {
  EXPECT_TRUE(takes_argument("*", "anything"));
  EXPECT_FALSE(takes_argument("", "precision"));
  EXPECT_TRUE(takes_argument("precision|device|scaler", "device"));
  EXPECT_TRUE(takes_argument("precision|device|scaler", "scaler"));
  EXPECT_FALSE(takes_argument("precision|device|scaler", "dev"));
  EXPECT_FALSE(takes_argument("precision|device|scaler", "precision|device"));
  EXPECT_FALSE(takes_argument(constructor_args("PrecisionPlugin"), "precision"));
  EXPECT_TRUE(takes_argument(constructor_args("DDPStrategy"), "find_unused_parameters"));
}

TEST(Registry, SplitCell) {
  EXPECT_EQ(split_cell("a|b?"), (std::vector<std::string>{"a", "b?"}));
  EXPECT_TRUE(split_cell("").empty());
  EXPECT_EQ(split_cell("stage=2;offload_optimizer=true", ';').size(), 2u);
}

}  // namespace
}  // namespace accord::reference
