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

/// ALWAYS, WHEN(policy), UNLESS(policy) or IS(policy, Enum::kValue), as written in a table (src/gate_macros.h).
struct PolicyGate {
  const char* policy = nullptr;            ///< the policy's name; nullptr: the row applies in every profile
  int value = 0;                           ///< the value the policy must have (a bool as 0/1, an enum's index)
  int (*get)(const Policy&) = nullptr;     ///< reads the policy's value
  /// Whether the gate holds for a profile's policies.
  bool holds(const Policy& p) const { return !get || get(p) == value; }
};

}  // namespace accord::reference
