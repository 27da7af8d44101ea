// domain.h: a bounded input domain for `accord enumerate`: named axes, each a list of case fragments.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "accord/reference/inputs.h"

namespace accord::enumerate {

/// One field of a case an axis sets: a flag, an environment variable, a hardware key, `interactive`.
struct FieldRef {
  enum class Kind { kFlag, kEnv, kHardware, kInteractive };
  Kind kind = Kind::kFlag;
  std::string name;
  bool operator<(const FieldRef& o) const { return kind != o.kind ? kind < o.kind : name < o.name; }
  bool operator==(const FieldRef& o) const { return kind == o.kind && name == o.name; }
};

/// One value of an axis: its label (for tables and diffs) and the case fragment it stands for.
struct AxisValue {
  std::string label;
  nlohmann::json fragment;     ///< wire form: {"flags": {...}, "env": {...}, "hardware": {...}, "interactive": b}
  reference::Case parsed;      ///< the fragment read by reference::case_from_json (defaults elsewhere)
};

/// An axis: its values and the fields it owns (every field any of its values mentions).
struct Axis {
  std::string name;
  std::vector<AxisValue> values;
  std::vector<FieldRef> owned;
};

/// The whole domain: axes in file order (the last axis varies fastest in cell order).
struct Domain {
  nlohmann::json source;  ///< the file as read, kept in tables so diffs can decode cells
  std::vector<Axis> axes;
  /// Number of cells of the full product; saturates at UINT64_MAX.
  std::uint64_t cells() const;
  /// Axis value indices of cell `index` (mixed radix, last axis fastest).
  std::vector<std::uint32_t> decode(std::uint64_t index) const;
  /// `axis=label, ...` for a cell given by its value indices.
  std::string describe(const std::vector<std::uint32_t>& digits) const;
};

/// Reads a domain (format: property_tests/README.md, "Domains"). An axis is
///   {"name": N, "flag"|"hardware"|"env": KEY, "values": [wire values...], "absent": true?}
///   {"name": N, "interactive": true, "values": [false, true]}
///   {"name": N, "presets": [{"label": L, "case": <case fragment>}, ...]}
/// Two axes may not own the same field. False with `error` naming the JSON Pointer and the value.
bool load_domain(const nlohmann::json& j, Domain* out, std::string* error);

/// Sets every field the axis owns to what value `k` says (defaults for fields it leaves out).
void apply(const Axis& axis, std::uint32_t k, reference::Case& c);

}  // namespace accord::enumerate
