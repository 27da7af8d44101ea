// profiles.h: the profiles the resolver knows (tables/profiles.def), their policies and their rules, as data.
#pragma once

#include <cstdint>
#include <deque>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accord/reference/rules.h"

namespace accord::reference {

/// Which behaviour is being modelled: an index into the profile table. Passed in as a value; what differs between
/// profiles is a policy (tables/policies.def, tables/policy_overrides.def), never a check of the profile itself.
struct Profile {
  std::uint16_t index = 0;
  constexpr Profile() = default;
  constexpr explicit Profile(std::uint16_t i) : index(i) {}
  friend constexpr bool operator==(Profile a, Profile b) { return a.index == b.index; }
  friend constexpr bool operator!=(Profile a, Profile b) { return a.index != b.index; }
  friend constexpr bool operator<(Profile a, Profile b) { return a.index < b.index; }
  /// The rows of tables/profiles.def by Id, for tests (Profile::kSpec); other code names profiles by wire name.
#define ACCORD_PROFILE(Id, Wire, Parent, Connector, Release, DefaultCases, InheritCases, Description) static const Profile k##Id;
#include "../../../tables/profiles.def"
};
namespace detail {
enum class ProfileRowId : std::uint16_t {
#define ACCORD_PROFILE(Id, Wire, Parent, Connector, Release, DefaultCases, InheritCases, Description) k##Id,
#include "../../../tables/profiles.def"
  kNone = 0xFFFF,  ///< the Parent of a root profile
};
}  // namespace detail
#define ACCORD_PROFILE(Id, Wire, Parent, Connector, Release, DefaultCases, InheritCases, Description) \
  inline constexpr Profile Profile::k##Id{static_cast<std::uint16_t>(detail::ProfileRowId::k##Id)};
#include "../../../tables/profiles.def"

/// The value sets of enum policies (tables/policy_enums.def).
#define ACCORD_POLICY_ENUM(Type, ...) enum class Type { __VA_ARGS__ };
#include "../../../tables/policy_enums.def"

/// Profile-dependent behaviour, one member per row of tables/policies.def (each starts at its root value).
struct Policy {
#define ACCORD_POLICY(Type, Name, Root, What) Type Name = Root;
#include "../../../tables/policies.def"
};

/// The connector a profile models.
enum class Connector { kTrainer, kFabric };

/// One policy value a profile sets differently from its parent (a row of tables/policy_overrides.def).
struct PolicyOverride {
  std::string policy;  ///< the policy's name (tables/policies.def)
  std::string value;   ///< its wire value: `true`, `false`, or an enum value in snake case (`at_realize`)
  std::string reason;
};

/// A row of tables/profiles.def, with its parent resolved.
struct ProfileInfo {
  Profile profile;
  std::string name;               ///< wire name (`spec`)
  std::optional<Profile> parent;  ///< nullopt for a root
  Connector connector = Connector::kTrainer;
  std::string release;            ///< the modelled release (`Lightning 1.6.5`)
  bool default_cases = false;     ///< a fixture case listing no `profiles` applies to it
  bool inherit_cases = false;     ///< a case that applies to the parent applies to it too
  std::string description;
  std::vector<PolicyOverride> overrides;  ///< what it changes from its parent, in table order
  Policy policy;                          ///< the parent's policy with the overrides applied
};

/// Every profile, in table order (the first is the default). Stable references: the storage never moves a row.
const std::deque<ProfileInfo>& profiles();
const ProfileInfo& profile_info(Profile p);
Profile default_profile();
/// Wire name of a profile ("spec", "lightning-1.6").
const char* profile_name(Profile p);
/// Writes the wire name (test output, messages).
std::ostream& operator<<(std::ostream& os, Profile p);
/// Parses a wire name; false when unknown.
bool parse_profile(std::string_view name, Profile* out);
/// The profiles' wire names joined with ", " (for help texts and errors: "spec, lightning-1.6").
std::string profile_names(const char* separator = ", ");
/// The policies of a profile.
const Policy& policy(Profile p);
/// Whether rule `r` belongs to profile `p`: its gate (tables/rules.def) holds for the profile's policies.
bool rule_in_profile(RuleId r, Profile p);
/// The policy that gates a rule (tables/rules.def, column Gate) and the wire value it needs; nullopt when the rule
/// belongs to every profile.
struct RuleGate {
  std::string policy;
  std::string value;    ///< `true`, `false` or an enum value (values: joined by `|`)
  std::string release;  ///< the connector_release value the rule also needs (IN_RELEASE); "" none
};
std::optional<RuleGate> rule_gate(RuleId r);
/// The wire values a gate's set holds (PolicyGate::values), joined by "|" (`lightning22|fabric22`).
std::string gate_value_names(std::string_view policy, unsigned bits);
/// The names of every policy of tables/policies.def, in table order.
const std::vector<std::string>& policy_names();
/// A policy's value by name, as its wire value (`true`, `at_realize`); nullopt for an unknown name.
std::optional<std::string> policy_value(const Policy& p, std::string_view name);
/// The wire values a policy can take (`false`, `true` for a bool), in declaration order; empty for an unknown name.
std::vector<std::string> policy_values(std::string_view name);
/// What the policy decides (its row's last column); nullptr for an unknown name.
const char* policy_description(std::string_view name);

/// Adds a profile at run time: a child of `parent` that changes `overrides` (the same data as a row of
/// tables/profiles.def plus its rows of tables/policy_overrides.def; for tests and for users who pin a fork without
/// rebuilding the tables). Call before any resolution runs on another thread. Returns false and sets `error` for an
/// existing name, an unknown parent, an unknown policy or a value the policy cannot take.
bool add_profile(const std::string& name, const std::string& parent, Connector connector, const std::string& release,
                 bool default_cases, bool inherit_cases, const std::string& description,
                 const std::vector<PolicyOverride>& overrides, Profile* out, std::string* error);

}  // namespace accord::reference
