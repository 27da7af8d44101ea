// outcome_text.cc: an outcome written as JSON text straight from the reference's Outcome (the hot paths).
#include "accord/conformance/outcome_text.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "accord/conformance/protocol.h"
#include "accord/reference/diagnostic.h"
#include "accord/reference/big_int_json.h"
#include "accord/reference/json_io.h"
#include "accord/reference/rules.h"
#include "json_writer.h"

namespace accord::conformance {
namespace {
namespace ref = accord::reference;
using nlohmann::json;

/// A table's wire ids (rules, codes, severities) as JSON string literals, each escaped once.
struct QuotedIds {
  std::vector<std::string> rules, codes, severities;
  /// Each code's message template when no byte of it needs an escape (else empty): its runs are copied as they are.
  std::vector<std::string_view> plain_templates;
  QuotedIds() {
    auto quoted = [](const char* id) {
      std::string q;
      append_json_string(q, id);
      return q;
    };
    for (int k = 0; k < ref::rule_count(); ++k) rules.push_back(quoted(ref::rule_wire(static_cast<ref::RuleId>(k))));
    for (int k = 0; k < ref::diag_count(); ++k) {
      auto c = static_cast<ref::DiagCode>(k);
      codes.push_back(quoted(ref::wire_id(c)));
      severities.push_back(quoted(ref::severity_name(ref::severity(c))));
      const std::string_view t = ref::message_template(c);
      std::string escaped;
      append_json_escaped(escaped, t);
      plain_templates.push_back(escaped == t ? t : std::string_view());
    }
  }
};
const QuotedIds& quoted_ids() {
  static const QuotedIds ids;
  return ids;
}

/// A diagnostic; its code and fields alone (no message or severity) for OutcomeParts::kPlanOnly.
void write_diag(JsonWriter& w, const ref::Diagnostic& d, const QuotedIds& ids, OutcomeParts parts) {
  // The fields as diag_json writes them: sorted by key, the last of a repeated key winning; a diagnostic has a few.
  constexpr std::size_t kFew = 8;
  const ref::Field* sorted[kFew];
  std::size_t n = 0;
  std::map<std::string, std::string> many;  // more than kFew (no diagnostic has as many today)
  for (const auto& f : d.fields) {
    if (d.fields.size() > kFew) {
      many[f.key] = f.value;
      continue;
    }
    std::size_t at = 0;
    while (at < n && sorted[at]->key < f.key) ++at;
    if (at < n && sorted[at]->key == f.key) {
      sorted[at] = &f;
      continue;
    }
    std::copy_backward(sorted + at, sorted + n, sorted + n + 1);
    sorted[at] = &f, ++n;
  }
  const auto code = static_cast<std::size_t>(d.code);
  w.open('{');
  w.key("code"), w.raw(ids.codes[code]);
  w.key("fields");
  if (d.fields.size() > kFew) {
    w.string_map(many);
  } else {
    w.open('{');
    for (std::size_t k = 0; k < n; ++k) w.key_str(sorted[k]->key), w.str(sorted[k]->value);
    w.close('}');
  }
  if (parts == OutcomeParts::kWhole) {
    w.key("message"), w.pieces([&d](auto&& emit) { ref::render_pieces(d, emit); }, ids.plain_templates[static_cast<std::size_t>(d.code)]);
    w.key("severity"), w.raw(ids.severities[code]);
  }
  w.close('}');
}

/// Printable ASCII with no '"' or '\\': the same text once escaped (as a key) or once parsed and dumped (as a string).
bool plain(std::string_view t) {
  return std::all_of(t.begin(), t.end(), [](char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; });
}

/// A literal that dump(parse(literal)) gives back unchanged: true, false, null, a decimal integer of at most 18
/// digits (no leading zero, no "-0") or a plain string. (json_literal writes lists with ", ", floats in Python's form and
/// control characters as \u00XX: those take the reference's path.)
bool canonical_literal(std::string_view v) {
  if (v == "true" || v == "false" || v == "null") return true;
  if (v.size() >= 2 && v.front() == '"' && v.back() == '"') return plain(v.substr(1, v.size() - 2));
  if (v == "-0") return false;  // read as 0
  const std::string_view digits = !v.empty() && v.front() == '-' ? v.substr(1) : v;
  return !digits.empty() && digits.size() <= 18 && (digits.size() == 1 || digits.front() != '0') &&
         std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// Params that can be written as they are: keys plain and strictly increasing (dump's order, none repeated), every
/// literal canonical. The registered params and an instance's arguments (a sorted map) are, unless a value is a
/// list, a float or unusual text.
bool written_as_is(const std::vector<std::pair<std::string, std::string>>& params) {
  for (std::size_t k = 0; k < params.size(); ++k)
    if (!plain(params[k].first) || (k > 0 && !(params[k - 1].first < params[k].first)) || !canonical_literal(params[k].second))
      return false;
  return true;
}

/// Parsed devices: the common shapes directly, anything else through the reference's value_to_json.
void devices(JsonWriter& w, const ref::PyValue& v) {
  using K = ref::PyValue::Kind;
  bool ints = v.kind == K::kList && std::all_of(v.list.begin(), v.list.end(), [](const ref::PyValue& x) { return x.kind == K::kInt; });
  if (v.kind == K::kInt) {
    w.num(v.i);
  } else if (v.kind == K::kNone || v.kind == K::kAbsent) {
    w.raw("null");
  } else if (ints) {
    w.open('[');
    for (const auto& x : v.list) w.num(x.i);
    w.close(']');
  } else {
    w.raw(ref::json_text(ref::value_to_json(v)));
  }
}

void write_plan(JsonWriter& w, const ref::Plan& p) {
  const auto& ce = p.cluster_environment;
  w.open('{');
  w.key("accelerator"), w.str(p.accelerator);
  w.key("accelerator_class"), w.str(p.accelerator_class);
  w.key("checkpoint_io"), w.str_or_null(p.checkpoint_io);
  w.key("cluster_environment"), w.open('{');
  w.key("class"), w.str(ce.cls);
  w.key("creates_processes_externally"), w.boolean(ce.creates_processes_externally);
  w.key("global_rank"), w.opt(ce.global_rank);
  w.key("local_rank"), w.opt(ce.local_rank);
  w.key("node_rank"), w.opt(ce.node_rank);
  w.key("world_size"), w.opt(ce.world_size);
  w.close('}');
  const auto& d = p.determinism;
  if (p.trainer_state) {  // Fabric's plan has no determinism, is_distributed or layer_sync
    w.key("determinism"), w.open('{');
    w.key("cudnn_benchmark"), w.boolean(d.cudnn_benchmark);
    w.key("cudnn_deterministic"), w.boolean(d.cudnn_deterministic);
    w.key("env"), w.string_map(d.env);
    w.key("use_deterministic_algorithms"), w.boolean(d.use_deterministic_algorithms);
    w.key("warn_only"), w.boolean(d.warn_only);
    w.close('}');
  }
  w.key("devices"), devices(w, p.devices);
  if (p.trainer_state) w.key("is_distributed"), w.boolean(p.is_distributed);
  w.key("launcher"), w.open('{');
  w.key("class"), w.str_or_null(p.launcher.cls);
  w.key("interactive_compatible"), w.boolean(p.launcher.interactive_compatible);
  w.key("kind"), w.str_or_null(p.launcher.kind);
  w.key("start_method"), w.str_or_null(p.launcher.start_method);
  w.close('}');
  if (p.trainer_state) w.key("layer_sync"), w.str_or_null(p.layer_sync);
  w.key("num_nodes"), w.num(p.num_nodes);
  w.key("num_processes"), w.num(p.num_processes);
  w.key("parallel_devices"), w.open('[');
  for (const auto& dev : p.parallel_devices) w.str(dev);
  w.close(']');
  w.key("precision"), w.open('{');
  w.key("amp_backend"), w.str_or_null(p.precision.amp_backend);
  w.key("amp_level"), w.str_or_null(p.precision.amp_level);
  w.key("device"), w.str_or_null(p.precision.device);
  w.key("plugin"), w.str(p.precision.plugin);
  w.key("value"), w.str(p.precision.value);
  w.close('}');
  w.key("strategy"), w.open('{');
  w.key("class"), w.str(p.strategy.cls);
  w.key("family"), w.str(p.strategy.family);
  w.key("name"), w.str(p.strategy.name);
  w.key("params");
  if (written_as_is(p.strategy.params)) {
    w.open('{');
    for (const auto& [k, v] : p.strategy.params) w.key_str(k), w.raw(v);
    w.close('}');
  } else {  // the reference's own path: parse each literal, sort the keys (the last of a repeated one wins), dump
    json params = json::object();
    for (const auto& [k, v] : p.strategy.params) params[k] = json::parse(v, nullptr, false);
    w.raw(params.dump());
  }
  w.key("root_device"), w.str_or_null(p.strategy.root_device);
  w.close('}');
  w.close('}');
}

}  // namespace

void write_outcome_text(std::string* out, const ref::Outcome& o, OutcomeParts parts) {
  const QuotedIds& ids = quoted_ids();
  const bool whole = parts == OutcomeParts::kWhole;
  JsonWriter w(out);
  w.open('{');
  if (whole) {
    w.key("diagnostics"), w.open('[');
    for (const auto& n : o.notes) write_diag(w, n, ids, parts);
    w.close(']');
  }
  if (o.ok()) w.key("plan"), write_plan(w, o.plan());
  else w.key("error"), write_diag(w, o.error(), ids, parts);
  w.key("status"), w.raw(o.ok() ? R"("ok")" : R"("error")");
  if (whole) {
    w.key("trace"), w.open('[');
    for (auto r : o.trace) w.raw(ids.rules[static_cast<std::size_t>(r)]);
    w.close(']');
  }
  w.close('}');
}

}  // namespace accord::conformance
