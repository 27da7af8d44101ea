// fixture_json.cc: reads schema-valid fixture JSON into Fixture / Expectation.
#include <algorithm>

#include "accord/conformance/fixture.h"
#include "accord/reference/profiles.h"

namespace accord::conformance {
namespace {
using nlohmann::json;

std::vector<std::string> strings(const json& j, const char* key) {
  std::vector<std::string> out;
  auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return out;
  for (const auto& s : *it)
    if (s.is_string()) out.push_back(s.get<std::string>());
  return out;
}

std::string string_at(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

struct Problem {
  std::string pointer;
  std::string message;
};

bool read_error(const json& j, const std::string& ptr, ErrorExpectation* e, Problem* p) {
  e->code = string_at(j, "code");
  e->fields = strings(j, "fields");
  if (auto fv = j.find("field_values"); fv != j.end() && fv->is_object())
    for (auto it = fv->begin(); it != fv->end(); ++it)
      if (it->is_string()) e->field_values[it.key()] = it->get<std::string>();
  e->message_regex = string_at(j, "message_regex");
  if (e->message_regex.empty()) return true;
  try {
    e->message_re = std::make_shared<const std::regex>(e->message_regex, std::regex::ECMAScript);
  } catch (const std::regex_error& x) {
    *p = {ptr + "/message_regex", "not a valid ECMAScript regex (" + std::string(x.what()) + "): \"" +
                                      e->message_regex + "\""};
    return false;
  }
  return true;
}

bool read_expectation(const json& j, const std::string& ptr, Expectation* e, Problem* p) {
  e->pointer = ptr;
  if (!j.is_object()) {
    *p = {ptr, "an expectation must be an object"};
    return false;
  }
  if (auto it = j.find("plan"); it != j.end()) {
    e->kind = ExpectationKind::kPlan;
    e->plan = *it;
  } else if (auto er = j.find("error"); er != j.end()) {
    e->kind = ExpectationKind::kError;
    if (!read_error(*er, ptr + "/error", &e->error, p)) return false;
  } else if (auto any = j.find("any_of"); any != j.end() && any->is_array()) {
    e->kind = ExpectationKind::kAnyOf;
    e->any_of_reason = string_at(j, "any_of_reason");
    for (std::size_t i = 0; i < any->size(); ++i) {
      Expectation alt;
      if (!read_expectation((*any)[i], ptr + "/any_of/" + std::to_string(i), &alt, p)) return false;
      e->any_of.push_back(std::move(alt));
    }
  } else {
    *p = {ptr, "an expectation needs one of plan, error, any_of"};
    return false;
  }
  e->diagnostics = strings(j, "diagnostics");
  e->diagnostics_absent = strings(j, "diagnostics_absent");
  e->trace_includes = strings(j, "trace_includes");
  auto ex = j.find("diagnostics_exact");
  e->diagnostics_exact = ex != j.end() && ex->is_boolean() && ex->get<bool>();
  return true;
}

bool read_expectation_map(const json& j, const char* key, const std::string& ptr,
                          std::map<std::string, Expectation>* out, Problem* p) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_object()) return true;
  for (auto e = it->begin(); e != it->end(); ++e) {
    Expectation x;
    if (!read_expectation(e.value(), ptr + "/" + key + "/" + pointer_token(e.key()), &x, p)) return false;
    (*out)[e.key()] = std::move(x);
  }
  return true;
}

}  // namespace

std::string pointer_token(const std::string& token) {
  std::string out;
  out.reserve(token.size());
  for (char c : token) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

namespace {
bool contains(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }
}  // namespace

// The profile chain of a case: the profile itself, then while the profile inherits cases, its parent. The case applies
// where a link of the chain takes it directly (listed, or a default case); a profile the loader does not know is only
// matched by name.
bool Fixture::applies_to(const std::string& profile) const { return case_applies(profiles, profiles_except, profile); }

bool case_applies(const std::vector<std::string>& profiles, const std::vector<std::string>& profiles_except,
                  const std::string& profile) {
  reference::Profile p;
  if (!reference::parse_profile(profile, &p)) return contains(profiles, profile);
  for (;;) {
    const reference::ProfileInfo& info = reference::profile_info(p);
    if (profiles.empty() ? info.default_cases : contains(profiles, info.name)) return true;
    if (!info.inherit_cases || !info.parent || contains(profiles_except, info.name)) return false;
    p = *info.parent;
  }
}

const Expectation* Fixture::expectation_for(const std::string& profile) const {
  reference::Profile p;
  bool known = reference::parse_profile(profile, &p);
  for (std::string name = profile;;) {
    if (auto it = expect_by_profile.find(name); it != expect_by_profile.end()) return &it->second;
    if (!known) break;
    const reference::ProfileInfo& info = reference::profile_info(p);
    if (profiles.empty() ? info.default_cases : contains(profiles, info.name)) break;
    if (!info.inherit_cases || !info.parent) break;
    p = *info.parent;
    name = reference::profile_name(p);
  }
  return has_expect ? &expect : nullptr;
}

bool fixture_from_json(const json& j, const std::string& file, const std::string& case_pointer, Fixture* out,
                       std::string* pointer, std::string* message) {
  Fixture f;
  f.file = file;
  f.pointer = case_pointer;
  f.id = string_at(j, "id");
  f.title = string_at(j, "title");
  f.origin = string_at(j, "origin");
  f.covers = strings(j, "covers");
  f.requires_ = strings(j, "requires");
  f.profiles = strings(j, "profiles");
  f.profiles_except = strings(j, "profiles_except");
  if (auto g = j.find("given"); g != j.end()) f.given = *g;
  Problem p;
  bool ok = true;
  if (auto e = j.find("expect"); e != j.end()) {
    f.has_expect = true;
    ok = read_expectation(*e, case_pointer + "/expect", &f.expect, &p);
  }
  ok = ok && read_expectation_map(j, "expect_by_profile", case_pointer, &f.expect_by_profile, &p);
  ok = ok && read_expectation_map(j, "expect_live", case_pointer, &f.expect_live, &p);
  if (!ok) {
    *pointer = p.pointer;
    *message = p.message;
    return false;
  }
  *out = std::move(f);
  return true;
}

}  // namespace accord::conformance
