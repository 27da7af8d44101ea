// outcome_class.cc: plan signatures for decision tables, from in-process outcomes and from wire JSON.
#include "enumerate/outcome_class.h"

#include <cstdio>
#include <string_view>
#include <nlohmann/json.hpp>

namespace accord::enumerate {
namespace {

void append_env(std::string_view cls, std::string* out) {
  constexpr std::string_view kSuffix = "Environment";
  bool suffixed = cls.size() > kSuffix.size() && cls.substr(cls.size() - kSuffix.size()) == kSuffix;
  out->append(cls.substr(0, suffixed ? cls.size() - kSuffix.size() : cls.size()));
}

void append_count(long long devices, long long nodes, std::string* out) {
  char buf[48];
  int n = nodes == 1 ? std::snprintf(buf, sizeof buf, "%lld", devices) : std::snprintf(buf, sizeof buf, "%lldx%lld", devices, nodes);
  out->append(buf, static_cast<std::size_t>(n));
}

}  // namespace

void outcome_class(const reference::Outcome& o, std::string* out) {
  out->clear();
  if (!o.ok()) {
    out->append(reference::wire_id(o.error().code));
    return;
  }
  const auto& p = o.plan();
  out->append(p.strategy.name).push_back('|');
  out->append(p.accelerator).push_back('|');
  append_count(static_cast<long long>(p.parallel_devices.size()), p.num_nodes, out);
  out->push_back('|');
  out->append(p.precision.value).push_back('|');
  append_env(p.cluster_environment.cls, out);
}

std::string outcome_class(const nlohmann::json& o) {
  auto str = [](const nlohmann::json& j, const char* k) {
    return j.is_object() && j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : std::string("?");
  };
  if (!o.is_object()) return "!invalid";
  if (o.value("status", "") == "error" && o.contains("error")) return str(o["error"], "code");
  if (o.value("status", "") != "ok" || !o.contains("plan") || !o["plan"].is_object()) return "!invalid";
  const auto& p = o["plan"];
  std::string out = str(p.value("strategy", nlohmann::json::object()), "name") + "|" + str(p, "accelerator") + "|";
  long long devices = p.contains("parallel_devices") && p["parallel_devices"].is_array() ? static_cast<long long>(p["parallel_devices"].size()) : -1;
  long long nodes = p.contains("num_nodes") && p["num_nodes"].is_number_integer() ? p["num_nodes"].get<long long>() : 1;
  append_count(devices, nodes, &out);
  out += "|" + str(p.value("precision", nlohmann::json::object()), "value") + "|";
  append_env(str(p.value("cluster_environment", nlohmann::json::object()), "class"), &out);
  return out;
}

}  // namespace accord::enumerate
