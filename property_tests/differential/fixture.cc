// fixture.cc: minimal case JSON and fixture entries for differential findings.
#include <algorithm>
#include <cctype>

#include "differential/differential.h"

namespace accord::differential {
using nlohmann::json;

namespace {

const json& default_hardware() {
  static const json h = {{"cuda_devices", 0}, {"mps", false}, {"tpu", false}, {"ipu", false}, {"hpu", false}, {"fork", true},
                         {"torch_distributed", true}, {"cudnn_benchmark", false}, {"packages", json::array()}, {"gpu_busy", json::array()}};
  return h;
}

std::string slug(const std::string& s, std::size_t max) {
  std::string out;
  for (char ch : s) {
    if (std::isalnum(static_cast<unsigned char>(ch))) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
    else if (!out.empty() && out.back() != '-') out.push_back('-');
    if (out.size() >= max) break;
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "case" : out;
}

}  // namespace

json snapshot_expectation(const json& o, const std::string& also_pointer) {
  json e = json::object();
  if (o.value("status", "") == "error") {
    json err = {{"code", o["error"].value("code", "")}};
    json fields = json::array(), values = json::object();
    const json given_fields = o["error"].value("fields", json::object());
    for (auto it = given_fields.begin(); it != given_fields.end(); ++it) {
      fields.push_back(it.key());
      if (it.value().is_string()) values[it.key()] = it.value();
    }
    if (!fields.empty()) err["fields"] = fields, err["field_values"] = values;
    e["error"] = err;
  } else {
    const json& p = o.value("plan", json::object());
    json plan = json::object();
    for (const char* k : {"accelerator", "devices", "num_processes"})
      if (p.contains(k)) plan[k] = p[k];
    plan["strategy"] = {{"name", p.value("strategy", json::object()).value("name", "")}};
    plan["precision"] = {{"value", p.value("precision", json::object()).value("value", "")}};
    plan["cluster_environment"] = {{"class", p.value("cluster_environment", json::object()).value("class", "")}};
    if (!also_pointer.empty()) {
      json::json_pointer ptr(also_pointer);
      if (p.contains(ptr)) plan[ptr] = p[ptr];
    }
    e["plan"] = plan;
  }
  json codes = json::array();
  for (const auto& d : o.value("diagnostics", json::array()))
    if (d.is_object() && d.contains("code") && std::find(codes.begin(), codes.end(), d["code"]) == codes.end()) codes.push_back(d["code"]);
  if (!codes.empty()) e["diagnostics"] = codes;
  e["diagnostics_exact"] = true;
  return e;
}

json minimal_case_json(const json& full) {
  json out = json::object();
  if (full.contains("flags") && !full["flags"].empty()) out["flags"] = full["flags"];
  if (full.contains("env") && !full["env"].empty()) out["env"] = full["env"];
  json hw = json::object();
  if (full.contains("hardware"))
    for (auto it = full["hardware"].begin(); it != full["hardware"].end(); ++it)
      if (!default_hardware().contains(it.key()) || default_hardware()[it.key()] != it.value()) hw[it.key()] = it.value();
  if (!hw.empty()) out["hardware"] = hw;
  if (full.value("interactive", false)) out["interactive"] = true;
  return out;
}

json fixture_for(const Finding& f, const std::string& profile, const std::string& impl_label, std::uint64_t seed,
                 const ExpectationSource& src) {
  const json& o = (src.from_impl ? f.other : f.baseline).outcome;
  if (!o.is_object() || !o.contains("status")) return nullptr;
  std::string whose = src.from_impl ? "the outcome of `" + impl_label + "` (origin " + src.origin + ")"
                                    : "the baseline's outcome, not an independent source: review it before committing";
  return {
      {"id", "regressions/differential-" + slug(f.kind, 60)},
      {"title", "differential: " + f.kind},
      {"comment", "Found by `accord differential --impl '" + impl_label + "' --profile " + profile + " --seed " + std::to_string(seed) +
                      "` (case " + std::to_string(f.first_case) + ", " + std::to_string(f.shrink_steps) + " shrinks, " +
                      std::to_string(f.occurrences) + " cases of this kind). The expectation is " + whose + "."},
      {"profiles", {profile}},
      {"origin", src.origin},
      {"given", f.given},
      {"expect", snapshot_expectation(o, f.kind.rfind("plan:/", 0) == 0 ? f.kind.substr(5) : "")},
  };
}

}  // namespace accord::differential
