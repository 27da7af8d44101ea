// value.cc: Python value semantics (repr, equality, int parsing) used by the connector model.
#include "accord/reference/value.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace accord::reference {

PyValue PyValue::none() { PyValue v; v.kind = Kind::kNone; return v; }
PyValue PyValue::boolean(bool x) { PyValue v; v.kind = Kind::kBool; v.b = x; return v; }
PyValue PyValue::integer(std::int64_t x) { PyValue v; v.kind = Kind::kInt; v.i = x; return v; }
PyValue PyValue::floating(double x) { PyValue v; v.kind = Kind::kFloat; v.f = x; return v; }
PyValue PyValue::string(std::string x) { PyValue v; v.kind = Kind::kStr; v.str = std::move(x); return v; }
PyValue PyValue::make_list(std::vector<PyValue> x) { PyValue v; v.kind = Kind::kList; v.list = std::move(x); return v; }
PyValue PyValue::instance(std::string cls, std::map<std::string, PyValue> args) {
  PyValue v;
  v.kind = Kind::kInstance;
  auto in = std::make_shared<Instance>();
  in->cls = std::move(cls);
  in->args = std::move(args);
  in->row = class_row(in->cls);  // one look-up: `known` is that row's class
  in->known = class_at(in->row);
  v.inst = std::move(in);
  return v;
}

bool PyValue::truthy() const {
  switch (kind) {
    case Kind::kAbsent:
    case Kind::kNone: return false;
    case Kind::kBool: return b;
    case Kind::kInt: return i != 0;
    case Kind::kBigInt: return true;
    case Kind::kFloat: return f != 0.0;
    case Kind::kStr: return !str.empty();
    case Kind::kList: return !list.empty();
    case Kind::kInstance: return true;
  }
  return false;  // LCOV_EXCL_LINE unreachable: every kind returns above
}

const PyValue& Instance::arg(std::string_view name) const {
  static const PyValue kAbsentValue;
  for (const auto& [key, value] : args)  // a handful of arguments: a scan builds no key string
    if (key == name) return value;
  return kAbsentValue;
}

namespace {
// Python's float repr: the shortest digits that read back as `f`; positional for 1e-4 <= |f| < 1e16
// (with ".0" when whole), else d[.ddd]e+XX with at least two exponent digits (`0.1`, `1e+16`, `1e-05`).
std::string float_repr(double f) {
  if (std::isinf(f)) return f > 0 ? "inf" : "-inf";
  if (std::isnan(f)) return "nan";
  char buf[64];
  auto end = std::to_chars(buf, buf + sizeof buf, f, std::chars_format::scientific).ptr;  // shortest round trip
  const std::string sci(buf, end);
  const bool neg = sci[0] == '-';
  const size_t e = sci.find('e');
  std::string digits;
  for (size_t k = neg ? 1 : 0; k < e; ++k)
    if (sci[k] != '.') digits += sci[k];
  const int exp10 = std::stoi(sci.substr(e + 1));
  const int point = exp10 + 1;  // digits d1 d2 ... mean 0.d1d2... x 10^point
  std::string out = neg ? "-" : "";
  if (point <= -4 || point > 16) {
    out += digits.substr(0, 1) + (digits.size() > 1 ? "." + digits.substr(1) : "");
    std::string x = std::to_string(exp10 < 0 ? -exp10 : exp10);
    return out + (exp10 < 0 ? "e-" : "e+") + (x.size() < 2 ? "0" : "") + x;
  }
  if (point <= 0) return out + "0." + std::string(static_cast<size_t>(-point), '0') + digits;
  if (static_cast<size_t>(point) >= digits.size())
    return out + digits + std::string(static_cast<size_t>(point) - digits.size(), '0') + ".0";
  return out + digits.substr(0, static_cast<size_t>(point)) + "." + digits.substr(static_cast<size_t>(point));
}
}  // namespace

