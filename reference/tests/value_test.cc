// value_test.cc: Python value semantics (repr, equality, int parsing).
#include "accord/reference/value.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace accord::reference {
namespace {

TEST(Value, ReprMatchesPython) {
  EXPECT_EQ(repr(PyValue::none()), "None");
  EXPECT_EQ(repr(PyValue::boolean(true)), "True");
  EXPECT_EQ(repr(PyValue::integer(-3)), "-3");
  EXPECT_EQ(repr(PyValue::floating(16.0)), "16.0");
  EXPECT_EQ(repr(PyValue::string("it's")), "'it\\'s'");
  EXPECT_EQ(repr(PyValue::make_list({PyValue::integer(0), PyValue::integer(1)})), "[0, 1]");
  EXPECT_EQ(repr(PyValue::instance("DDPStrategy")), "DDPStrategy()");
}

// Expected strings are CPython 3.11's repr() of the same doubles: the shortest digits that read back, fixed
// notation for exponents -4..15, else scientific with a two-digit exponent.
TEST(Value, FloatReprMatchesPython) {
  const std::vector<std::pair<double, const char*>> cases = {
      {0.1, "0.1"}, {0.5, "0.5"}, {1.0, "1.0"}, {2.0, "2.0"}, {100.0, "100.0"}, {1e+16, "1e+16"}, {1.5e+16, "1.5e+16"},
      {1000000000000000.0, "1000000000000000.0"}, {1.2345678901234568e+17, "1.2345678901234568e+17"}, {1e-05, "1e-05"},
      {0.0001, "0.0001"}, {-0.1, "-0.1"}, {1.0 / 3, "0.3333333333333333"}, {2.5e-07, "2.5e-07"}, {-0.0, "-0.0"},
      {1e+22, "1e+22"}, {5e-324, "5e-324"}, {1.7976931348623157e+308, "1.7976931348623157e+308"},
      {0.1 + 0.2, "0.30000000000000004"}, {12345.678, "12345.678"}};
  for (const auto& [f, want] : cases) EXPECT_EQ(repr(PyValue::floating(f)), want) << f;
}

TEST(Value, EqualityFollowsPython) {
  EXPECT_TRUE(py_eq(PyValue::boolean(false), PyValue::integer(0)));
  EXPECT_TRUE(py_eq(PyValue::floating(0.0), PyValue::integer(0)));
  EXPECT_FALSE(py_eq(PyValue::string("16"), PyValue::integer(16)));
  EXPECT_TRUE(py_eq(PyValue::make_list({}), PyValue::make_list({})));
  EXPECT_FALSE(py_eq(PyValue::make_list({}), PyValue::integer(0)));
  EXPECT_TRUE(py_eq(PyValue::none(), PyValue::absent()));
}

TEST(Value, TruthinessFollowsPython) {
  EXPECT_FALSE(PyValue::string("").truthy());
  EXPECT_TRUE(PyValue::string("0").truthy());
  EXPECT_FALSE(PyValue::make_list({}).truthy());
  EXPECT_FALSE(PyValue::floating(0.0).truthy());
  EXPECT_TRUE(PyValue::instance("X").truthy());
}

TEST(Value, IntParsing) {
  EXPECT_EQ(py_int_from_str(" -1 "), -1);
  EXPECT_EQ(py_int_from_str("+7"), 7);
  EXPECT_FALSE(py_int_from_str("abc"));
  EXPECT_FALSE(py_int_from_str(""));
  EXPECT_FALSE(py_int_from_str("99999999999999999999"));
  EXPECT_EQ(py_int_base0("0x10"), 16);
  EXPECT_EQ(py_int_base0("0o10"), 8);
  EXPECT_EQ(py_int_base0("0b11"), 3);
  EXPECT_EQ(py_int_base0("00"), 0);
  EXPECT_FALSE(py_int_base0("08"));
  EXPECT_EQ(py_int_base0(" 4"), 4);
}

TEST(Value, JsonLiteral) {
  EXPECT_EQ(json_literal(PyValue::string("a\"b")), "\"a\\\"b\"");
  EXPECT_EQ(json_literal(PyValue::make_list({PyValue::none(), PyValue::boolean(false)})), "[null, false]");
  EXPECT_EQ(json_literal(PyValue::instance("X")), "{\"class\": \"X\"}");
}

}  // namespace
}  // namespace accord::reference
