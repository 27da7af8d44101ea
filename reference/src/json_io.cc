// json_io.cc: cases and outcomes to and from JSON (nlohmann), with errors that name the JSON Pointer.
#include "accord/reference/json_io.h"

#include <iterator>
#include <nlohmann/json.hpp>

#include "accord/reference/big_int_json.h"
#include "accord/reference/flags.h"
#include "accord/reference/registry.h"

namespace accord::reference {
using nlohmann::json;

namespace {

bool fail(std::string* error, const std::string& pointer, const std::string& what) {
  *error = pointer + ": " + what;
  return false;
}

std::string shown(const json& j) {
  std::string s = json_text(j);
  return s.size() > 80 ? s.substr(0, 77) + "..." : s;
}

}  // namespace

PyValue* flag_slot(UserFlags& flags, std::string_view name, int* index, bool* instances) {
  // The members and the Instances column of tables/flags.def as constants (a reader asks for each flag of each line).
  static constexpr PyValue UserFlags::*kMembers[] = {
#define ACCORD_FLAG(Name, Instances, PyType, Accepted, Lacking, Description) &UserFlags::Name,
#include "../tables/flags.def"
  };
  static constexpr bool kInstances[] = {
#define ACCORD_FLAG(Name, Instances, PyType, Accepted, Lacking, Description) Instances,
#include "../tables/flags.def"
  };
  const int k = flag_index(name);
  if (k < 0) return nullptr;
  *index = k;
  *instances = kInstances[k];
  return &(flags.*kMembers[k]);
}

bool* hardware_switch(HardwareFacts& hw, std::string_view key, int* index) {
  static const std::pair<std::string_view, bool HardwareFacts::*> kRows[] = {
      {"mps", &HardwareFacts::mps},   {"tpu", &HardwareFacts::tpu},   {"ipu", &HardwareFacts::ipu},
      {"hpu", &HardwareFacts::hpu},   {"fork", &HardwareFacts::fork}, {"torch_distributed", &HardwareFacts::torch_distributed},
      {"cudnn_benchmark", &HardwareFacts::cudnn_benchmark},
  };
  for (int k = 0; k < static_cast<int>(std::size(kRows)); ++k)
    if (key == kRows[k].first) {
      *index = k;
      return &(hw.*(kRows[k].second));
    }
  return nullptr;
}

const std::vector<std::string>& flag_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& f : reference::flags()) n.push_back(f.name);
    return n;
  }();
  return names;
}

bool value_from_json(const json& j, bool instances, PyValue* out, std::string* error, const std::string& pointer) {
  switch (j.type()) {
    case json::value_t::null: *out = PyValue::none(); return true;
    case json::value_t::boolean: *out = PyValue::boolean(j.get<bool>()); return true;
    case json::value_t::number_integer: *out = PyValue::integer(j.get<std::int64_t>()); return true;
    case json::value_t::number_unsigned: {
      auto u = j.get<std::uint64_t>();
      if (u <= static_cast<std::uint64_t>(INT64_MAX)) { *out = PyValue::integer(static_cast<std::int64_t>(u)); return true; }
      PyValue v; v.kind = PyValue::Kind::kBigInt; v.str = j.dump(); *out = v;
      return true;
    }
    case json::value_t::number_float: *out = PyValue::floating(j.get<double>()); return true;
    case json::value_t::string: {
      auto s = j.get<std::string>();
      *out = instances && class_by_name(s) ? PyValue::instance(s) : PyValue::string(s);
      return true;
    }
    case json::value_t::array: {
      std::vector<PyValue> items;
      for (size_t k = 0; k < j.size(); ++k) {
        PyValue v;
        if (!value_from_json(j[k], instances, &v, error, pointer + "/" + std::to_string(k))) return false;
        items.push_back(v);
      }
      *out = PyValue::make_list(items);
      return true;
    }
    case json::value_t::object: {
      if (!j.contains("class") || !j["class"].is_string())
        return fail(error, pointer, "an object must be an instance {\"class\": \"Name\", \"args\": {...}}, got " + shown(j));
      for (auto it = j.begin(); it != j.end(); ++it)
        if (it.key() != "class" && it.key() != "args") return fail(error, pointer + "/" + it.key(), "unknown instance key");
      std::map<std::string, PyValue> args;
      if (j.contains("args")) {
        if (!j["args"].is_object()) return fail(error, pointer + "/args", "must be an object, got " + shown(j["args"]));
        for (auto it = j["args"].begin(); it != j["args"].end(); ++it) {
          PyValue v;
          if (!value_from_json(it.value(), true, &v, error, pointer + "/args/" + it.key())) return false;
          args[it.key()] = v;
        }
      }
      *out = PyValue::instance(j["class"].get<std::string>(), std::move(args));
      return true;
    }
    case json::value_t::binary:
      if (PyValue v; big_int_text(j, &v.str)) {  // an integer past 64 bits, as written
        v.kind = PyValue::Kind::kBigInt;
        *out = std::move(v);
        return true;
      }
      break;
    case json::value_t::discarded: break;
  }
  return fail(error, pointer, "unsupported JSON value");  // LCOV_EXCL_LINE parsed JSON holds no other binary, never a discarded value
}