std::string repr(const PyValue& v) {
  switch (v.kind) {
    case PyValue::Kind::kAbsent:
    case PyValue::Kind::kNone: return "None";
    case PyValue::Kind::kBool: return v.b ? "True" : "False";
    case PyValue::Kind::kInt: return std::to_string(v.i);
    case PyValue::Kind::kBigInt: return v.str;
    case PyValue::Kind::kFloat: return float_repr(v.f);
    case PyValue::Kind::kStr: {
      // Python: single quotes unless the text has a single quote and no double quote; \\, the quote, \n,
      // \r, \t and the other ASCII control characters (\xNN) escaped.
      const std::string_view s = v.str;
      const char q = s.find('\'') != std::string_view::npos && s.find('"') == std::string_view::npos ? '"' : '\'';
      std::string out;
      out.reserve(s.size() + 2);
      out += q;
      std::size_t from = 0;  // the start of the run not yet appended: runs are appended whole
      for (std::size_t k = 0; k < s.size(); ++k) {
        const auto c = static_cast<unsigned char>(s[k]);
        if (c != q && c != '\\' && c >= 0x20 && c != 0x7f) continue;
        out.append(s.data() + from, k - from);
        from = k + 1;
        if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else if (c == '\t') out += "\\t";
        else if (c == q || c == '\\') { out += '\\'; out += static_cast<char>(c); }
        else { char buf[8]; snprintf(buf, sizeof buf, "\\x%02x", c); out += buf; }  // a control character or DEL
      }
      out.append(s.data() + from, s.size() - from);
      out += q;
      return out;
    }
    case PyValue::Kind::kList: {
      std::string out = "[";
      for (size_t k = 0; k < v.list.size(); ++k) out += (k ? ", " : "") + repr(v.list[k]);
      return out + "]";
    }
    case PyValue::Kind::kInstance: return v.inst->cls + "()";
  }
  return "None";  // LCOV_EXCL_LINE unreachable: every kind returns above
}

std::string json_literal(const PyValue& v) {
  switch (v.kind) {
    case PyValue::Kind::kAbsent:
    case PyValue::Kind::kNone: return "null";
    case PyValue::Kind::kBool: return v.b ? "true" : "false";
    case PyValue::Kind::kInt: return std::to_string(v.i);
    case PyValue::Kind::kBigInt: return v.str;
    case PyValue::Kind::kFloat: return std::isfinite(v.f) ? float_repr(v.f) : "null";
    case PyValue::Kind::kStr: {
      std::string out;
      out.reserve(v.str.size() + 2);
      out += '"';
      for (unsigned char c : v.str) {
        if (c == '"' || c == '\\') { out += '\\'; out += static_cast<char>(c); }
        else if (c < 0x20) { char buf[8]; snprintf(buf, sizeof buf, "\\u%04x", c); out += buf; }
        else out += static_cast<char>(c);
      }
      out += '"';
      return out;
    }
    case PyValue::Kind::kList: {
      std::string out = "[";
      for (size_t k = 0; k < v.list.size(); ++k) out += (k ? ", " : "") + json_literal(v.list[k]);
      return out + "]";
    }
    case PyValue::Kind::kInstance: return "{\"class\": " + json_literal(PyValue::string(v.inst->cls)) + "}";
  }
  return "null";  // LCOV_EXCL_LINE unreachable: every kind returns above
}

std::string py_str(const PyValue& v) { return v.kind == PyValue::Kind::kStr ? v.str : repr(v); }

std::string py_type_name(const PyValue& v) {
  switch (v.kind) {
    case PyValue::Kind::kAbsent:
    case PyValue::Kind::kNone: return "NoneType";
    case PyValue::Kind::kBool: return "bool";
    case PyValue::Kind::kInt:
    case PyValue::Kind::kBigInt: return "int";
    case PyValue::Kind::kFloat: return "float";
    case PyValue::Kind::kStr: return "str";
    case PyValue::Kind::kList: return "list";
    case PyValue::Kind::kInstance: return v.inst->cls;
  }
  return "";  // LCOV_EXCL_LINE unreachable: every kind returns above
}

namespace {
bool numeric(const PyValue& v) {
  return v.kind == PyValue::Kind::kBool || v.kind == PyValue::Kind::kInt || v.kind == PyValue::Kind::kFloat;
}
double as_double(const PyValue& v) { return v.kind == PyValue::Kind::kFloat ? v.f : static_cast<double>(v.as_int()); }
}  // namespace

