// fabric_arguments.cc: the first step of Lightning Fabric 2.2.5's connector, before stage 1: the arguments the
// command line sets through LT_* environment variables (_Connector._argument_from_env) and `int(num_nodes)`
// (_Connector.__init__). Fabric reads no PL_TRAINER_* defaults.
#include <cmath>
#include <cstdio>

#include "../context.h"

namespace accord::reference::detail {
namespace {

/// One argument `_Connector.__init__` reads from the environment: the flag, its variable, its default.
struct EnvArgument {
  const char* flag;
  PyValue UserFlags::*member;
  std::string_view env;      ///< the variable (a literal's length kept: looked up on every resolution)
  const char* default_str;  ///< `str(default)`: a value equal to it never conflicts with the CLI
  PyValue (*default_value)();
};

PyValue auto_value() { return PyValue::string("auto"); }
PyValue one() { return PyValue::integer(1); }
PyValue none() { return PyValue::none(); }

// PL 2.2.5 fabric/connector.py _Connector.__init__: the order the arguments are read in, and the defaults of its
// signature (accelerator, strategy and devices "auto", num_nodes 1, precision None).
using namespace std::string_view_literals;
const EnvArgument kEnvArguments[] = {{"accelerator", &UserFlags::accelerator, "LT_ACCELERATOR"sv, "auto", auto_value},
                                     {"strategy", &UserFlags::strategy, "LT_STRATEGY"sv, "auto", auto_value},
                                     {"devices", &UserFlags::devices, "LT_DEVICES"sv, "auto", auto_value},
                                     {"num_nodes", &UserFlags::num_nodes, "LT_NUM_NODES"sv, "1", one},
                                     {"precision", &UserFlags::precision, "LT_PRECISION"sv, "None", none}};

/// Python `int(s)` for a str: surrounding whitespace, a sign, decimal digits with single underscores between them.
/// The decimal text without sign noise ("-12", "0"); nullopt where Python raises ValueError.
std::optional<std::string> int_text(const std::string& s) {
  std::string t = py_strip(s), digits;
  bool neg = false;
  size_t k = 0;
  if (k < t.size() && (t[k] == '+' || t[k] == '-')) neg = t[k++] == '-';
  for (; k < t.size(); ++k) {
    char ch = t[k];
    if (ch >= '0' && ch <= '9') digits += ch;
    else if (ch != '_' || digits.empty() || k + 1 == t.size() || t[k + 1] < '0' || t[k + 1] > '9') return std::nullopt;
  }
  if (digits.empty()) return std::nullopt;
  size_t lead = digits.find_first_not_of('0');
  digits = lead == std::string::npos ? "0" : digits.substr(lead);
  return (neg && digits != "0" ? "-" : "") + digits;
}

/// A decimal text as an int value: kInt where it fits int64, else kBigInt (the text kept).
PyValue int_value(const std::string& text) {
  if (auto v = py_int_from_str(text)) return PyValue::integer(*v);
  PyValue big;
  big.kind = PyValue::Kind::kBigInt;
  big.str = text;
  return big;
}

/// Python `int(v)`; nullopt where Python raises (ValueError for a string it cannot read or a NaN, OverflowError
/// for an infinity, TypeError for None, a list or an object).
std::optional<PyValue> py_int(const PyValue& v) {
  switch (v.kind) {
    case PyValue::Kind::kInt:
    case PyValue::Kind::kBigInt: return v;
    case PyValue::Kind::kBool: return PyValue::integer(v.b ? 1 : 0);
    case PyValue::Kind::kFloat: {
      if (!std::isfinite(v.f)) return std::nullopt;
      char buf[400];
      std::snprintf(buf, sizeof buf, "%.0f", std::trunc(v.f));  // exact: a truncated double is an integer
      return int_value(*int_text(buf));
    }
    case PyValue::Kind::kStr: {
      auto t = int_text(v.str);
      if (!t) return std::nullopt;
      return int_value(*t);
    }
    default: return std::nullopt;
  }
}

}  // namespace

bool fabric_arguments(Resolution& c, std::optional<Case>& replaced) {
  bool read = false;
  for (const EnvArgument& a : kEnvArguments) {
    const std::string* env = c.env_var(a.env);
    bool nodes = a.member == &UserFlags::num_nodes;
    const PyValue& given = c.in.flags.*a.member;
    if (!env && !nodes) continue;  // nothing to read: the argument stays as given
    if (!env && given.is_absent()) {  // int(1), Fabric's default
      c.fire(RuleId::kFabricNumNodesInt);
      continue;
    }
    PyValue current = given.is_absent() ? a.default_value() : given;
    if (env) {
      if (!read) c.fire(RuleId::kFabricArgumentsFromEnv);
      read = true;
      std::string shown = py_str(current);
      if (*env != shown && shown != a.default_str) {
        // _is_using_cli(): bool(int(os.environ.get("LT_CLI_USED", "0"))), asked only here.
        const std::string* cli = c.env_var("LT_CLI_USED");
        auto used = int_text(cli ? *cli : "0");
        if (!used) return c.fail(DiagCode::kNotInt, {fld("flag", "LT_CLI_USED"), fld("value", PyValue::string(*cli))});
        if (*used != "0") {
          c.fire(RuleId::kFabricCliConflict);
          return c.fail(DiagCode::kCliConflict, {fld("flag", a.flag), fld("value", current), fld("env_value", *env)});
        }
      }
      current = PyValue::string(*env);
      if (!replaced) replaced = c.in;
      replaced->flags.*a.member = current;
    }
    if (!nodes) continue;
    c.fire(RuleId::kFabricNumNodesInt);
    auto n = py_int(current);
    if (!n) return c.fail(DiagCode::kNotInt, {fld("flag", "num_nodes"), fld("value", current)});
    if (n->kind == current.kind && py_eq(*n, current)) continue;  // already the int it converts to
    if (!replaced) replaced = c.in;
    replaced->flags.num_nodes = std::move(*n);
  }
  return true;
}

// PL 2.2.5 fabric/fabric.py Fabric.__init__: after the connector, `if _is_using_cli():` reads LT_CLI_USED with int()
// whether or not an argument was compared with the command line.
bool fabric_cli_used(Resolution& c) {
  const std::string* cli = c.env_var("LT_CLI_USED");
  if (!cli) return true;
  c.fire(RuleId::kFabricCliUsed);
  if (int_text(*cli)) return true;
  return c.fail(DiagCode::kNotInt, {fld("flag", "LT_CLI_USED"), fld("value", PyValue::string(*cli))});
}

}  // namespace accord::reference::detail
