// divergences.cc: the per-implementation list of cases expected to fail (conformance/implementations/).
#include "accord/conformance/json_input.h"
#include "accord/conformance/runner.h"

namespace accord::conformance {

bool load_divergences(const std::string& path, Divergences* out, std::string* error) {
  std::string text, why;
  if (!read_input_file(path, &text, error)) return false;
  nlohmann::json j;
  if (!parse_json(text, &j, &why)) return *error = path + ": not valid JSON: " + why, false;
  if (!j.is_object()) return *error = path + ": /: not a JSON object", false;
  Divergences d;
  d.file = path;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "implementation") {
      if (!it->is_string()) return *error = path + ": /implementation: must be a string, got " + it->dump(), false;
      d.implementation = it->get<std::string>();
    } else if (it.key() == "divergences") {
      if (!it->is_object()) return *error = path + ": /divergences: must be an object of case id -> reason", false;
      for (auto e = it->begin(); e != it->end(); ++e) {
        if (!e->is_string() || e->get<std::string>().empty())
          return *error = path + ": /divergences/" + pointer_token(e.key()) + ": the reason must be a non-empty string, got " +
                          e->dump(), false;
        d.reasons[e.key()] = e->get<std::string>();
      }
    } else if (it.key() != "$schema" && it.key() != "description") {
      return *error = path + ": /" + pointer_token(it.key()) + ": unknown key (expected implementation, divergences)", false;
    }
  }
  *out = std::move(d);
  return true;
}

}  // namespace accord::conformance
