// prop_util.cc: outcome views shared by the properties.
#include "prop_util.h"

#include <algorithm>
#include <cctype>

namespace accord::prop {
using nlohmann::json;

json without_trace(const reference::Outcome& o) {
  json j = reference::outcome_to_json(o);
  j.erase("trace");
  return j;
}

json result_only(const reference::Outcome& o) {
  json j = without_trace(o);
  j.erase("diagnostics");
  return j;
}

std::vector<std::string> note_codes(const reference::Outcome& o) {
  std::vector<std::string> out;
  for (const auto& n : o.notes) out.push_back(reference::wire_id(n.code));
  std::sort(out.begin(), out.end());
  return out;
}

std::string outcome_tag(const reference::Outcome& o) {
  if (!o.ok()) return reference::wire_id(o.error().code);
  return std::string(o.plan().accelerator) + "/" + std::string(o.plan().strategy.name);
}

json plan_core(const reference::Plan& p) {
  return {{"accelerator", p.accelerator}, {"strategy", p.strategy.name}, {"devices", reference::value_to_json(p.devices)},
          {"precision", p.precision.value}, {"num_nodes", p.num_nodes}};
}

std::vector<reference::Profile> all_profiles() {
  std::vector<reference::Profile> out;
  for (const auto& p : reference::profiles()) out.push_back(p.profile);
  return out;
}

std::string profile_param_name(const ::testing::TestParamInfo<reference::Profile>& info) {
  std::string name = reference::profile_name(info.param);
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

}  // namespace accord::prop
