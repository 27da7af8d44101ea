// json_input_test.cc: the one JSON reader of every command (json_input.h): integers of any size in double's range
// keep their digits; what it refuses is named with line and column.
#include "accord/conformance/json_input.h"

#include <gtest/gtest.h>

#include "accord/reference/big_int_json.h"

namespace accord::conformance {
namespace {
using nlohmann::json;
namespace ref = accord::reference;

TEST(JsonInput, IntegersPastSixtyFourBitsKeepTheirDigits) {
  json doc, id;
  std::string error;
  ASSERT_TRUE(parse_json(R"({"id": 18446744073709551616, "case": {"flags": {"devices": [-9223372036854775809, 3, 2.5]}}})",
                         &doc, &error, &id)) << error;
  std::string digits;
  ASSERT_TRUE(ref::big_int_text(id, &digits));  // the id, kept as soon as it is read, is exact too
  EXPECT_EQ(digits, "18446744073709551616");
  EXPECT_EQ(ref::json_text(doc), R"({"case":{"flags":{"devices":[-9223372036854775809,3,2.5]}},"id":18446744073709551616})");
  ASSERT_TRUE(parse_json("18446744073709551615", &doc, &error));  // uint64 itself stays a number
  EXPECT_TRUE(doc.is_number_unsigned());
  ASSERT_TRUE(parse_json("1.8446744073709552e+19", &doc, &error));  // a float stays a float
  EXPECT_TRUE(doc.is_number_float());
}

TEST(JsonInput, NumbersPastDoubleRangeAreRefused) {
  json doc;
  std::string error;
  EXPECT_FALSE(parse_json("[1e400]", &doc, &error));
  EXPECT_EQ(error, "line 1, column 6: number overflow parsing '1e400'");
  std::string huge = "1" + std::string(400, '0');  // 401 digits: past double's range (about 1.8e308)
  EXPECT_FALSE(parse_json("[" + huge + "]", &doc, &error));
  EXPECT_EQ(error.rfind("line 1, column 402: number overflow parsing '1000", 0), 0u) << error;  // where it ends
  EXPECT_LT(error.size(), 300u);  // the literal shortened
  EXPECT_TRUE(parse_json("[1" + std::string(300, '0') + "]", &doc, &error)) << error;  // 301 digits: kept
  std::string digits;
  ASSERT_TRUE(ref::big_int_text(doc[0], &digits));
  EXPECT_EQ(digits.size(), 301u);
}

}  // namespace
}  // namespace accord::conformance
