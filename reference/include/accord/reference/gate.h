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

/// ALWAYS, WHEN(policy), UNLESS(policy), IS(policy, Enum::kValue) or RELEASE(Release, ...), as written in a table
/// (src/gate_macros.h); IN_RELEASE(Release, gate) adds a second condition, the connector release, to a policy gate.
/// A gate holds for a set of values: RELEASE(Lightning22, Fabric22) for the rows two connectors of one release share.
struct PolicyGate {
  const char* policy = nullptr;            ///< the policy's name; nullptr: the row applies in every profile
  unsigned values = 0;                     ///< bit v set: the policy's value v (a bool as 0/1, an enum's index) holds
  int (*get)(const Policy&) = nullptr;     ///< reads the policy's value
  unsigned releases = 0;                   ///< with release_get: the connector_release values the row also needs
  int (*release_get)(const Policy&) = nullptr;  ///< reads connector_release; nullptr: no second condition
  /// Whether the gate holds for a profile's policies.
  bool holds(const Policy& p) const {
    return (!get || ((values >> get(p)) & 1u)) && (!release_get || ((releases >> release_get(p)) & 1u));
  }
};

/// The bit of one policy value in a gate's set.
template <typename T>
constexpr unsigned gate_bit(T v) {
  return 1u << gate_value(v);
}

/// `gate` within the rows of some connector releases (`in`, a RELEASE gate): both must hold.
constexpr PolicyGate in_release(PolicyGate in, PolicyGate gate) {
  gate.releases = in.values;
  gate.release_get = in.get;
  return gate;
}

}  // namespace accord::reference
