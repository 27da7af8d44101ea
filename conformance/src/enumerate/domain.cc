// domain.cc: reading a domain file into axes of parsed case fragments, and applying axis values.
#include "enumerate/domain.h"

#include <algorithm>
#include <limits>
#include <map>

#include "accord/reference/flags.h"
#include "accord/reference/json_io.h"
#include "accord/reference/big_int_json.h"

namespace accord::enumerate {
using nlohmann::json;
namespace ref = accord::reference;

namespace {

using FlagMember = ref::PyValue ref::UserFlags::*;
// The wire keys of PROTOCOL.md `flags`: the rows of reference/tables/flags.def.
FlagMember flag_member(const std::string& name) {
  const ref::FlagRow* f = ref::flag_row(name);
  return f ? f->member : nullptr;
}

void copy_hardware(const std::string& key, const ref::HardwareFacts& from, ref::HardwareFacts& to) {
  if (key == "cuda_devices") to.cuda_devices = from.cuda_devices;
  else if (key == "mps") to.mps = from.mps;
  else if (key == "tpu" || key == "tpu_cores") to.tpu = from.tpu;
  else if (key == "ipu") to.ipu = from.ipu;
  else if (key == "hpu") to.hpu = from.hpu;
  else if (key == "fork") to.fork = from.fork;
  else if (key == "torch_distributed") to.torch_distributed = from.torch_distributed;
  else if (key == "cudnn_benchmark") to.cudnn_benchmark = from.cudnn_benchmark;
  else if (key == "packages") to.packages = from.packages;
  else if (key == "gpu_busy") to.gpu_busy = from.gpu_busy;
}

/// A label for a wire value: strings bare unless they read as another JSON literal, else compact JSON.
std::string label_of(const json& v) {
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    bool literal = !s.empty() && !json::parse(s, nullptr, false).is_discarded();
    return literal || s.empty() ? v.dump() : s;
  }
  return ref::json_text(v);
}

bool fail(std::string* error, const std::string& pointer, const std::string& what) {
  *error = pointer + ": " + what;
  return false;
}

/// The fields a fragment mentions.
void mentioned(const json& frag, std::vector<FieldRef>& out) {
  using K = FieldRef::Kind;
  if (frag.contains("flags"))
    for (auto it = frag["flags"].begin(); it != frag["flags"].end(); ++it) out.push_back({K::kFlag, it.key()});
  if (frag.contains("env"))
    for (auto it = frag["env"].begin(); it != frag["env"].end(); ++it) out.push_back({K::kEnv, it.key()});
  if (frag.contains("hardware"))
    for (auto it = frag["hardware"].begin(); it != frag["hardware"].end(); ++it)
      out.push_back({K::kHardware, it.key() == "tpu_cores" ? "tpu" : it.key()});
  if (frag.contains("interactive")) out.push_back({K::kInteractive, "interactive"});
}

bool add_value(Axis& axis, const std::string& label, const json& frag, const std::string& pointer, std::string* error) {
  AxisValue v{label, frag, {}};
  std::string why;
  if (!ref::case_from_json(frag, &v.parsed, &why)) return fail(error, pointer, why);
  for (const auto& other : axis.values)
    if (other.label == label) return fail(error, pointer, "duplicate value label '" + label + "'");
  axis.values.push_back(std::move(v));
  return true;
}

bool simple_axis(const json& a, const std::string& kind, Axis& axis, const std::string& p, std::string* error) {
  const json& key = a[kind];
  if (kind != "interactive" && !key.is_string()) return fail(error, p + "/" + kind, "must be a string, got " + key.dump());
  if (kind == "flag" && !flag_member(key.get<std::string>())) return fail(error, p + "/flag", "unknown flag " + key.dump());
  if (!a.contains("values") || !a["values"].is_array() || a["values"].empty())
    return fail(error, p + "/values", "must be a non-empty array of wire values");
  if (a.value("absent", false) && !add_value(axis, "-", json::object(), p + "/absent", error)) return false;
  for (std::size_t k = 0; k < a["values"].size(); ++k) {
    const json& v = a["values"][k];
    json frag;
    if (kind == "flag") frag = {{"flags", {{key.get<std::string>(), v}}}};
    else if (kind == "hardware") frag = {{"hardware", {{key.get<std::string>(), v}}}};
    else if (kind == "env") frag = {{"env", {{key.get<std::string>(), v}}}};
    else frag = {{"interactive", v}};
    if (!add_value(axis, label_of(v), frag, p + "/values/" + std::to_string(k), error)) return false;
  }
  return true;
}

bool preset_axis(const json& a, Axis& axis, const std::string& p, std::string* error) {
  const json& ps = a["presets"];
  if (!ps.is_array() || ps.empty()) return fail(error, p + "/presets", "must be a non-empty array of {\"label\", \"case\"}");
  for (std::size_t k = 0; k < ps.size(); ++k) {
    std::string q = p + "/presets/" + std::to_string(k);
    if (!ps[k].is_object() || !ps[k].contains("label") || !ps[k]["label"].is_string())
      return fail(error, q, "must be {\"label\": \"...\", \"case\": {...}}, got " + ps[k].dump());
    if (!add_value(axis, ps[k]["label"].get<std::string>(), ps[k].value("case", json::object()), q + "/case", error)) return false;
  }
  return true;
}

bool read_axis(const json& a, const std::string& p, Axis& axis, std::string* error) {
  if (!a.is_object()) return fail(error, p, "an axis must be an object, got " + a.dump());
  if (!a.contains("name") || !a["name"].is_string() || a["name"].get<std::string>().empty())
    return fail(error, p + "/name", "every axis needs a non-empty string name");
  axis.name = a["name"].get<std::string>();
  std::vector<std::string> kinds;
  for (const char* k : {"flag", "hardware", "env", "interactive", "presets"})
    if (a.contains(k)) kinds.push_back(k);
  if (kinds.size() != 1) return fail(error, p, "an axis needs exactly one of flag, hardware, env, interactive, presets");
  bool ok = kinds[0] == "presets" ? preset_axis(a, axis, p, error) : simple_axis(a, kinds[0], axis, p, error);
  if (!ok) return false;
  if (axis.values.size() > 65535) return fail(error, p, "at most 65535 values per axis");
  for (const auto& v : axis.values) mentioned(v.fragment, axis.owned);
  std::sort(axis.owned.begin(), axis.owned.end());
  axis.owned.erase(std::unique(axis.owned.begin(), axis.owned.end()), axis.owned.end());
  return true;
}

}  // namespace

