// json_io.h: the wire form of cases and outcomes (conformance/PROTOCOL.md), both directions.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "accord/reference/inputs.h"
#include "accord/reference/plan.h"

namespace accord::reference {

/// Reads a case (`{"flags":..., "env":..., "hardware":..., "interactive":...}`). On bad input returns
/// false and sets `error` to a message naming the JSON Pointer and the bad value; never throws.
bool case_from_json(const nlohmann::json& j, Case* out, std::string* error);
/// Writes a case back (absent flags omitted); case_from_json(case_to_json(c)) == c.
nlohmann::json case_to_json(const Case& c);
/// The outcome as PROTOCOL.md describes it (status, plan or error, diagnostics, trace).
nlohmann::json outcome_to_json(const Outcome& o);
/// A flag value; strings naming a known class become instances when `instances` is true.
bool value_from_json(const nlohmann::json& j, bool instances, PyValue* out, std::string* error, const std::string& pointer);
nlohmann::json value_to_json(const PyValue& v);
/// The names of the flags, in wire order.
const std::vector<std::string>& flag_names();
/// The flag called `name` in `flags` (its index in flag_names() in `*index`, and whether strings naming a class
/// are read as instances in `*instances`); null when no flag has that name. Every case reader uses it.
PyValue* flag_slot(UserFlags& flags, std::string_view name, int* index, bool* instances);
/// The true/false hardware fact called `key` (`mps`, `fork`, ...; its row, 0-6, in `*index`); null for other keys.
bool* hardware_switch(HardwareFacts& hw, std::string_view key, int* index);

}  // namespace accord::reference
