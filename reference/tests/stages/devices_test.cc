// devices_test.cc: the device parsers (normalize/devices.h) at the edges the corpus cannot reach through a case.
#include <gtest/gtest.h>

#include "../../src/normalize/devices.h"

namespace accord::reference::detail {
namespace {

const DiagCode kOutOfRange = DiagCode::kValueOutOfRange;

bool out_of_range(const ParsedDevices& r) { return r.error && r.error->code == kOutOfRange; }

// SPEC.md, "Choices the sources leave open": device counts and indices above 1,000,000 (kMaxDevices) are
// err_value_out_of_range; 1,000,000 itself is still a count each parser reads.
TEST(Devices, CountsUpToTheLimitAreReadAndPastItOutOfRange) {
  const PyValue at = PyValue::integer(kMaxDevices), past = PyValue::integer(kMaxDevices + 1);
  EXPECT_EQ(parse_cpu(at, "devices").parallel.size(), 1000000u);
  EXPECT_TRUE(out_of_range(parse_cpu(past, "devices")));
  EXPECT_EQ(parse_hpu(at, "devices").parallel.size(), 1000000u);
  EXPECT_TRUE(out_of_range(parse_hpu(past, "devices")));
  EXPECT_EQ(parse_ipu(at, "devices").parallel.size(), 1000000u);
  EXPECT_TRUE(out_of_range(parse_ipu(past, "devices")));
  // The GPU parser builds range(1000000) and then finds those ids unavailable on a 8-GPU machine: not out of range.
  const GpuFacts eight{8, false};
  ParsedDevices gpu = parse_gpu(at, "devices", eight);
  ASSERT_TRUE(gpu.error);
  EXPECT_EQ(gpu.error->code, DiagCode::kGpuIdsUnavailable);
  EXPECT_TRUE(out_of_range(parse_gpu(past, "devices", eight)));
}

// PL 1.6.5 utilities/device_parser.py parse_gpu_ids: `if gpus is None or (isinstance(gpus, int) and gpus == 0) or
// str(gpus).strip() in ("0", "[]"): return None` (no GPUs), before anything else is checked.
TEST(Devices, GpuParserSaysNoGpusForNoneZeroAndEmpty) {
  const GpuFacts none{0, false};
  for (const PyValue& v : {PyValue::none(), PyValue::integer(0), PyValue::string(" 0 "), PyValue::string("[]"),
                           PyValue::make_list({})}) {
    ParsedDevices r = parse_gpu(v, "gpus", none);
    EXPECT_FALSE(r.error) << repr(v);
    EXPECT_TRUE(r.no_gpus) << repr(v);
  }
  EXPECT_FALSE(parse_gpu(PyValue::integer(1), "gpus", GpuFacts{1, false}).no_gpus);
}

// PL 1.6.5 device_parser.py _check_unique: `len(set(map(repr, ids))) == len(ids)` compares ids by their repr, so two
// different strings are unique (the ids are then unavailable: not ints) and two equal ones are not.
TEST(Devices, GpuIdsAreComparedByRepr) {
  const GpuFacts two{2, false};
  ParsedDevices different = parse_gpu(PyValue::make_list({PyValue::string("a"), PyValue::string("b")}), "devices", two);
  ASSERT_TRUE(different.error);
  EXPECT_EQ(different.error->code, DiagCode::kGpuIdsUnavailable);
  ParsedDevices same = parse_gpu(PyValue::make_list({PyValue::string("a"), PyValue::string("a")}), "devices", two);
  ASSERT_TRUE(same.error);
  EXPECT_EQ(same.error->code, DiagCode::kGpuIdsNotUnique);
}

}  // namespace
}  // namespace accord::reference::detail