json value_to_json(const PyValue& v) {
  switch (v.kind) {
    case PyValue::Kind::kAbsent:
    case PyValue::Kind::kNone: return nullptr;
    case PyValue::Kind::kBool: return v.b;
    case PyValue::Kind::kInt: return v.i;
    case PyValue::Kind::kBigInt: return integer_json(v.str);
    case PyValue::Kind::kFloat: return v.f;
    case PyValue::Kind::kStr: return v.str;
    case PyValue::Kind::kList: {
      json a = json::array();
      for (const auto& x : v.list) a.push_back(value_to_json(x));
      return a;
    }
    case PyValue::Kind::kInstance: {
      json o = {{"class", v.inst->cls}};
      if (!v.inst->args.empty()) {
        o["args"] = json::object();
        for (const auto& [k, x] : v.inst->args) o["args"][k] = value_to_json(x);
      }
      return o;
    }
  }
  return nullptr;  // LCOV_EXCL_LINE unreachable: every kind returns above
}

namespace {

bool hardware_from_json(const json& h, HardwareFacts* hw, std::string* error) {
  if (!h.is_object()) return fail(error, "/hardware", "must be an object, got " + shown(h));
  for (auto it = h.begin(); it != h.end(); ++it) {
    const std::string& k = it.key();
    const json& v = it.value();
    std::string p = "/hardware/" + k;
    if (k == "cuda_devices") {
      if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() > 4096)
        return fail(error, p, "must be an integer in 0..4096, got " + shown(v));
      hw->cuda_devices = v.get<int>();
    } else if (k == "tpu_cores") {
      if (!v.is_number_integer() || v.get<std::int64_t>() < 0) return fail(error, p, "must be a non-negative integer, got " + shown(v));
      hw->tpu = v.get<std::int64_t>() > 0;
      hw->tpu_cores = static_cast<int>(std::min<std::int64_t>(v.get<std::int64_t>(), 4096));
    } else if (int row; bool* sw = hardware_switch(*hw, k, &row)) {
      if (!v.is_boolean()) return fail(error, p, "must be true or false, got " + shown(v));
      *sw = v.get<bool>();
    } else if (k == "packages") {
      if (!v.is_array()) return fail(error, p, "must be a list of package names, got " + shown(v));
      for (size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_string()) return fail(error, p + "/" + std::to_string(i), "must be a string, got " + shown(v[i]));
        hw->packages.insert(v[i].get<std::string>());
      }
    } else if (k == "gpu_busy") {
      if (!v.is_array()) return fail(error, p, "must be a list of GPU ids, got " + shown(v));
      for (size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_number_integer()) return fail(error, p + "/" + std::to_string(i), "must be an integer, got " + shown(v[i]));
        hw->gpu_busy.insert(v[i].get<int>());
      }
    } else if (k == "cuda_names" || k == "nccl_version" || k == "probe") {
      // informational keys written by `accord probe`; they do not affect resolution
    } else {
      return fail(error, p, "unknown hardware key");
    }
  }
  return true;
}

}  // namespace

bool case_from_json(const json& j, Case* out, std::string* error) {
  Case c;
  if (!j.is_object()) return fail(error, "", "a case must be a JSON object, got " + shown(j));
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& k = it.key();
    if (k == "flags") {
      if (!it->is_object()) return fail(error, "/flags", "must be an object, got " + shown(*it));
      for (auto f = it->begin(); f != it->end(); ++f) {
        int index;
        bool instances;
        PyValue* slot = flag_slot(c.flags, f.key(), &index, &instances);
        if (!slot) return fail(error, "/flags/" + f.key(), "unknown flag (known: accelerator, strategy, devices, ...)");
        if (!value_from_json(f.value(), instances, slot, error, "/flags/" + f.key())) return false;
      }
    } else if (k == "env") {
      if (!it->is_object()) return fail(error, "/env", "must be an object of strings, got " + shown(*it));
      for (auto e = it->begin(); e != it->end(); ++e) {
        if (!e->is_string()) return fail(error, "/env/" + e.key(), "must be a string, got " + shown(*e));
        c.env[e.key()] = e->get<std::string>();
      }
    } else if (k == "hardware") {
      if (!hardware_from_json(*it, &c.hardware, error)) return false;
    } else if (k == "interactive") {
      if (!it->is_boolean()) return fail(error, "/interactive", "must be true or false, got " + shown(*it));
      c.interactive = it->get<bool>();
    } else {
      return fail(error, "/" + k, "unknown case key (expected flags, env, hardware, interactive)");
    }
  }
  *out = std::move(c);
  return true;
}

