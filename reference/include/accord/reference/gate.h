// gate.h: the policy condition under which a table row applies: a rule can fire (tables/rules.def, column Gate), a
// class exists (tables/precision_plugins.def, column Gate). One mechanism for every table.
#pragma once

namespace accord::reference {

struct Policy;

/// A value of policy type T as the int a gate compares; a value of another type does not convert (a typo in a table
/// is a compile error).
template <typename T>
constexpr int gate_value(T v) {
  return static_cast<int>(v);
}

/// ALWAYS, WHEN(policy), UNLESS(policy), IS(policy, Enum::kValue) or RELEASE(Release), as written in a table
/// (src/gate_macros.h); IN_RELEASE(Release, gate) adds a second condition, the connector release, to a policy gate.
struct PolicyGate {
  const char* policy = nullptr;            ///< the policy's name; nullptr: the row applies in every profile
  int value = 0;                           ///< the value the policy must have (a bool as 0/1, an enum's index)
  int (*get)(const Policy&) = nullptr;     ///< reads the policy's value
  int release = 0;                         ///< with release_get: the connector_release value the row also needs
  int (*release_get)(const Policy&) = nullptr;  ///< reads connector_release; nullptr: no second condition
  /// Whether the gate holds for a profile's policies.
  bool holds(const Policy& p) const { return (!get || get(p) == value) && (!release_get || release_get(p) == release); }
};

/// `gate` within the rows of one connector release (`in`, a RELEASE gate): both must hold.
constexpr PolicyGate in_release(PolicyGate in, PolicyGate gate) {
  gate.release = in.value;
  gate.release_get = in.get;
  return gate;
}

}  // namespace accord::reference
