// big_int_json.h: integers past 64 bits in a nlohmann JSON tree, kept as written.
//
// nlohmann holds a number as int64, uint64 or double, so an integer literal past uint64 (or below int64) would
// become a double and lose its digits; Python's json keeps it exactly. accord's readers (the SAX of
// conformance/json_input.h) store such a literal as a binary value of subtype kBigIntSubtype whose bytes are
// its decimal text: JSON text never yields a binary value, so the two cannot be confused. value_from_json reads
// it as a PyValue of kind kBigInt, and json_text() writes a tree as dump() does with these integers as written.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace accord::reference {

inline constexpr std::uint8_t kBigIntSubtype = 0x49;  // 'I'

/// True when `text` is a JSON integer literal (an optional '-', then digits, no leading zero).
bool is_integer_literal(std::string_view text);
/// The integer `digits` (a JSON integer literal) as nlohmann holds it: a number when it fits int64 or uint64,
/// else a binary value of subtype kBigIntSubtype.
nlohmann::json integer_json(std::string_view digits);
/// The decimal text of a big integer held by integer_json (false for any other value).
bool big_int_text(const nlohmann::json& j, std::string* digits);
/// `j.dump()`, except that big integers are written as their digits.
std::string json_text(const nlohmann::json& j);
/// A string's own characters, any other value as json_text writes it (how a message or an id is shown).
std::string value_text(const nlohmann::json& j);

}  // namespace accord::reference
