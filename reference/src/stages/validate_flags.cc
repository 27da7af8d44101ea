// validate_flags.cc: stage 1a: determinism values, strategy and accelerator intake, precision, amp.
#include <cctype>
#include <cstdlib>

#include "../context.h"
#include "accord/reference/flags.h"

namespace accord::reference::detail {
namespace {

bool is_strategy_value(const Input& c, const PyValue& v) {
  if (v.is_str()) return strategy_by_name(v.str, c.pol).has_value();
  if (v.is_instance()) {
    const auto ci = c.class_of(*v.inst);
    return ci && ci->kind == ClassKind::kStrategy;
  }
  return false;
}

// PL 1.6.5 accelerator_connector.py _check_config_and_set_final_flags: the strategy flag and its conflicts.
bool intake_strategy(Resolution& c, FinalFlags& flags) {
  const auto& f = c.in.flags;
  if (f.strategy.is_none()) return true;
  flags.strategy_flag.borrow(f.strategy);
  if (flags.strategy_flag->is_str()) {
    c.fire(RuleId::kStrategyLowercase);
    lower_in_place(flags.strategy_flag);  // ascii_lower
    if (std::string_view(flags.strategy_flag->str) == "ddp_cpu") {
      c.fire(RuleId::kStrategyDdpCpu);
      return c.fail(DiagCode::kStrategyDdpCpu, {fld("strategy", f.strategy)});
    }
    if (std::string_view(flags.strategy_flag->str) == "tpu_spawn") {
      c.fire(RuleId::kStrategyTpuSpawn);
      return c.fail(DiagCode::kStrategyTpuSpawn, {fld("strategy", f.strategy)});
    }
  }
  const PyValue& acc = f.accelerator;
  if (acc.is_instance() && is_strategy_value(c, acc)) {
    c.fire(RuleId::kStrategyVsAcceleratorInstance);
    return c.fail(DiagCode::kStrategyAcceleratorConflict, {fld("strategy", *flags.strategy_flag), fld("accelerator", acc)});
  }
  if (acc.is_str() && is_strategy_value(c, acc)) {
    if (!py_eq(acc, *flags.strategy_flag)) {
      c.fire(RuleId::kStrategyVsAcceleratorName);
      return c.fail(DiagCode::kStrategyAcceleratorConflict, {fld("strategy", *flags.strategy_flag), fld("accelerator", acc)});
    }
    if (c.pol.strategy_twice_error) {
      c.fire(RuleId::kStrategyTwice);
      return c.fail(DiagCode::kStrategyAcceleratorConflict, {fld("strategy", *flags.strategy_flag), fld("accelerator", acc)});
    }
  }
  for (const auto& p : flags.plugins) {
    if (is_strategy_value(c, p)) {
      c.fire(RuleId::kStrategyInPlugins);
      return c.fail(DiagCode::kStrategyInPlugins, {fld("strategy", *flags.strategy_flag), fld("plugin", p)});
    }
  }
  return true;
}

// PL 1.6.5 accelerator_connector.py _check_config_and_set_final_flags: the accelerator flag.
bool intake_accelerator(Resolution& c, FinalFlags& flags) {
  const PyValue& acc = c.in.flags.accelerator;
  if (acc.is_none()) return true;
  if (py_eq_str(acc, "auto")) {
    c.fire(RuleId::kAcceleratorName);
    flags.accelerator_flag.kind = AcceleratorFlag::Kind::kAuto;
    return true;
  }
  if (auto id = acc.is_str() ? accelerator_by_name(acc.str, c.pol) : std::nullopt) {
    c.fire(RuleId::kAcceleratorName);
    flags.accelerator_flag = {AcceleratorFlag::Kind::kName, *id};
    return true;
  }
  if (acc.is_instance()) {
    const auto ci = c.class_of(*acc.inst);
    if (ci && ci->kind == ClassKind::kAccelerator) {
      c.fire(RuleId::kAcceleratorName);
      flags.accelerator_flag = {AcceleratorFlag::Kind::kInstance, static_cast<AcceleratorId>(ci->id)};
      return true;
    }
  }
  if (is_strategy_value(c, acc)) {
    c.fire(RuleId::kAcceleratorStrategyDeprecated);
    c.note(DiagCode::kAcceleratorStrategyDeprecated, {fld("accelerator", acc)});
    flags.strategy_flag.borrow(acc);
    return true;
  }
  if (py_eq_str(acc, "ddp_cpu")) {
    if (c.pol.accelerator_ddp_cpu_error) {
      c.fire(RuleId::kAcceleratorDdpCpuError);
      return c.fail(DiagCode::kAcceleratorDdpCpu, {fld("accelerator", acc)});
    }
    c.fire(RuleId::kAcceleratorDdpCpu);
    if (!flags.strategy_flag->truthy()) flags.strategy_flag.borrow(acc);  // `not self._strategy_flag`: strategy="" counts as unset
    return true;
  }
  if (c.pol.accelerator_unknown_error) {
    c.fire(RuleId::kAcceleratorUnknown);
    return c.fail(DiagCode::kAcceleratorUnknown, {fld("accelerator", acc), fld("allowed", accelerator_names_with_auto(c.pol))});
  }
  c.fire(RuleId::kAcceleratorIgnored);
  return true;
}

bool intake_precision(Resolution& c, FinalFlags& flags) {
  const PyValue& p = c.in.flags.precision;
  if (c.pol.precision_normalize) {
    c.fire(RuleId::kPrecisionNormalize);
    if (p.is_none()) { flags.precision.borrow(int_value<32>()); return true; }
    if (const PyValue* v = normalized_precision(p)) {  // tables/precisions.def, column Normalize
      flags.precision.borrow(*v);
      return true;
    }
    return c.fail(DiagCode::kPrecisionInvalid, {fld("precision", p), fld("allowed", normalized_precisions_shown())});
  }
  flags.precision.borrow(p.is_absent() ? int_value<32>() : p);
  if (p.is_none()) return true;
  c.fire(RuleId::kPrecisionWhitelist);
  if (precision_whitelisted(py_str(p))) return true;  // tables/precisions.def, column Whitelist
  return c.fail(DiagCode::kPrecisionInvalid, {fld("precision", p), fld("allowed", whitelisted_precisions_shown())});
}

// ---- PL_TRAINER_<FLAG> defaults (PL 1.6.5 utilities/argparse.py _defaults_from_env_vars): a small ast.literal_eval.
void skip_space(const std::string& s, size_t& i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
}

std::optional<PyValue> literal(const std::string& s, size_t& i, int depth);

std::optional<PyValue> literal_list(const std::string& s, size_t& i, int depth) {
  std::vector<PyValue> items;
  for (++i, skip_space(s, i); i < s.size() && s[i] != ']'; skip_space(s, i)) {
    auto v = literal(s, i, depth + 1);
    if (!v) return std::nullopt;
    items.push_back(*v);
    skip_space(s, i);
    if (i < s.size() && s[i] == ',') ++i;
    else if (i >= s.size() || s[i] != ']') return std::nullopt;
  }
  if (i >= s.size()) return std::nullopt;
  ++i;
  return PyValue::make_list(std::move(items));
}

// CPython 3.11's tokenizer refuses the 201st open bracket ("too many nested parentheses", MAXLEVEL 200): a
// SyntaxError, so the value stays the string. `depth` counts the brackets open around s[i].
constexpr int kMaxBracketDepth = 200;

// None, True, False, ints (the int(s, 0) forms), floats, quoted strings without escapes, lists of these.
std::optional<PyValue> literal(const std::string& s, size_t& i, int depth) {
  if (i >= s.size()) return std::nullopt;
  if (s[i] == '[') return depth < kMaxBracketDepth ? literal_list(s, i, depth) : std::nullopt;
  if (s[i] == '\'' || s[i] == '"') {
    size_t end = s.find(s[i], i + 1);
    if (end == std::string::npos || s.find('\\', i) < end) return std::nullopt;
    std::string text = s.substr(i + 1, end - i - 1);
    i = end + 1;
    return PyValue::string(text);
  }
  size_t start = i;
  while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '.' || s[i] == '_' ||
                          ((s[i] == '+' || s[i] == '-') && (i == start || s[i - 1] == 'e' || s[i - 1] == 'E'))))
    ++i;
  std::string tok = s.substr(start, i - start);
  if (tok == "None") return PyValue::none();
  if (tok == "True" || tok == "False") return PyValue::boolean(tok == "True");
  if (auto n = py_int_base0(tok)) return PyValue::integer(*n);
  bool floaty = tok.find_first_of(".eE") != std::string::npos && tok.find_first_of("xX") == std::string::npos &&
                !tok.empty() && (std::isdigit(static_cast<unsigned char>(tok.back())) || tok.back() == '.');
  if (floaty) {
    char* end = nullptr;
    double d = std::strtod(tok.c_str(), &end);
    if (end == tok.c_str() + tok.size()) return PyValue::floating(d);
  }
  return std::nullopt;
}

}  // namespace

