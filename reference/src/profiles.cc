// profiles.cc: the profile table (tables/profiles.def), each profile's policies (its parent's, then the rows of
// tables/policy_overrides.def) and rule membership from the rules' gates.
#include "accord/reference/profiles.h"

#include <cstddef>
#include <cstdlib>

namespace accord::reference {
namespace {

struct PolicySlot {
  const char* name;
  bool Policy::*member;
  const char* what;
};
constexpr PolicySlot kPolicySlots[] = {
#define ACCORD_POLICY(Type, Name, Root, What) {#Name, &Policy::Name, What},
#include "../tables/policies.def"
};

const PolicySlot* slot(std::string_view name) {
  for (const auto& s : kPolicySlots)
    if (name == s.name) return &s;
  return nullptr;
}

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
  bool Policy::*member;
  bool value;
  const char* reason;
};
const OverrideRow kOverrides[] = {
#define ACCORD_POLICY_OVERRIDE(Prof, Name, Value, Reason) {detail::ProfileRowId::k##Prof, #Name, &Policy::Name, Value, Reason},
#include "../tables/policy_overrides.def"
};

std::deque<ProfileInfo> build() {
  std::deque<ProfileInfo> out;
  // Parents first: a row's policy starts from its parent's, so rows are added once their parent is in.
  std::vector<int> added(sizeof kRows / sizeof kRows[0], -1);
  for (std::size_t done = 0; done < added.size();) {
    std::size_t before = done;
    for (std::size_t i = 0; i < added.size(); ++i) {
      const TableRow& r = kRows[i];
      if (added[i] >= 0 || (r.parent != kNone && added[static_cast<std::size_t>(r.parent)] < 0)) continue;
      ProfileInfo p;
      p.profile = Profile(static_cast<std::uint16_t>(i));
      p.name = r.name;
      if (r.parent != kNone) {
        p.parent = Profile(static_cast<std::uint16_t>(r.parent));
        p.policy = out[static_cast<std::size_t>(added[static_cast<std::size_t>(r.parent)])].policy;
      }
      p.connector = r.connector;
      p.release = r.release;
      p.default_cases = r.default_cases;
      p.inherit_cases = r.inherit_cases;
      p.description = r.description;
      for (const auto& o : kOverrides) {
        if (static_cast<std::size_t>(o.profile) != i) continue;
        p.policy.*o.member = o.value;
        p.overrides.push_back({o.policy, o.value, o.reason});
      }
      added[i] = static_cast<int>(out.size());
      out.push_back(std::move(p));
      ++done;
    }
    if (done == before) std::abort();  // a parent cycle in tables/profiles.def (ProfilesTable.* tests the table)
  }
  // Table order, so that Profile::index is the row's position.
  std::deque<ProfileInfo> ordered;
  for (std::size_t i = 0; i < added.size(); ++i) ordered.push_back(std::move(out[static_cast<std::size_t>(added[i])]));
  return ordered;
}

std::deque<ProfileInfo>& storage() {
  static std::deque<ProfileInfo> rows = build();
  return rows;
}

struct Gate {
  bool Policy::*member;  ///< nullptr: the rule belongs to every profile
  bool value;
  const char* policy;
};
constexpr Gate kRuleGates[] = {
#define ALWAYS {nullptr, false, nullptr}
#define WHEN(P) {&Policy::P, true, #P}
#define UNLESS(P) {&Policy::P, false, #P}
#define ACCORD_RULE(Id, Wire, G, Source) G,
#include "../tables/rules.def"
#undef ALWAYS
#undef WHEN
#undef UNLESS
};

}  // namespace

const std::deque<ProfileInfo>& profiles() { return storage(); }
const ProfileInfo& profile_info(Profile p) { return storage().at(p.index); }
Profile default_profile() { return Profile(0); }
const char* profile_name(Profile p) { return profile_info(p).name.c_str(); }

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

bool rule_in_profile(RuleId r, Profile p) {
  const Gate& g = kRuleGates[static_cast<std::size_t>(r)];
  return !g.member || policy(p).*g.member == g.value;
}

std::optional<RuleGate> rule_gate(RuleId r) {
  const Gate& g = kRuleGates[static_cast<std::size_t>(r)];
  if (!g.member) return std::nullopt;
  return RuleGate{g.policy, g.value};
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

std::optional<bool> policy_value(const Policy& p, std::string_view name) {
  const PolicySlot* s = slot(name);
  if (!s) return std::nullopt;
  return p.*s->member;
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
    p.policy.*s->member = o.value;
  }
  p.overrides = overrides;
  storage().push_back(std::move(p));
  *out = storage().back().profile;
  return true;
}

}  // namespace accord::reference
