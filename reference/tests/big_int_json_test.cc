// big_int_json_test.cc: integers past 64 bits keep their digits in a JSON tree, into a PyValue and back out.
#include "accord/reference/big_int_json.h"

#include <gtest/gtest.h>

#include "accord/reference/json_io.h"
#include "accord/reference/value.h"

namespace accord::reference::testing {
namespace {
using nlohmann::json;

TEST(BigIntJson, IntegerLiterals) {
  for (const char* ok : {"0", "-0", "7", "-12", "18446744073709551616", "-18446744073709551616"}) EXPECT_TRUE(is_integer_literal(ok)) << ok;
  for (const char* bad : {"", "-", "01", "-01", "1.0", "1e3", "+1", " 1", "1a", "--1"}) EXPECT_FALSE(is_integer_literal(bad)) << bad;
}

TEST(BigIntJson, FittingIntegersStayNumbers) {
  EXPECT_EQ(integer_json("-9223372036854775808"), json(INT64_MIN));
  EXPECT_TRUE(integer_json("-9223372036854775808").is_number_integer());
  EXPECT_EQ(integer_json("18446744073709551615"), json(UINT64_MAX));
  EXPECT_TRUE(integer_json("18446744073709551615").is_number_unsigned());
}

TEST(BigIntJson, PastSixtyFourBitsKeepsTheDigits) {
  for (const char* digits : {"18446744073709551616", "-9223372036854775809", "123456789012345678901234567890"}) {
    json j = integer_json(digits);
    std::string back;
    ASSERT_TRUE(big_int_text(j, &back)) << digits;
    EXPECT_EQ(back, digits);
    EXPECT_EQ(json_text(j), digits);
  }
  std::string none;
  EXPECT_FALSE(big_int_text(json(5), &none));
  EXPECT_FALSE(big_int_text(json::binary({1, 2, 3}), &none));  // another subtype is not an integer
  EXPECT_FALSE(big_int_text(json::binary({1, 2, 3}, 7), &none));
}

TEST(BigIntJson, JsonTextIsDumpWithTheDigits) {
  json j = json::parse(R"({"a": [1, "x\"y", {"b": null, "c": 2.5}], "d": {}, "e": [], "f": true})");
  EXPECT_EQ(json_text(j), j.dump());
  j["a"][2]["big"] = integer_json("-100000000000000000000");
  j["z"] = json::array({integer_json("100000000000000000000")});
  EXPECT_EQ(json_text(j), R"({"a":[1,"x\"y",{"b":null,"big":-100000000000000000000,"c":2.5}],"d":{},"e":[],"f":true,)"
                          R"("z":[100000000000000000000]})");
}

TEST(BigIntJson, ValueTextShowsStringsBareAndTheRestAsJson) {
  EXPECT_EQ(value_text(nlohmann::json("no \"quotes\" added")), "no \"quotes\" added");
  EXPECT_EQ(value_text(nlohmann::json(42)), "42");
  EXPECT_EQ(value_text(integer_json("18446744073709551616")), "18446744073709551616");
  EXPECT_EQ(value_text(nlohmann::json::array({1, "a"})), "[1,\"a\"]");
}

TEST(BigIntJson, FlagValuesRoundTrip) {
  json given = {{"flags", {{"devices", integer_json("100000000000000000000")}, {"num_nodes", integer_json("-18446744073709551616")}}}};
  Case c;
  std::string err;
  ASSERT_TRUE(case_from_json(given, &c, &err)) << err;
  EXPECT_EQ(c.flags.devices.kind, PyValue::Kind::kBigInt);
  EXPECT_EQ(repr(c.flags.devices), "100000000000000000000");
  EXPECT_EQ(repr(c.flags.num_nodes), "-18446744073709551616");
  EXPECT_EQ(json_text(case_to_json(c)["flags"]), R"({"devices":100000000000000000000,"num_nodes":-18446744073709551616})");
}

}  // namespace
}  // namespace accord::reference::testing
