// vocab.h: the vocabularies the generators draw from, read from the reference tables where they exist.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "accord/reference/registry.h"
#include "accord/reference/value.h"

namespace accord::prop {

namespace ref = accord::reference;

/// The flag value a JSON literal denotes on the wire (reference::value_from_json): with `instances`,
/// a string naming a known class becomes an instance, as for `accelerator`, `strategy`, `plugins`.
ref::PyValue wire_value(const nlohmann::json& j, bool instances);
/// wire_value() of every element of a JSON array.
std::vector<ref::PyValue> wire_values(const nlohmann::json& array, bool instances);

/// "auto" and every registered accelerator name, in registry order.
const std::vector<std::string>& accelerator_flag_names();
/// Every registered strategy name and alias (reference::strategies()), in table order.
const std::vector<std::string>& strategy_flag_names();
/// Every precision spelling PROTOCOL.md lists (ints and strings), valid in at least one profile.
const nlohmann::json& precision_spellings();
/// Precision values no profile accepts.
const nlohmann::json& invalid_precisions();
/// The optional packages a case may declare installed (fixture schema enum).
const std::vector<std::string>& package_names();
/// Every known class name of one kind (reference::class_names() filtered by kind).
std::vector<std::string> class_names_of(ref::ClassKind kind);

/// `name` with the letters whose bit is set in `mask` upper-cased (bit k = k-th letter).
std::string recase(const std::string& name, unsigned mask);
/// Whether `s` has an upper-case ASCII letter.
bool has_upper(const std::string& s);

}  // namespace accord::prop
