// in_process.cc: the reference connector as an adapter, called directly (the only file of the
// conformance library that includes accord/reference headers).
#include <chrono>
#include "accord/reference/diagnostic.h"
#include "accord/reference/flags.h"
#include "accord/reference/inputs.h"
#include "accord/reference/json_io.h"
#include "accord/reference/resolve.h"
#include "accord/reference/rules.h"
#include "accord/conformance/adapter.h"
#include "accord/conformance/protocol.h"
#include "accord/reference/big_int_json.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string_view>

namespace accord::conformance {
namespace {
namespace ref = accord::reference;
using nlohmann::json;

/// Appends JSON text exactly as nlohmann's dump() writes it (sorted keys, same escapes), so the
/// fast path of `accord serve` is byte-identical to outcome_to_json(o).dump() (a test checks it).
class Writer {
 public:
  explicit Writer(std::string* out) : o_(*out) {}
  void str(std::string_view s) {
    comma();
    append_json_string(o_, s);
  }
  /// A string known to need no escaping (a table's wire id): quoted, not scanned.
  void plain(const char* s) {
    comma();
    o_ += '"';
    o_ += s;
    o_ += '"';
  }
  void str_or_null(std::string_view s) { s.empty() ? raw("null") : str(s); }
  /// A key given as a literal (no escaping needed, length known at compile time).
  template <std::size_t N>
  void key(const char (&k)[N]) {
    comma();
    o_ += '"';
    o_.append(k, N - 1);
    o_ += "\":";
    first_ = true;  // the value follows without a comma
  }
  void raw(std::string_view t) {
    comma();
    o_.append(t.data(), t.size());
  }
  void boolean(bool b) { raw(b ? "true" : "false"); }
  void num(long long v) { raw(std::to_string(v)); }
  void opt(const std::optional<long long>& v) { v ? num(*v) : raw("null"); }
  void open(char c) {
    comma();
    o_ += c;
    first_ = true;
  }
  void close(char c) {
    o_ += c;
    first_ = false;
  }
  template <typename Text>
  void string_map(const std::map<Text, Text>& m) {
    open('{');
    for (const auto& [k, v] : m) key_str(k), str(v);
    close('}');
  }
  void key_str(std::string_view k) {
    comma();
    append_json_string(o_, k);
    o_ += ':';
    first_ = true;
  }

