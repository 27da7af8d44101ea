// value.h: a Python value as the user wrote it to the Trainer (None, bool, int, float, str, list, instance).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accord/reference/registry.h"

namespace accord::reference {

struct Instance;

/// A Python value as the user passed it. `kAbsent` means the keyword was not passed (Trainer default).
/// Integers outside int64 are `kBigInt` (their decimal text in `str`). Python equality and repr are
/// modelled exactly where the connector depends on them (`16 == True` is false, `0 == False` is true).
struct PyValue {
  enum class Kind { kAbsent, kNone, kBool, kInt, kBigInt, kFloat, kStr, kList, kInstance };
  Kind kind = Kind::kAbsent;
  bool b = false;
  std::int64_t i = 0;
  double f = 0.0;
  std::string str;
  std::vector<PyValue> list;
  std::shared_ptr<const Instance> inst;

  PyValue() = default;
  PyValue(const PyValue&) = default;
  PyValue(PyValue&&) noexcept = default;
  PyValue& operator=(PyValue&&) noexcept = default;
  /// Copies every member, as the implicit one does, without calling into the string or the list when both sides'
  /// are empty: a number or a name copied over another (a flag taken as final, a parsed device count) costs no call.
  PyValue& operator=(const PyValue& o) {
    kind = o.kind, b = o.b, i = o.i, f = o.f;
    if (!str.empty() || !o.str.empty()) str = o.str;
    if (!list.empty() || !o.list.empty()) list = o.list;
    inst = o.inst;
    return *this;
  }

  static PyValue absent() { return {}; }
  static PyValue none();
  static PyValue boolean(bool v);
  static PyValue integer(std::int64_t v);
  static PyValue floating(double v);
  static PyValue string(std::string v);
  static PyValue make_list(std::vector<PyValue> v);
  static PyValue instance(std::string cls, std::map<std::string, PyValue> args = {});

  /// Makes the value absent in place, keeping its string's room (a case reused read after read).
  void reset() {
    kind = Kind::kAbsent, b = false, i = 0, f = 0.0;
    str.clear(), list.clear(), inst.reset();
  }

  bool is_absent() const { return kind == Kind::kAbsent; }
  /// Absent or None: "not given" for every flag whose default is None.
  bool is_none() const { return kind == Kind::kAbsent || kind == Kind::kNone; }
  bool is_str() const { return kind == Kind::kStr; }
  bool is_instance() const { return kind == Kind::kInstance; }
  /// Python `isinstance(v, int)`: true for bool and int.
  bool is_int_like() const { return kind == Kind::kInt || kind == Kind::kBool; }
  /// The integer value of a bool or int.
  std::int64_t as_int() const { return kind == Kind::kBool ? (b ? 1 : 0) : i; }
  /// Python truthiness.
  bool truthy() const;
};

/// A class instance written as `"ClassName"` or `{"class": "ClassName", "args": {...}}`.
struct Instance {
  std::string cls;
  std::map<std::string, PyValue> args;
  /// What `cls` denotes in the rule tables (class_by_name), looked up once when the instance is built; nullopt for a
  /// class the tables do not know.
  std::optional<ClassInfo> known;
  /// The first row of `cls` among the class tables (class_row), looked up with `known`; -1 for an unknown class.
  int row = -1;
  /// The argument `name`, or an absent value.
  const PyValue& arg(std::string_view name) const;
};

/// Python `repr()` of the value (`None`, `True`, `16`, `'bf16'`, `[0, 1]`, `DDPStrategy()`).
std::string repr(const PyValue& v);
/// Python `type(v).__name__` (`NoneType`, `bool`, `int`, `float`, `str`, `list`, or the instance's class).
std::string py_type_name(const PyValue& v);
/// Python `str()` of the value (strings unquoted).
std::string py_str(const PyValue& v);
/// Python `==` between two values (bool and int compare as numbers, int and float too).
bool py_eq(const PyValue& a, const PyValue& b);
/// Python `==` against an int literal.
bool py_eq_int(const PyValue& a, std::int64_t n);
/// Python `==` against a str (no string is built for a literal).
bool py_eq_str(const PyValue& a, std::string_view s);
/// Python `int(s)` for a str: strips whitespace, optional sign, decimal digits. nullopt = ValueError.
std::optional<std::int64_t> py_int_from_str(std::string_view s);
/// Python `int(s, 0)`: base auto-detection (0x, 0o, 0b; no leading zeros in decimal). nullopt = ValueError.
std::optional<std::int64_t> py_int_base0(std::string_view s);
/// The value as a JSON literal (None -> null, instances -> {"class": ...}).
std::string json_literal(const PyValue& v);
/// Python `str.strip()` (ASCII whitespace).
std::string py_strip(const std::string& s);
/// ASCII lower-case.
std::string ascii_lower(std::string s);

}  // namespace accord::reference