bool load_domain(const json& j, Domain* out, std::string* error) {
  Domain d;
  d.source = j;
  if (!j.is_object() || !j.contains("axes") || !j["axes"].is_array() || j["axes"].empty())
    return fail(error, "", "a domain must be {\"axes\": [ ... ]} with at least one axis");
  std::map<FieldRef, std::string> owner;
  for (std::size_t k = 0; k < j["axes"].size(); ++k) {
    std::string p = "/axes/" + std::to_string(k);
    Axis axis;
    if (!read_axis(j["axes"][k], p, axis, error)) return false;
    for (const auto& other : d.axes)
      if (other.name == axis.name) return fail(error, p + "/name", "duplicate axis name '" + axis.name + "'");
    for (const auto& f : axis.owned) {
      auto [it, fresh] = owner.emplace(f, axis.name);
      if (!fresh) return fail(error, p, "field '" + f.name + "' is already set by axis '" + it->second + "'");
    }
    d.axes.push_back(std::move(axis));
  }
  *out = std::move(d);
  return true;
}

std::uint64_t Domain::cells() const {
  std::uint64_t n = 1;
  for (const auto& a : axes) {
    if (n > std::numeric_limits<std::uint64_t>::max() / a.values.size()) return std::numeric_limits<std::uint64_t>::max();
    n *= a.values.size();
  }
  return n;
}

std::vector<std::uint32_t> Domain::decode(std::uint64_t index) const {
  std::vector<std::uint32_t> digits(axes.size());
  for (std::size_t k = axes.size(); k-- > 0;) {
    digits[k] = static_cast<std::uint32_t>(index % axes[k].values.size());
    index /= axes[k].values.size();
  }
  return digits;
}

std::string Domain::describe(const std::vector<std::uint32_t>& digits) const {
  std::string out;
  for (std::size_t k = 0; k < axes.size() && k < digits.size(); ++k)
    out += (k ? " " : "") + axes[k].name + "=" + axes[k].values[digits[k]].label;
  return out;
}

void apply(const Axis& axis, std::uint32_t k, ref::Case& c) {
  const ref::Case& from = axis.values[k].parsed;
  for (const auto& f : axis.owned) {
    switch (f.kind) {
      case FieldRef::Kind::kFlag: {
        FlagMember m = flag_member(f.name);
        c.flags.*m = from.flags.*m;
        break;
      }
      case FieldRef::Kind::kEnv: {
        auto src = from.env.find(f.name);
        if (src == from.env.end()) c.env.erase(f.name);
        else c.env[f.name] = src->second;
        break;
      }
      case FieldRef::Kind::kHardware: copy_hardware(f.name, from.hardware, c.hardware); break;
      case FieldRef::Kind::kInteractive: c.interactive = from.interactive; break;
    }
  }
}

}  // namespace accord::enumerate
