// output_mutants.cc: the changes of tables/output_mutants.def, one function per row, and the measurement.
#include "accord/conformance/output_mutants.h"

#include <algorithm>
#include <map>

#include "accord/conformance/runner.h"
#include "accord/reference/big_int_json.h"
#include "accord/reference/diagnostic.h"
#include "accord/reference/flags.h"
#include "reporters/common.h"

namespace accord::conformance {
namespace {
using nlohmann::json;

/// The object at `ptr` when it is one (else null): where a class changes a plan.
json* object_at(json& o, const char* ptr) {
  json::json_pointer p(ptr);
  if (!o.contains(p) || !o.at(p).is_object()) return nullptr;
  return &o.at(p);
}

/// A string member, or null.
json* string_member(json* obj, const char* key) {
  if (!obj || !obj->contains(key) || !(*obj)[key].is_string()) return nullptr;
  return &(*obj)[key];
}

std::string lookup(const std::map<std::string, std::string>& table, const std::string& key, const std::string& otherwise) {
  auto it = table.find(key);
  return it == table.end() ? otherwise : it->second;
}

void change_StrategySibling(json& o) {
  json* s = object_at(o, "/plan/strategy");
  json* name = string_member(s, "name");
  if (!name) return;
  static const std::map<std::string, std::string> sibling = {
      {"ddp", "ddp_spawn"},
      {"ddp_spawn", "ddp"},
      {"ddp_fork", "ddp_spawn"},
      {"ddp_notebook", "ddp_spawn"},
      {"ddp_sharded", "ddp_sharded_spawn"},
      {"ddp_sharded_spawn", "ddp_sharded"},
      {"deepspeed_stage_2", "deepspeed_stage_2_offload"},
      {"deepspeed_stage_2_offload", "deepspeed_stage_2"},
      {"deepspeed_stage_3", "deepspeed_stage_3_offload"},
      {"deepspeed_stage_3_offload", "deepspeed_stage_3"},
  };
  const std::string was = *name;
  const std::string now = lookup(sibling, was, "ddp");
  *name = now;
  if (json* family = string_member(s, "family"); family && *family == was) *family = now;
}

void change_PrecisionChanged(json& o) {
  json* value = string_member(object_at(o, "/plan/precision"), "value");
  if (!value) return;
  static const std::map<std::string, std::string> other = {
      {"32", "16"},           {"16", "32"},           {"bf16", "32"},          {"64", "32"},
      {"16-mixed", "bf16-mixed"}, {"bf16-mixed", "16-mixed"}, {"32-true", "16-mixed"}, {"16-true", "bf16-true"},
      {"bf16-true", "16-true"},   {"64-true", "32-true"},
  };
  *value = lookup(other, *value, "32");
}

void change_AcceleratorSwapped(json& o) {
  json* acc = string_member(object_at(o, "/plan"), "accelerator");
  if (acc) *acc = *acc == "cpu" ? "gpu" : "cpu";
}

/// One more in an integer member, when there is one.
void one_more(json* obj, const char* key) {
  if (obj && obj->contains(key) && (*obj)[key].is_number_integer()) (*obj)[key] = (*obj)[key].get<long long>() + 1;
}

void change_ProcessesOffByOne(json& o) { one_more(object_at(o, "/plan"), "num_processes"); }

void change_RootDeviceMoved(json& o) {
  json* root = string_member(object_at(o, "/plan/strategy"), "root_device");
  if (!root) return;
  std::string text = *root;
  std::size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon + 1 == text.size() ||
      text.find_first_not_of("0123456789", colon + 1) != std::string::npos || text.size() - colon > 9)
    return;
  *root = text.substr(0, colon + 1) + std::to_string(std::stol(text.substr(colon + 1)) + 1);
}

void change_RankOffByOne(json& o) { one_more(object_at(o, "/plan/cluster_environment"), "global_rank"); }

void change_ClusterEnvSwapped(json& o) {
  json* cls = string_member(object_at(o, "/plan/cluster_environment"), "class");
  if (cls) *cls = *cls == "LightningEnvironment" ? "SLURMEnvironment" : "LightningEnvironment";
}

void change_LauncherDropped(json& o) {
  json* plan = object_at(o, "/plan");
  if (plan && plan->contains("launcher") && !(*plan)["launcher"].is_null()) (*plan)["launcher"] = nullptr;
}

void change_DiagnosticDropped(json& o) {
  if (o.contains("diagnostics") && o["diagnostics"].is_array() && !o["diagnostics"].empty()) o["diagnostics"].erase(0);
}

/// The first live code of the catalogue with severity `s` that is not `unless` and not among the outcome's codes.
std::string first_code(reference::Severity s, const json& o, const std::string& unless) {
  std::vector<std::string> present;
  if (o.contains("diagnostics") && o["diagnostics"].is_array())
    for (const auto& d : o["diagnostics"])
      if (d.is_object() && d.contains("code") && d["code"].is_string()) present.push_back(d["code"]);
  for (int k = 0; k < reference::diag_count(); ++k) {
    auto c = static_cast<reference::DiagCode>(k);
    std::string wire = reference::wire_id(c);
    if (reference::severity(c) != s || std::string(reference::message_template(c)) == "retired" || wire == unless) continue;
    if (std::find(present.begin(), present.end(), wire) == present.end()) return wire;
  }
  return "";  // LCOV_EXCL_LINE the catalogue has more codes of each severity than any outcome carries
}

void change_SpuriousWarning(json& o) {
  if (o.value("status", "") != "ok" || !o.contains("diagnostics") || !o["diagnostics"].is_array()) return;
  std::string code = first_code(reference::Severity::kWarning, o, "");
  o["diagnostics"].push_back({{"code", code}, {"severity", "warning"}, {"message", "a warning no rule gives"}, {"fields", json::object()}});
}

void change_ErrorCodeSwapped(json& o) {
  json* code = string_member(object_at(o, "/error"), "code");
  if (code) *code = first_code(reference::Severity::kError, o, *code);
}

void change_ErrorFieldDropped(json& o) {
  json* fields = object_at(o, "/error/fields");
  if (!fields) return;
  for (auto it = fields->begin(); it != fields->end(); ++it)
    if (reference::flag_row(it.key())) {  // a flag the user passed, not a context field (allowed values, classes)
      fields->erase(it);
      return;
    }
}

/// A row of the table: its wire id, what it answers, and the change (the function named after the row).
struct Row {
  const char* wire;
  const char* meaning;
  void (*change)(json& outcome);
};

const std::vector<Row>& rows() {
  static const std::vector<Row> r = {
#define ACCORD_OUTPUT_MUTANT(Name, Wire, What) {Wire, What, &change_##Name},
#include "../tables/output_mutants.def"
  };
  return r;
}

}  // namespace

