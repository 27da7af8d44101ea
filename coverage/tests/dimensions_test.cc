// dimensions_test.cc: classification of cases into dimension values, and probe variants landing in their value.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include <nlohmann/json.hpp>

#include "accord/coverage/dimensions.h"
#include "accord/reference/json_io.h"

namespace accord::coverage {
namespace {
using reference::Case;

Case parse(const char* text) {
  Case c;
  std::string err;
  EXPECT_TRUE(reference::case_from_json(nlohmann::json::parse(text), &c, &err)) << err;
  return c;
}

std::string value(const Case& c, Dim d) {
  int v = classify(c, d);
  return v < 0 ? "<outside>" : dim_values(d)[static_cast<size_t>(v)];
}

TEST(Dimensions, EveryDimensionHasDistinctValuesAndIds) {
  std::set<std::string> ids;
  for (int k = 0; k < kDimCount; ++k) {
    Dim d = static_cast<Dim>(k);
    ids.insert(dim_id(d));
    const auto& v = dim_values(d);
    EXPECT_GE(v.size(), 2u) << dim_id(d);
    EXPECT_EQ(std::set<std::string>(v.begin(), v.end()).size(), v.size()) << dim_id(d);
  }
  EXPECT_EQ(ids.size(), static_cast<size_t>(kDimCount));
}

TEST(Dimensions, ClassifiesTheFlagsAsTheUserWroteThem) {
  Case c = parse(R"({"flags": {"accelerator": "GPUAccelerator", "strategy": "DDP_Find_Unused_Parameters_False",
                               "precision": "16-mixed", "gpus": "0,1"},
                     "env": {"SLURM_NTASKS": "2"}, "hardware": {"cuda_devices": 2}})");
  EXPECT_EQ(value(c, Dim::kAccelerator), "gpu");
  EXPECT_EQ(value(c, Dim::kStrategy), "ddp");
  EXPECT_EQ(value(c, Dim::kPrecision), "16");
  EXPECT_EQ(value(c, Dim::kClusterEnv), "slurm");
  EXPECT_EQ(value(c, Dim::kHardware), "multi-gpu");
  EXPECT_EQ(value(c, Dim::kLegacy), "gpus");
  EXPECT_EQ(value(c, Dim::kDevicesForm), "str-list");
}

TEST(Dimensions, DefaultsAndOutsiders) {
  Case c = parse(R"({"flags": {"accelerator": "ddp", "strategy": "nope", "precision": "mixed"}})");
  EXPECT_EQ(value(c, Dim::kAccelerator), "<outside>");
  EXPECT_EQ(value(c, Dim::kStrategy), "<outside>");
  EXPECT_EQ(value(c, Dim::kPrecision), "<outside>");
  EXPECT_EQ(value(c, Dim::kClusterEnv), "none");
  EXPECT_EQ(value(c, Dim::kHardware), "cpu-only");
  EXPECT_EQ(value(c, Dim::kLegacy), "none");
  EXPECT_EQ(value(c, Dim::kDevicesForm), "absent");
  Case d = parse(R"({"flags": {"strategy": {"class": "DDPStrategy", "args": {"cluster_environment": "LSFEnvironment"}},
                               "devices": [], "num_processes": null, "tpu_cores": 8, "ipus": 2}, "hardware": {"tpu": true}})");
  EXPECT_EQ(value(d, Dim::kAccelerator), "None");
  EXPECT_EQ(value(d, Dim::kClusterEnv), "explicit");
  EXPECT_EQ(value(d, Dim::kHardware), "tpu");
  EXPECT_EQ(value(d, Dim::kLegacy), "several");
  EXPECT_EQ(value(d, Dim::kDevicesForm), "int");  // the first given legacy flag in Lightning order: ipus=2
}

TEST(Dimensions, DeviceFormsOfEveryShape) {
  const std::vector<std::pair<const char*, const char*>> forms = {
      {"null", "None"}, {"0", "zero"}, {"\"0\"", "zero"}, {"[]", "zero"}, {"false", "zero"}, {"-1", "-1"},
      {"\" -1 \"", "-1"}, {"3", "int"}, {"true", "int"}, {"\"auto\"", "auto"}, {"\"3\"", "str-int"},
      {"\"1,\"", "str-list"}, {"[2]", "list"}, {"1.5", "other"}, {"\"x\"", "other"}, {"-2", "other"}};
  for (const auto& [json, form] : forms) {
    Case c = parse((std::string(R"({"flags": {"devices": )") + json + "}}").c_str());
    EXPECT_EQ(value(c, Dim::kDevicesForm), form) << json;
  }
}

// Every variant of every value must put a probe into that value (the probe generator relies on it).
TEST(Dimensions, EveryVariantLandsInItsValue) {
  for (int k = 0; k < kDimCount; ++k) {
    Dim d = static_cast<Dim>(k);
    for (int v = 0; v < static_cast<int>(dim_values(d).size()); ++v) {
      auto vs = variants(d, v);
      EXPECT_FALSE(vs.empty()) << dim_id(d) << "=" << dim_values(d)[static_cast<size_t>(v)];
      for (const auto& x : vs) {
        Case c;
        x.apply(c);
        EXPECT_EQ(classify(c, d), v) << dim_id(d) << ": " << x.label;
      }
    }
  }
}

TEST(Dimensions, DeviceFormVariantsWriteTheLegacyFlagWhenOneIsGiven) {
  Case c;
  variants(Dim::kLegacy, 2).front().apply(c);  // gpus=1
  ASSERT_EQ(value(c, Dim::kLegacy), "gpus");
  int list = static_cast<int>(std::find(dim_values(Dim::kDevicesForm).begin(), dim_values(Dim::kDevicesForm).end(), "str-list") -
                              dim_values(Dim::kDevicesForm).begin());
  variants(Dim::kDevicesForm, list).front().apply(c);
  EXPECT_TRUE(c.flags.devices.is_absent());
  EXPECT_EQ(c.flags.gpus.str, "0,1");
  EXPECT_EQ(value(c, Dim::kDevicesForm), "str-list");
}

TEST(Dimensions, CompatibleAcceleratorsAndHardware) {
  const auto& acc = dim_values(Dim::kAccelerator);
  const auto& hw = dim_values(Dim::kHardware);
  auto a = [&](const char* n) { return static_cast<int>(std::find(acc.begin(), acc.end(), n) - acc.begin()); };
  auto h = [&](const char* n) { return static_cast<int>(std::find(hw.begin(), hw.end(), n) - hw.begin()); };
  EXPECT_TRUE(compatible(a("auto"), h("tpu")));
  EXPECT_TRUE(compatible(a("cpu"), h("multi-gpu")));
  EXPECT_TRUE(compatible(a("gpu"), h("1-gpu")));
  EXPECT_FALSE(compatible(a("gpu"), h("cpu-only")));
  EXPECT_FALSE(compatible(a("tpu"), h("hpu")));
  EXPECT_TRUE(compatible(a("hpu"), h("hpu")));
}

}  // namespace
}  // namespace accord::coverage
