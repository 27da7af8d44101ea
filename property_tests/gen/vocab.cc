// vocab.cc: vocabularies for the generators, drawn from the reference tables and PROTOCOL.md.
#include "vocab.h"

#include <cctype>

#include "accord/reference/flags.h"
#include "accord/reference/json_io.h"

namespace accord::prop {
using nlohmann::json;

ref::PyValue wire_value(const json& j, bool instances) {
  ref::PyValue v;
  std::string error;
  // Every literal in this folder is valid wire JSON; an invalid one is a bug in the vocabulary.
  if (!ref::value_from_json(j, instances, &v, &error, "")) throw std::logic_error("vocab: " + error);
  return v;
}

std::vector<ref::PyValue> wire_values(const json& array, bool instances) {
  std::vector<ref::PyValue> out;
  for (const auto& j : array) out.push_back(wire_value(j, instances));
  return out;
}

const std::vector<std::string>& accelerator_flag_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n = {"auto"};
    for (const auto& r : ref::accelerators())  // the default profile's registry (the generators' vocabulary)
      if (ref::in_profile(r, ref::policy(ref::default_profile()))) n.emplace_back(r.name);
    return n;
  }();
  return names;
}

const std::vector<std::string>& strategy_flag_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& r : ref::strategies())
      if (ref::in_profile(r, ref::policy(ref::default_profile()))) n.emplace_back(r.name);
    return n;
  }();
  return names;
}

const json& precision_spellings() {
  static const json v = [] {
    json a = json::array();
    for (const auto& s : ref::precision_spellings())  // tables/precisions.def: the spellings a 1.6 connector reads
      if (s.normalize || s.whitelist) a.push_back(ref::value_to_json(s.value));
    return a;
  }();
  return v;
}

const json& invalid_precisions() {
  static const json v = json::array({8, 0, "fp16", "half", "BF16", 16.5, true, nullptr, "", json::array({16})});
  return v;
}

const std::vector<std::string>& package_names() {
  static const std::vector<std::string> v = {"deepspeed", "fairscale", "horovod", "apex", "bagua", "poptorch", "habana", "torch_xla"};
  return v;
}

std::vector<std::string> class_names_of(ref::ClassKind kind) {
  std::vector<std::string> out;
  for (const auto& name : ref::class_names(ref::policy(ref::default_profile()))) {
    auto ci = ref::class_by_name(name);
    if (ci && ci->kind == kind) out.push_back(name);
  }
  return out;
}

std::string recase(const std::string& name, unsigned mask) {
  std::string out = name;
  unsigned bit = 0;
  for (char& ch : out) {
    if (!std::isalpha(static_cast<unsigned char>(ch))) continue;
    if (mask & (1u << (bit++ % 32))) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  }
  return out;
}

bool has_upper(const std::string& s) {
  for (char ch : s)
    if (std::isupper(static_cast<unsigned char>(ch))) return true;
  return false;
}

}  // namespace accord::prop
