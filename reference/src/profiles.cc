// profiles.cc: the profile table (tables/profiles.def), each profile's policies (its parent's, then the rows of
// tables/policy_overrides.def) and rule membership from the rules' gates.
#include "accord/reference/profiles.h"

#include "accord/reference/gate.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdlib>
#include <ostream>

namespace accord::reference {
namespace {

// The values of a policy type, as written in the tables: bool's, then each enum's enumerators.
template <typename T>
struct ValueList;
template <>
struct ValueList<bool> {
  static constexpr const char* names = "false, true";
};
#define ACCORD_POLICY_ENUM(Type, ...) \
  template <>                          \
  struct ValueList<Type> {             \
    static constexpr const char* names = #__VA_ARGS__; \
  };
#include "../tables/policy_enums.def"


struct PolicySlot {
  const char* name;
  const char* what;
  int (*get)(const Policy&);
  void (*set)(Policy&, int);
  const char* values;  ///< ValueList<Type>::names
};
constexpr PolicySlot kPolicySlots[] = {
#define ACCORD_POLICY(Type, Name, Root, What)                                                   \
  {#Name, What, [](const Policy& p) { return static_cast<int>(p.Name); },                       \
   [](Policy& p, int v) { p.Name = static_cast<Type>(v); }, ValueList<Type>::names},
#include "../tables/policies.def"
};

const PolicySlot* slot(std::string_view name) {
  for (const auto& s : kPolicySlots)
    if (name == s.name) return &s;
  return nullptr;
}

/// `kAtRealize` -> `at_realize`; `true` stays `true`.
std::string wire_value(std::string_view v) {
  if (v.size() < 2 || v[0] != 'k' || !std::isupper(static_cast<unsigned char>(v[1]))) return std::string(v);
  std::string out;
  for (std::size_t i = 1; i < v.size(); ++i) {
    char c = v[i];
    if (std::isupper(static_cast<unsigned char>(c))) {
      if (i > 1) out += '_';
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      out += c;
    }
  }
  return out;
}

/// The wire values of a slot, in declaration order (index = the value's int).
std::vector<std::string> values_of(const PolicySlot& s) {
  std::vector<std::string> out;
  std::string_view list = s.values;
  while (!list.empty()) {
    std::size_t comma = list.find(',');
    std::string_view item = list.substr(0, comma);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    out.push_back(wire_value(item));
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
  return out;
}

std::string value_name(const PolicySlot& s, int v) { return values_of(s).at(static_cast<std::size_t>(v)); }

struct TableRow {
  const char* name;
  int parent;  ///< row index, -1 for a root
  Connector connector;
  const char* release;
  bool default_cases, inherit_cases;
  const char* description;
};
constexpr int kNone = -1;
constexpr int parent_row(detail::ProfileRowId id) { return id == detail::ProfileRowId::kNone ? kNone : static_cast<int>(id); }
constexpr TableRow kRows[] = {
#define ACCORD_PROFILE(Id, Wire, Parent, Conn, Release, DefaultCases, InheritCases, Description) \
  {Wire, parent_row(detail::ProfileRowId::k##Parent), Connector::Conn, Release, DefaultCases, InheritCases, Description},
#include "../tables/profiles.def"
};

struct OverrideRow {
  detail::ProfileRowId profile;
  const char* policy;
  int value;
  const char* reason;
};
constexpr OverrideRow kOverrides[] = {
#define ACCORD_POLICY_OVERRIDE(Prof, Name, Value, Reason) \
  {detail::ProfileRowId::k##Prof, #Name, gate_value<decltype(Policy::Name)>(Value), Reason},
#include "../tables/policy_overrides.def"
};

constexpr std::size_t kRowCount = sizeof kRows / sizeof kRows[0];

// The policy of row i: its parent's (the root values for a root), then its own overrides.
Policy row_policy(std::size_t i, std::size_t depth = 0) {
  if (depth > kRowCount) std::abort();  // a parent cycle in tables/profiles.def (ProfilesTable.* tests the table)
  const TableRow& r = kRows[i];
  Policy p = r.parent == kNone ? Policy{} : row_policy(static_cast<std::size_t>(r.parent), depth + 1);
  for (const auto& o : kOverrides)
    if (static_cast<std::size_t>(o.profile) == i) slot(o.policy)->set(p, o.value);  // the macro named the member
  return p;
}

// Table order, so that Profile::index is the row's position.
std::deque<ProfileInfo> build() {
  std::deque<ProfileInfo> out;
  for (std::size_t i = 0; i < kRowCount; ++i) {
    const TableRow& r = kRows[i];
    ProfileInfo p;
    p.profile = Profile(static_cast<std::uint16_t>(i));
    p.name = r.name;
    if (r.parent != kNone) p.parent = Profile(static_cast<std::uint16_t>(r.parent));
    p.connector = r.connector;
    p.release = r.release;
    p.default_cases = r.default_cases;
    p.inherit_cases = r.inherit_cases;
    p.description = r.description;
    p.policy = row_policy(i);
    for (const auto& o : kOverrides)
      if (static_cast<std::size_t>(o.profile) == i) p.overrides.push_back({o.policy, value_name(*slot(o.policy), o.value), o.reason});
    out.push_back(std::move(p));
  }
  return out;
}

std::deque<ProfileInfo>& storage() {
  static std::deque<ProfileInfo> rows = build();
  return rows;
}

constexpr PolicyGate kRuleGates[] = {
#include "gate_macros.h"
#define ACCORD_RULE(Id, Wire, G, Source) G,
#include "../tables/rules.def"
#include "gate_macros_end.h"
};

}  // namespace

const std::deque<ProfileInfo>& profiles() { return storage(); }
const ProfileInfo& profile_info(Profile p) { return storage().at(p.index); }
Profile default_profile() { return Profile(0); }
const char* profile_name(Profile p) { return profile_info(p).name.c_str(); }
std::ostream& operator<<(std::ostream& os, Profile p) { return os << profile_name(p); }

bool parse_profile(std::string_view name, Profile* out) {
  for (const auto& p : storage()) {
    if (p.name != name) continue;
    *out = p.profile;
    return true;
  }
  return false;
}

std::string profile_names(const char* separator) {
  std::string s;
  for (const auto& p : storage()) s += (s.empty() ? "" : separator) + p.name;
  return s;
}

const Policy& policy(Profile p) { return storage()[p.index].policy; }

bool rule_in_profile(RuleId r, Profile p) { return kRuleGates[static_cast<std::size_t>(r)].holds(policy(p)); }

std::optional<RuleGate> rule_gate(RuleId r) {
  const PolicyGate& g = kRuleGates[static_cast<std::size_t>(r)];
  if (!g.policy) return std::nullopt;
  return RuleGate{g.policy, gate_value_names(g.policy, g.values), g.release_get ? gate_value_names("connector_release", g.releases) : ""};
}

std::string gate_value_names(std::string_view policy, unsigned bits) {
  std::string out;
  const auto values = policy_values(policy);
  for (std::size_t v = 0; v < values.size(); ++v)
    if ((bits >> v) & 1u) out += (out.empty() ? "" : "|") + values[v];
  return out;
}

const std::vector<std::string>& policy_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& s : kPolicySlots) v.emplace_back(s.name);
    return v;
  }();
  return names;
}

const char* policy_description(std::string_view name) {
  const PolicySlot* s = slot(name);
  return s ? s->what : nullptr;
}

std::optional<std::string> policy_value(const Policy& p, std::string_view name) {
  const PolicySlot* s = slot(name);
  if (!s) return std::nullopt;
  return value_name(*s, s->get(p));
}

std::vector<std::string> policy_values(std::string_view name) {
  const PolicySlot* s = slot(name);
  return s ? values_of(*s) : std::vector<std::string>{};
}

bool add_profile(const std::string& name, const std::string& parent, Connector connector, const std::string& release,
                 bool default_cases, bool inherit_cases, const std::string& description,
                 const std::vector<PolicyOverride>& overrides, Profile* out, std::string* error) {
  Profile existing, parent_profile;
  if (parse_profile(name, &existing)) {
    *error = "profile '" + name + "' exists already";
    return false;
  }
  if (!parse_profile(parent, &parent_profile)) {
    *error = "profile '" + name + "': unknown parent profile '" + parent + "' (known: " + profile_names() + ")";
    return false;
  }
  ProfileInfo p;
  p.profile = Profile(static_cast<std::uint16_t>(storage().size()));
  p.name = name;
  p.parent = parent_profile;
  p.connector = connector;
  p.release = release;
  p.default_cases = default_cases;
  p.inherit_cases = inherit_cases;
  p.description = description;
  p.policy = policy(parent_profile);
  for (const auto& o : overrides) {
    const PolicySlot* s = slot(o.policy);
    if (!s) {
      *error = "profile '" + name + "': unknown policy '" + o.policy + "'";
      return false;
    }
    std::vector<std::string> values = values_of(*s);
    auto it = std::find(values.begin(), values.end(), o.value);
    if (it == values.end()) {
      std::string allowed;
      for (const auto& v : values) allowed += (allowed.empty() ? "" : ", ") + v;
      *error = "profile '" + name + "': policy '" + o.policy + "' cannot be '" + o.value + "' (one of: " + allowed + ")";
      return false;
    }
    s->set(p.policy, static_cast<int>(it - values.begin()));
  }
  p.overrides = overrides;
  storage().push_back(std::move(p));
  *out = storage().back().profile;
  return true;
}

}  // namespace accord::reference