std::optional<Case> trainer_env_defaults(const Case& in, Profile p) {
  static const std::string kPrefix = "PL_TRAINER_";
  const auto first = in.env.lower_bound(kPrefix);  // the first variable at or after the prefix, if it has it
  if (first == in.env.end() || first->first.compare(0, kPrefix.size(), kPrefix) != 0) return std::nullopt;
  std::optional<Case> out;
  for (const auto& flag : flags()) {  // tables/flags.def
    if (!flag_accepted(flag, p)) continue;  // the release's Trainer has no such argument to default
    const auto member = flag.member;
    auto it = in.env.find(flag.env);
    if (it == in.env.end() || it->second.empty() || !(in.flags.*member).is_absent()) continue;
    if (!out) out = in;
    size_t i = 0;
    skip_space(it->second, i);
    auto v = literal(it->second, i, 0);
    if (v) skip_space(it->second, i);
    (out->flags.*member) = v && i == it->second.size() ? *v : PyValue::string(it->second);
  }
  return out;
}

// Python binds the Trainer's keyword arguments before its body runs: the first flag (in table order) the release's
// Trainer.__init__ does not take is a TypeError.
bool check_keywords(Resolution& c) {
  static const std::vector<const FlagRow*> gated = [] {  // the flags some profile does not take
    std::vector<const FlagRow*> out;
    for (const auto& f : flags())
      if (f.gate.get) out.push_back(&f);
    return out;
  }();
  for (const FlagRow* row : gated) {
    const FlagRow& f = *row;
    if ((c.in.flags.*f.member).is_absent() || f.gate.holds(c.pol)) continue;
    c.fire(RuleId::kUnexpectedKeyword);
    return c.fail(DiagCode::kUnexpectedKeyword, {fld("owner", c.connector_name()), fld("flag", f.name)});
  }
  return true;
}

