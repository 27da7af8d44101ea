// big_int_json.cc: integers past 64 bits in a nlohmann JSON tree (big_int_json.h).
#include "accord/reference/big_int_json.h"

#include <charconv>
#include <system_error>

namespace accord::reference {
using nlohmann::json;

namespace {

bool holds_big_int(const json& j) {
  switch (j.type()) {
    case json::value_t::binary: return true;
    case json::value_t::object:
    case json::value_t::array:
      for (const auto& x : j)
        if (holds_big_int(x)) return true;
      return false;
    default: return false;
  }
}

void write(const json& j, std::string* out) {
  std::string digits;
  if (big_int_text(j, &digits)) {
    *out += digits;
  } else if (j.is_object()) {
    char sep = '{';
    for (const auto& [k, v] : j.items()) {
      *out += sep;
      *out += json(k).dump();
      *out += ':';
      write(v, out);
      sep = ',';
    }
    *out += j.empty() ? "{}" : "}";
  } else if (j.is_array()) {
    char sep = '[';
    for (const auto& v : j) {
      *out += sep;
      write(v, out);
      sep = ',';
    }
    *out += j.empty() ? "[]" : "]";
  } else {
    *out += j.dump();
  }
}

}  // namespace

bool is_integer_literal(std::string_view text) {
  std::size_t k = !text.empty() && text[0] == '-' ? 1 : 0;
  if (k == text.size() || (text[k] == '0' && text.size() > k + 1)) return false;
  for (; k < text.size(); ++k)
    if (text[k] < '0' || text[k] > '9') return false;
  return true;
}

json integer_json(std::string_view digits) {
  const char* end = digits.data() + digits.size();
  auto whole = [end](std::from_chars_result r) { return r.ec == std::errc() && r.ptr == end; };
  if (std::int64_t i = 0; whole(std::from_chars(digits.data(), end, i))) return i;
  if (std::uint64_t u = 0; whole(std::from_chars(digits.data(), end, u))) return u;
  return json::binary(json::binary_t::container_type(digits.begin(), digits.end()), kBigIntSubtype);
}

bool big_int_text(const json& j, std::string* digits) {
  if (!j.is_binary() || !j.get_binary().has_subtype() || j.get_binary().subtype() != kBigIntSubtype) return false;
  digits->assign(j.get_binary().begin(), j.get_binary().end());
  return true;
}

std::string json_text(const json& j) {
  if (!holds_big_int(j)) return j.dump();
  std::string out;
  write(j, &out);
  return out;
}

std::string value_text(const nlohmann::json& j) { return j.is_string() ? j.get<std::string>() : json_text(j); }

}  // namespace accord::reference