json case_to_json(const Case& c) {
  json flags = json::object();
  for (const auto& f : reference::flags())
    if (!(c.flags.*(f.member)).is_absent()) flags[f.name] = value_to_json(c.flags.*(f.member));
  const auto& h = c.hardware;
  json hw = {{"cuda_devices", h.cuda_devices}, {"mps", h.mps}, {"tpu", h.tpu}, {"ipu", h.ipu}, {"hpu", h.hpu},
             {"fork", h.fork}, {"torch_distributed", h.torch_distributed}, {"cudnn_benchmark", h.cudnn_benchmark},
             {"packages", h.packages}, {"gpu_busy", h.gpu_busy}};
  if (h.tpu_cores != 8) hw["tpu_cores"] = h.tpu_cores;
  return {{"flags", flags}, {"env", c.env}, {"hardware", hw}, {"interactive", c.interactive}};
}

namespace {

json diag_json(const Diagnostic& d) {
  json f = json::object();
  for (const auto& x : d.fields) f[x.key] = x.value;
  return {{"code", wire_id(d.code)}, {"severity", severity_name(severity(d.code))}, {"fields", f}, {"message", render(d)}};
}

json opt(const std::optional<long long>& v) { return v ? json(*v) : json(nullptr); }
json str_or_null(std::string_view s) { return s.empty() ? json(nullptr) : json(s); }

json plan_json(const Plan& p) {
  json params = json::object();
  for (const auto& [k, v] : p.strategy.params) params[k] = json::parse(v, nullptr, false);
  const auto& ce = p.cluster_environment;
  json j = {
      {"accelerator", p.accelerator},
      {"accelerator_class", p.accelerator_class},
      {"devices", value_to_json(p.devices)},
      {"parallel_devices", p.parallel_devices},
      {"num_nodes", p.num_nodes},
      {"num_processes", p.num_processes},
      {"cluster_environment", {{"class", ce.cls}, {"creates_processes_externally", ce.creates_processes_externally},
                               {"world_size", opt(ce.world_size)}, {"global_rank", opt(ce.global_rank)},
                               {"local_rank", opt(ce.local_rank)}, {"node_rank", opt(ce.node_rank)}}},
      {"strategy", {{"name", p.strategy.name}, {"class", p.strategy.cls}, {"family", p.strategy.family},
                    {"params", params}, {"root_device", str_or_null(p.strategy.root_device)}}},
      {"launcher", {{"class", str_or_null(p.launcher.cls)}, {"kind", str_or_null(p.launcher.kind)},
                    {"start_method", str_or_null(p.launcher.start_method)},
                    {"interactive_compatible", p.launcher.interactive_compatible}}},
      {"precision", {{"value", p.precision.value}, {"plugin", p.precision.plugin}, {"amp_backend", str_or_null(p.precision.amp_backend)},
                     {"amp_level", str_or_null(p.precision.amp_level)}, {"device", str_or_null(p.precision.device)}}},
      {"checkpoint_io", str_or_null(p.checkpoint_io)},
  };
  if (!p.trainer_state) return j;  // Fabric: no layer sync, is_distributed or determinism
  j["layer_sync"] = str_or_null(p.layer_sync);
  j["is_distributed"] = p.is_distributed;
  j["determinism"] = {{"use_deterministic_algorithms", p.determinism.use_deterministic_algorithms},
                      {"warn_only", p.determinism.warn_only}, {"cudnn_benchmark", p.determinism.cudnn_benchmark},
                      {"cudnn_deterministic", p.determinism.cudnn_deterministic}, {"env", p.determinism.env}};
  return j;
}

}  // namespace

json outcome_to_json(const Outcome& o) {
  json j = {{"status", o.ok() ? "ok" : "error"}};
  if (o.ok()) j["plan"] = plan_json(o.plan());
  else j["error"] = diag_json(o.error());
  json d = json::array();
  for (const auto& n : o.notes) d.push_back(diag_json(n));
  j["diagnostics"] = d;
  json t = json::array();
  for (auto r : o.trace) t.push_back(rule_wire(r));
  j["trace"] = t;
  return j;
}

}  // namespace accord::reference