bool validate_flags(Resolution& c, FinalFlags& flags) {
  const PyValue& pl = c.in.flags.plugins;
  if (pl.kind == PyValue::Kind::kList) {
    flags.plugins = {pl.list.data(), pl.list.size()};
  } else if (!pl.is_none()) {
    c.fire(RuleId::kPluginsWrap);
    flags.plugins = {&pl, 1};
  }
  return intake_strategy(c, flags) && intake_accelerator(c, flags) && intake_precision(c, flags);
}

// PL 1.6.5 accelerator_connector.py _check_config_and_set_final_flags, end: amp type and amp level.
bool validate_amp(Resolution& c, FinalFlags& flags) {
  const PyValue& b = c.in.flags.amp_backend;
  c.fire(RuleId::kAmpBackend);
  if (b.is_absent()) {
    flags.amp_type = "native";
  } else if (!b.is_str()) {
    return c.fail(DiagCode::kAmpBackendInvalid, {fld("amp_backend", b), fld("allowed", "'native', 'apex'")});
  } else {
    std::string low = ascii_lower(b.str);
    if (low == "native" || low == "apex") {
      flags.amp_type = low == "native" ? "native" : "apex";
    } else if (c.pol.amp_backend_unknown_error) {
      c.fire(RuleId::kAmpBackendUnknown);
      return c.fail(DiagCode::kAmpBackendInvalid, {fld("amp_backend", b), fld("allowed", "'native', 'apex'")});
    } else {
      c.fire(RuleId::kAmpBackendUnknownIgnored);
      flags.amp_type = "";
    }
  }
  flags.amp_level.borrow(c.in.flags.amp_level);
  if (!flags.amp_level->is_none() && flags.amp_type != "apex") {
    c.fire(RuleId::kAmpLevel);
    return c.fail(DiagCode::kAmpLevelWithoutApex, {fld("amp_level", *flags.amp_level), fld("amp_backend", amp_backend_shown(c))});
  }
  return true;
}

}  // namespace accord::reference::detail