 private:
  void comma() {
    if (!first_) o_ += ',';
    first_ = false;
  }
  std::string& o_;
  bool first_ = true;
};

/// True when no table id (rule, code, severity) needs escaping, checked once: then they are
/// written with Writer::plain, which skips the scan.
bool table_ids_plain() {
  static const bool plain = [] {
    auto clean = [](const char* s) {
      for (; *s; ++s)
        if (static_cast<unsigned char>(*s) < 0x20 || *s == '"' || *s == '\\') return false;
      return true;
    };
    for (int k = 0; k < ref::rule_count(); ++k)
      if (!clean(ref::rule_wire(static_cast<ref::RuleId>(k)))) return false;
    for (int k = 0; k < ref::diag_count(); ++k) {
      auto c = static_cast<ref::DiagCode>(k);
      if (!clean(ref::wire_id(c)) || !clean(ref::severity_name(ref::severity(c)))) return false;
    }
    return true;
  }();
  return plain;
}

void table_id(Writer& w, const char* id) { table_ids_plain() ? w.plain(id) : w.str(id); }

void write_diag(Writer& w, const ref::Diagnostic& d) {
  std::map<std::string, std::string> fields;  // as diag_json: sorted, the last of a repeated key wins
  for (const auto& f : d.fields) fields[f.key] = f.value;
  w.open('{');
  w.key("code"), table_id(w, ref::wire_id(d.code));
  w.key("fields"), w.string_map(fields);
  w.key("message"), w.str(ref::render(d));
  w.key("severity"), table_id(w, ref::severity_name(ref::severity(d.code)));
  w.close('}');
}

/// Parsed devices: the common shapes directly, anything else through the reference's value_to_json.
void devices(Writer& w, const ref::PyValue& v) {
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

void write_plan(Writer& w, const ref::Plan& p) {
  const auto& ce = p.cluster_environment;
  w.open('{');
  w.key("accelerator"), w.str(p.accelerator);
  w.key("accelerator_class"), w.str(p.accelerator_class);
  w.key("checkpoint_io"), w.str(p.checkpoint_io);
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
  if (p.strategy.params.empty()) {
    w.raw("{}");
  } else {  // rare: take the reference's own path (parse + sort + dump) for the literals
    json params = json::object();
    for (const auto& [k, v] : p.strategy.params) params[k] = json::parse(v, nullptr, false);
    w.raw(params.dump());
  }
  w.key("root_device"), w.str_or_null(p.strategy.root_device);
  w.close('}');
  w.close('}');
}

void write_outcome(std::string* out, const ref::Outcome& o) {
  Writer w(out);
  w.open('{');
  w.key("diagnostics"), w.open('[');
  for (const auto& n : o.notes) write_diag(w, n);
  w.close(']');
  if (o.ok()) w.key("plan"), write_plan(w, o.plan());
  else w.key("error"), write_diag(w, o.error());
  w.key("status"), w.str(o.ok() ? "ok" : "error");
  w.key("trace"), w.open('[');
  for (auto r : o.trace) table_id(w, ref::rule_wire(r));
  w.close(']');
  w.close('}');
}

class ReferenceAdapter : public Adapter {
 public:
  ReferenceAdapter() {
    info_.name = "accord-reference";
    info_.version = "0.1.0";
    info_.language = "c++";
    info_.capabilities.insert(known_capabilities().begin(), known_capabilities().end());
  }
  bool start(std::string*) override { return true; }
  const ImplementationInfo& info() const override { return info_; }
  AdapterResult resolve(const std::string&, const std::string& profile, const json& case_json) override {
    ref::Profile p;
    if (!ref::parse_profile(profile, &p)) return unsupported(profile);
    ref::Case c;
    std::string err;
    if (!ref::case_from_json(case_json, &c, &err)) return {ResultStatus::kErrored, nullptr, "cannot read the case: " + err};
    AdapterResult r{ResultStatus::kOk, nullptr, ""};
    r.outcome = ref::outcome_to_json(timed(c, p, r));
    return r;
  }
  AdapterResult resolve_text(const std::string&, const std::string& profile, const json& case_json,
                             std::string* outcome_text) override {
    ref::Profile p;
    if (!ref::parse_profile(profile, &p)) return unsupported(profile);
    ref::Case c;
    std::string err;
    if (!ref::case_from_json(case_json, &c, &err)) return {ResultStatus::kErrored, nullptr, "cannot read the case: " + err};
    AdapterResult r{ResultStatus::kOk, nullptr, ""};
    write_outcome(outcome_text, timed(c, p, r));
    return r;
  }
  std::optional<AdapterResult> resolve_case_text(const std::string& profile, const ref::Case& c,
                                                 std::string* outcome_text) override {
    ref::Profile p;
    if (!ref::parse_profile(profile, &p)) return unsupported(profile);
    AdapterResult r{ResultStatus::kOk, nullptr, ""};
    write_outcome(outcome_text, timed(c, p, r));
    return r;
  }
  void stop() override {}

 private:
  /// resolve(), timed into r.elapsed_ns in the timing mode (the resolution alone: no reading or writing).
  ref::Outcome timed(const ref::Case& c, ref::Profile p, AdapterResult& r) const {
    if (!timing()) return ref::resolve(c, p);
    auto t0 = std::chrono::steady_clock::now();
    ref::Outcome o = ref::resolve(c, p);
    r.elapsed_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count();
    return o;
  }
  static AdapterResult unsupported(const std::string& profile) {
    return {ResultStatus::kSkipped, nullptr, "unsupported profile '" + profile + "'"};
  }
  ImplementationInfo info_;
};

Vocabulary make_vocabulary() {
  Vocabulary v;
  v.is_rule = [](const std::string& s) { return ref::rule_from_wire(s).has_value(); };
  v.is_code = [](const std::string& s) { return ref::diag_from_wire(s).has_value(); };
  v.is_profile = [](const std::string& s) {
    ref::Profile p;
    return ref::parse_profile(s, &p);
  };
  v.is_capability = [](const std::string& s) {
    const auto& caps = known_capabilities();
    return std::find(caps.begin(), caps.end(), s) != caps.end();
  };
  v.check_case = [](const json& j) {
    ref::Case c;
    std::string err;
    return ref::case_from_json(j, &c, &err) ? std::string() : err;
  };
  v.profile_names = [] {
    std::vector<std::string> names;
    for (const auto& p : ref::profiles()) names.push_back(p.name);
    return names;
  };
  v.code_flag_fields = [](const std::string& s) {
    std::vector<std::string> out;
    if (auto c = ref::diag_from_wire(s))
      for (const auto& f : ref::template_fields(*c))
        if (f == "flag" || ref::flag_row(f)) out.push_back(f);
    return out;
  };
  return v;
}

}  // namespace

std::unique_ptr<Adapter> make_reference_adapter() { return std::make_unique<ReferenceAdapter>(); }

const Vocabulary& reference_vocabulary() {
  static const Vocabulary v = make_vocabulary();
  return v;
}

}  // namespace accord::conformance
