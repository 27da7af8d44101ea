// value_test.cc: Python value semantics (repr, equality, int parsing).
#include "accord/reference/value.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace accord::reference {
namespace {

TEST(Value, ReprMatchesPython) {
  EXPECT_EQ(repr(PyValue::none()), "None");
  EXPECT_EQ(repr(PyValue::boolean(true)), "True");
  EXPECT_EQ(repr(PyValue::integer(-3)), "-3");
  EXPECT_EQ(repr(PyValue::floating(16.0)), "16.0");
  EXPECT_EQ(repr(PyValue::string("it's")), "\"it's\"");
  EXPECT_EQ(repr(PyValue::make_list({PyValue::integer(0), PyValue::integer(1)})), "[0, 1]");
  EXPECT_EQ(repr(PyValue::instance("DDPStrategy")), "DDPStrategy()");
}

// Python repr(float), as CPython 3.11 prints the same doubles: the shortest digits that read back, positional
// for 1e-4 <= |x| < 1e16 (".0" when whole), else scientific with a two-digit exponent.
TEST(Value, FloatReprIsPythonsShortestForm) {
  const std::vector<std::pair<double, std::string>> cases = {
      {0.1, "0.1"}, {0.5, "0.5"}, {1.0, "1.0"}, {1.1, "1.1"}, {2.0, "2.0"}, {16.0, "16.0"}, {-2.5, "-2.5"}, {100.0, "100.0"},
      {0.0, "0.0"}, {-0.0, "-0.0"}, {-0.1, "-0.1"}, {0.0001, "0.0001"}, {1e-05, "1e-05"}, {2.5e-3, "0.0025"}, {2.5e-07, "2.5e-07"},
      {1e15, "1000000000000000.0"}, {1e16, "1e+16"}, {1.5e+16, "1.5e+16"}, {1e22, "1e+22"}, {1.5e300, "1.5e+300"},
      {12345678901234567.0, "1.2345678901234568e+16"}, {1.2345678901234568e+17, "1.2345678901234568e+17"},
      {123456789.125, "123456789.125"}, {12345.678, "12345.678"}, {1.0 / 3, "0.3333333333333333"},
      {0.1 + 0.2, "0.30000000000000004"}, {5e-324, "5e-324"}, {1.7976931348623157e+308, "1.7976931348623157e+308"}};
  for (const auto& [f, text] : cases) EXPECT_EQ(repr(PyValue::floating(f)), text) << text;
  EXPECT_EQ(repr(PyValue::floating(std::numeric_limits<double>::infinity())), "inf");
  EXPECT_EQ(repr(PyValue::floating(-std::numeric_limits<double>::infinity())), "-inf");
  EXPECT_EQ(repr(PyValue::floating(std::nan(""))), "nan");
}

TEST(Value, StrReprQuotesAndEscapesLikePython) {
  EXPECT_EQ(repr(PyValue::string("a\"b")), "'a\"b'");
  EXPECT_EQ(repr(PyValue::string("it's \"x\"")), "'it\\'s \"x\"'");  // both quotes: single, escaped
  EXPECT_EQ(repr(PyValue::string("a\\b")), "'a\\\\b'");
  EXPECT_EQ(repr(PyValue::string("a\nb\tc\rd")), "'a\\nb\\tc\\rd'");
  EXPECT_EQ(repr(PyValue::string(std::string("\x01\x7f", 2))), "'\\x01\\x7f'");
  EXPECT_EQ(repr(PyValue::string("")), "''");
  EXPECT_EQ(py_str(PyValue::string("it's")), "it's");
  EXPECT_EQ(py_str(PyValue::integer(3)), "3");
}

TEST(Value, EqualityFollowsPython) {
  EXPECT_TRUE(py_eq(PyValue::boolean(false), PyValue::integer(0)));
  EXPECT_TRUE(py_eq(PyValue::floating(0.0), PyValue::integer(0)));
  EXPECT_FALSE(py_eq(PyValue::string("16"), PyValue::integer(16)));
  EXPECT_TRUE(py_eq(PyValue::make_list({}), PyValue::make_list({})));
  EXPECT_FALSE(py_eq(PyValue::make_list({}), PyValue::integer(0)));
  EXPECT_TRUE(py_eq(PyValue::none(), PyValue::absent()));
  EXPECT_TRUE(py_eq(PyValue::floating(1.0), PyValue::boolean(true)));
  EXPECT_FALSE(py_eq(PyValue::floating(1.5), PyValue::integer(1)));
  EXPECT_TRUE(py_eq(PyValue::make_list({PyValue::integer(0), PyValue::integer(1)}),
                    PyValue::make_list({PyValue::boolean(false), PyValue::boolean(true)})));
  EXPECT_FALSE(py_eq(PyValue::make_list({PyValue::integer(0), PyValue::integer(1)}),
                     PyValue::make_list({PyValue::integer(0), PyValue::integer(2)})));
  EXPECT_FALSE(py_eq(PyValue::make_list({PyValue::integer(0)}), PyValue::make_list({})));
  PyValue big;
  big.kind = PyValue::Kind::kBigInt;
  big.str = "18446744073709551616";
  EXPECT_TRUE(py_eq(big, big));
  EXPECT_FALSE(py_eq(big, PyValue::string("18446744073709551616")));
  // Instances compare by identity, as Python objects without __eq__.
  PyValue a = PyValue::instance("DDPStrategy");
  EXPECT_TRUE(py_eq(a, a));
  EXPECT_FALSE(py_eq(a, PyValue::instance("DDPStrategy")));
  EXPECT_FALSE(py_eq(PyValue::none(), PyValue::integer(0)));
  EXPECT_FALSE(py_eq(PyValue::boolean(true), PyValue::none()));
  EXPECT_TRUE(py_eq_int(PyValue::floating(2.0), 2));
  EXPECT_FALSE(py_eq_int(PyValue::string("2"), 2));
  EXPECT_TRUE(py_eq_int(PyValue::boolean(true), 1));
  EXPECT_TRUE(py_eq_str(PyValue::string("ddp"), std::string("ddp")));
  EXPECT_FALSE(py_eq_str(PyValue::integer(0), std::string("0")));
  EXPECT_FALSE(py_eq_str(PyValue::string("ddp"), std::string("dp")));
}

// Cases the mutation run found unpinned, each checked against CPython 3.11 (`2 == 2.0`, `[0, 1] == [5, 1]`,
// `'5\r'.strip()`, `int('0xA', 0)`, `json.dumps('a b')`).
TEST(Value, PythonCornersTheMutantsFound) {
  EXPECT_TRUE(py_eq(PyValue::integer(2), PyValue::floating(2.0)));   // an int on the left of a float compares as a number
  EXPECT_FALSE(py_eq(PyValue::integer(2), PyValue::floating(2.5)));
  EXPECT_FALSE(py_eq(PyValue::make_list({PyValue::integer(0), PyValue::integer(1)}),
                     PyValue::make_list({PyValue::integer(5), PyValue::integer(1)})));  // lists differ in the first item
  EXPECT_EQ(py_strip("\r 5\r"), "5");                                  // '\r' is whitespace, the last of \t..\r
  EXPECT_EQ(py_strip("\t5\x0b"), "5");
  EXPECT_EQ(py_int_from_str("5\r"), 5);
  EXPECT_EQ(py_int_base0("0xA"), 10);                                  // 'A' and 'a' are hex digits, 'F' and 'f' too
  EXPECT_EQ(py_int_base0("0XaF"), 175);
  EXPECT_EQ(py_int_base0("0xf"), 15);
  EXPECT_EQ(json_literal(PyValue::string("a b")), "\"a b\"");        // a space is not escaped
  // Past int64 the reference does not read the number (its callers report it out of range): 2**63 is the first.
  EXPECT_EQ(py_int_from_str("9223372036854775807"), 9223372036854775807LL);
  EXPECT_FALSE(py_int_from_str("9223372036854775808"));
}

TEST(Value, InstanceArguments) {
  PyValue v = PyValue::instance("DDPStrategy", {{"find_unused_parameters", PyValue::boolean(false)}});
  EXPECT_EQ(v.inst->arg("find_unused_parameters").kind, PyValue::Kind::kBool);
  EXPECT_TRUE(v.inst->arg("missing").is_absent());
}

TEST(Value, TruthinessFollowsPython) {
  EXPECT_FALSE(PyValue::string("").truthy());
  EXPECT_TRUE(PyValue::string("0").truthy());
  EXPECT_FALSE(PyValue::make_list({}).truthy());
  EXPECT_FALSE(PyValue::floating(0.0).truthy());
  EXPECT_TRUE(PyValue::instance("X").truthy());
  EXPECT_FALSE(PyValue::integer(0).truthy());
  EXPECT_TRUE(PyValue::integer(-1).truthy());
  EXPECT_TRUE(PyValue::boolean(true).truthy());
  EXPECT_FALSE(PyValue::none().truthy());
  EXPECT_FALSE(PyValue::absent().truthy());
  PyValue big;
  big.kind = PyValue::Kind::kBigInt;
  big.str = "18446744073709551616";
  EXPECT_TRUE(big.truthy());
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
  EXPECT_EQ(py_int_base0("0XfF"), 255);
  EXPECT_EQ(py_int_base0("-0o17"), -15);
  EXPECT_EQ(py_int_base0("0B101"), 5);
  EXPECT_FALSE(py_int_base0("0x"));
  EXPECT_FALSE(py_int_base0("0b12"));
  EXPECT_FALSE(py_int_base0("0o8"));
  EXPECT_FALSE(py_int_base0("0xg"));
  EXPECT_FALSE(py_int_base0("1.5"));
  EXPECT_FALSE(py_int_from_str("12a"));
  EXPECT_FALSE(py_int_from_str("1A"));
  EXPECT_FALSE(py_int_from_str("-"));
  EXPECT_EQ(py_int_from_str("\t9223372036854775807\n"), 9223372036854775807LL);
}

TEST(Value, JsonLiteral) {
  EXPECT_EQ(json_literal(PyValue::string("a\"b")), "\"a\\\"b\"");
  EXPECT_EQ(json_literal(PyValue::make_list({PyValue::none(), PyValue::boolean(false)})), "[null, false]");
  EXPECT_EQ(json_literal(PyValue::instance("X")), "{\"class\": \"X\"}");
  EXPECT_EQ(json_literal(PyValue::string(std::string("a\\\x01", 3))), "\"a\\\\\\u0001\"");
  EXPECT_EQ(json_literal(PyValue::floating(0.1)), "0.1");
  EXPECT_EQ(json_literal(PyValue::floating(std::numeric_limits<double>::infinity())), "null");
  EXPECT_EQ(json_literal(PyValue::floating(std::nan(""))), "null");
  EXPECT_EQ(json_literal(PyValue::integer(-7)), "-7");
  EXPECT_EQ(json_literal(PyValue::boolean(true)), "true");
  EXPECT_EQ(json_literal(PyValue::absent()), "null");
  PyValue big;
  big.kind = PyValue::Kind::kBigInt;
  big.str = "18446744073709551616";
  EXPECT_EQ(json_literal(big), "18446744073709551616");
  EXPECT_EQ(repr(big), "18446744073709551616");
  EXPECT_EQ(json_literal(PyValue::make_list({PyValue::string("x"), PyValue::make_list({})})), "[\"x\", []]");
}

}  // namespace
}  // namespace accord::reference