const std::vector<OutputMutant>& output_mutants() {
  static const std::vector<OutputMutant> all = [] {
    std::vector<OutputMutant> out;
    for (std::size_t k = 0; k < rows().size(); ++k) out.push_back(static_cast<OutputMutant>(k));
    return out;
  }();
  return all;
}

const char* output_mutant_name(OutputMutant m) { return rows()[static_cast<std::size_t>(m)].wire; }
const char* output_mutant_meaning(OutputMutant m) { return rows()[static_cast<std::size_t>(m)].meaning; }

std::optional<OutputMutant> parse_output_mutant(const std::string& wire) {
  for (std::size_t k = 0; k < rows().size(); ++k)
    if (wire == rows()[k].wire) return static_cast<OutputMutant>(k);
  return std::nullopt;
}

json mutate_outcome(OutputMutant m, const json& outcome) {
  json o = outcome;
  if (!o.is_object()) return o;
  rows()[static_cast<std::size_t>(m)].change(o);
  return o;
}

bool check_output_mutant_floors(const OutputMutantReport& r, const json& floors, std::vector<std::string>* shortfalls,
                                std::string* error) {
  if (!floors.is_object() || !floors.contains("floors") || !floors["floors"].is_object())
    return *error = "/floors: expected an object of classes", false;
  for (const auto& [cls, per_profile] : floors["floors"].items()) {
    auto m = parse_output_mutant(cls);
    if (!m || !per_profile.is_object()) return *error = "/floors/" + cls + ": unknown class or not an object", false;
    for (const auto& [profile, floor] : per_profile.items()) {
      if (!floor.is_number()) return *error = "/floors/" + cls + "/" + profile + ": not a number", false;
      for (const auto& t : r.tallies)
        if (t.mutant == *m && t.profile == profile && t.share() * 100 + 1e-9 < floor.get<double>())
          shortfalls->push_back(cls + " on " + profile + ": caught " + std::to_string(t.caught) + " of " + std::to_string(t.changed) +
                                " (" + detail::percent(t.caught, t.changed) + "), below the floor " + reference::json_text(floor) + "%");
    }
  }
  return true;
}

OutputMutantReport measure_output_mutants(const std::vector<Fixture>& fixtures, Adapter& impl,
                                          const std::vector<std::string>& profiles) {
  OutputMutantReport report;
  report.implementation = impl.info().name;
  const bool trace = impl.info().capabilities.count("trace") > 0;
  const Divergences none;
  for (const auto& m : output_mutants())
    for (const auto& p : profiles) report.tallies.push_back({m, p, 0, 0, {}});
  for (std::size_t pi = 0; pi < profiles.size(); ++pi) {
    const std::string& profile = profiles[pi];
    OutputMutantBase base{profile, 0, 0, {}};
    RunOptions o;
    o.profile = profile;
    for (const Fixture* f : select_cases(fixtures, o)) {
      if (!missing_capabilities(*f, impl.info()).empty()) continue;
      ++base.cases;
      AdapterResult ar = impl.resolve(f->id, profile, f->given);
      if (ar.status != ResultStatus::kOk || judge(*f, profile, ar, none, trace).verdict != Verdict::kPassed) {
        ++base.not_passing;
        base.not_passing_ids.push_back(f->id);
        continue;
      }
      for (std::size_t mi = 0; mi < output_mutants().size(); ++mi) {
        json changed = mutate_outcome(output_mutants()[mi], ar.outcome);
        if (changed == ar.outcome) continue;
        OutputMutantTally& t = report.tallies[mi * profiles.size() + pi];
        ++t.changed;
        AdapterResult wrong{ResultStatus::kOk, std::move(changed), ""};
        if (judge(*f, profile, wrong, none, trace).verdict == Verdict::kPassed)
          t.missed.push_back(f->id);
        else
          ++t.caught;
      }
    }
    report.bases.push_back(std::move(base));
  }
  return report;
}

}  // namespace accord::conformance