bool py_eq(const PyValue& a, const PyValue& b) {
  if (numeric(a) && numeric(b)) {
    if (a.kind != PyValue::Kind::kFloat && b.kind != PyValue::Kind::kFloat) return a.as_int() == b.as_int();
    return as_double(a) == as_double(b);
  }
  if (a.is_none() && b.is_none()) return true;
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case PyValue::Kind::kStr:
    case PyValue::Kind::kBigInt: return a.str == b.str;
    case PyValue::Kind::kList:
      if (a.list.size() != b.list.size()) return false;
      for (size_t k = 0; k < a.list.size(); ++k)
        if (!py_eq(a.list[k], b.list[k])) return false;
      return true;
    case PyValue::Kind::kInstance: return a.inst == b.inst;  // identity, as Python objects
    default: return false;
  }
}

bool py_eq_int(const PyValue& a, std::int64_t n) {
  // py_eq(a, PyValue::integer(n)) without building a PyValue: only bool, int and float equal an int.
  if (!numeric(a)) return false;
  if (a.kind != PyValue::Kind::kFloat) return a.as_int() == n;
  return a.f == static_cast<double>(n);
}
bool py_eq_str(const PyValue& a, std::string_view s) { return a.kind == PyValue::Kind::kStr && std::string_view(a.str) == s; }

namespace {
/// ASCII whitespace as Python's str.strip() sees it: " \t\n\v\f\r".
bool py_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
}  // namespace

std::string py_strip(const std::string& s) {
  std::string_view t(s);
  while (!t.empty() && py_space(t.front())) t.remove_prefix(1);
  while (!t.empty() && py_space(t.back())) t.remove_suffix(1);
  return std::string(t);
}

std::string ascii_lower(std::string s) {
  for (auto& c : s)  // ASCII only, as Python's str.lower() on the registered names (no locale call per char)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

namespace {
std::optional<std::int64_t> parse_digits(std::string_view d, int base, bool neg) {
  if (d.empty()) return std::nullopt;
  unsigned long long acc = 0;
  for (char c : d) {
    int v;
    if (c >= '0' && c <= '9') v = c - '0';
    else if (c >= 'a' && c <= 'z') v = c - 'a' + 10;
    else if (c >= 'A' && c <= 'Z') v = c - 'A' + 10;
    else return std::nullopt;
    if (v >= base) return std::nullopt;
    acc = acc * base + v;
    if (acc > 9223372036854775807ULL) return std::nullopt;
  }
  auto r = static_cast<std::int64_t>(acc);
  return neg ? -r : r;
}

/// `s.strip()` without the sign: the digits part, and whether a '-' came first (no string is built).
std::string_view unsigned_part(std::string_view s, bool* neg) {
  std::string_view t(s);
  while (!t.empty() && py_space(t.front())) t.remove_prefix(1);
  while (!t.empty() && py_space(t.back())) t.remove_suffix(1);
  if (t.empty()) return {};
  *neg = false;
  if (t[0] == '+' || t[0] == '-') { *neg = t[0] == '-'; t.remove_prefix(1); }
  return t;
}
}  // namespace

std::optional<std::int64_t> py_int_from_str(std::string_view s) {
  bool neg = false;
  std::string_view t = unsigned_part(s, &neg);
  return parse_digits(t, 10, neg);
}

std::optional<std::int64_t> py_int_base0(std::string_view s) {
  bool neg = false;
  std::string_view t = unsigned_part(s, &neg);
  if (t.size() > 2 && t[0] == '0') {
    char p = static_cast<char>(std::tolower(static_cast<unsigned char>(t[1])));
    if (p == 'x') return parse_digits(t.substr(2), 16, neg);
    if (p == 'o') return parse_digits(t.substr(2), 8, neg);
    if (p == 'b') return parse_digits(t.substr(2), 2, neg);
  }
  // Decimal with base 0: leading zeros are only allowed for zero itself ("00" is 0, "08" is an error).
  if (t.size() > 1 && t[0] == '0' && t.find_first_not_of('0') != std::string_view::npos) return std::nullopt;
  return parse_digits(t, 10, neg);
}

}  // namespace accord::reference
