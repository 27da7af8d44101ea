// vocab.cc: the flag and precision vocabularies (tables/flags.def, tables/precisions.def) as rows, and the two
// readings of the precision flag that validate.precision-normalize and validate.precision-whitelist apply.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <iterator>

#include "accord/reference/flags.h"

namespace accord::reference {

const char* lacking_name(FlagLacking l) {
  switch (l) {
    case FlagLacking::kUnexpectedKeyword: return "unexpected_keyword";
  }
  return "?";  // LCOV_EXCL_LINE unreachable: every value returns above
}

namespace {

std::string env_name(const char* flag) {
  std::string s = "PL_TRAINER_";
  for (const char* p = flag; *p; ++p) s += static_cast<char>(std::toupper(static_cast<unsigned char>(*p)));
  return s;
}

}  // namespace

const std::vector<FlagRow>& flags() {
  static const std::vector<FlagRow> rows = {
#include "gate_macros.h"
#define ACCORD_FLAG(Name, Instances, PyType, Accepted, Lacking, Description) \
  {#Name, &UserFlags::Name, Instances, PyType, Accepted, FlagLacking::Lacking, Description, env_name(#Name)},
#include "../tables/flags.def"
#include "gate_macros_end.h"
  };
  return rows;
}

namespace {

// The flags' names in table order, as constants.
constexpr std::string_view kFlagNames[] = {
#define ACCORD_FLAG(Name, Instances, PyType, Accepted, Lacking, Description) std::string_view(#Name, sizeof(#Name) - 1),
#include "../tables/flags.def"
};

/// The places of the flags by their name's length, measured once: a name is compared only with the few of its length
/// (at most five), the first letter before the rest.
const std::vector<std::vector<std::uint8_t>>& flags_by_length() {
  static const auto by_length = [] {
    std::vector<std::vector<std::uint8_t>> r;
    for (std::size_t k = 0; k < std::size(kFlagNames); ++k) {
      const std::size_t n = kFlagNames[k].size();
      r.resize(std::max(r.size(), n + 1));
      r.at(n).push_back(static_cast<std::uint8_t>(k));  // at(): were the size above wrong, a throw, not a stray write
    }
    return r;
  }();
  return by_length;
}
static_assert(std::size(kFlagNames) < 256, "a flag's place is a byte");

}  // namespace

int flag_index(std::string_view name) {
  const auto& by_length = flags_by_length();
  const std::size_t n = name.size();
  if (n >= by_length.size()) return -1;  // longer than every flag
  for (const std::uint8_t k : by_length[n])  // none for n == 0: name[0] is read only when n > 0
    if (kFlagNames[k][0] == name[0] && std::memcmp(kFlagNames[k].data(), name.data(), n) == 0) return k;
  return -1;
}

const FlagRow* flag_row(std::string_view name) {
  const int k = flag_index(name);
  return k < 0 ? nullptr : &flags()[static_cast<std::size_t>(k)];
}

bool flag_accepted(const FlagRow& f, Profile p) { return f.gate.holds(policy(p)); }

const char* group_name(PrecisionGroup g) {
  switch (g) {
    case PrecisionGroup::k1x: return "1.x";
    case PrecisionGroup::kAlias: return "2.x alias";
    case PrecisionGroup::kNew: return "2.x new";
  }
  return "?";  // LCOV_EXCL_LINE unreachable: every value returns above
}

const std::vector<PrecisionSpelling>& precision_spellings() {
  using T = PrecisionType;
  using G = PrecisionGroup;
  using Id = PrecisionSpellingId;
  auto value = [](T t, const char* text) { return t == T::kInt ? PyValue::integer(std::stoll(text)) : PyValue::string(text); };
#define TO(Row) std::optional<Id>(Id::k##Row)
#define REJECTED std::optional<Id>()
  static const std::vector<PrecisionSpelling> rows = {
#define ACCORD_PRECISION(Id_, Type, Text, Group, Normalize, Whitelist, Convert22, Description) \
  {Id::k##Id_, T::Type, Text, G::Group, Normalize, Whitelist, Convert22, Description, value(T::Type, Text)},
#include "../tables/precisions.def"
  };
#undef TO
#undef REJECTED
  return rows;
}

const PrecisionSpelling& precision_spelling(PrecisionSpellingId id) {
  return precision_spellings()[static_cast<std::size_t>(id)];
}

namespace {

struct Reading {
  std::string_view text;  ///< compared with a value's text: its length first, no strlen per comparison
  bool is_int;
  PyValue value;
};

// The rows validate.precision-normalize accepts, with the value each normalises to.
const std::vector<Reading>& normalized_readings() {
  static const std::vector<Reading> rows = [] {
    std::vector<Reading> out;
    for (const auto& s : precision_spellings())
      if (s.normalize) out.push_back({s.text, s.type == PrecisionType::kInt, precision_spelling(*s.normalize).value});
    return out;
  }();
  return rows;
}

std::string quoted(const PrecisionSpelling& s) { return s.type == PrecisionType::kInt ? s.text : "'" + std::string(s.text) + "'"; }

}  // namespace

const PyValue* normalized_precision(const PyValue& p) {
  if (p.is_str()) {
    for (const auto& r : normalized_readings())
      if (!r.is_int && std::string_view(p.str) == r.text) return &r.value;
  } else if (p.kind == PyValue::Kind::kInt) {
    char buf[24];
    const std::string_view text(buf, static_cast<std::size_t>(std::to_chars(buf, buf + sizeof buf, p.i).ptr - buf));
    for (const auto& r : normalized_readings())
      if (r.is_int && text == r.text) return &r.value;
  }
  return nullptr;
}

const PyValue* precision_reading(const PrecisionSpelling& s, Profile p) {
  if (policy(p).precision_normalize) return s.normalize ? &precision_spelling(*s.normalize).value : nullptr;
  return s.whitelist ? &s.value : nullptr;
}

const std::string& normalized_precisions_shown() {
  static const std::string shown = [] {
    std::string s;
    auto add = [&s](const PrecisionSpelling& r) { s += (s.empty() ? "(" : ", ") + quoted(r); };
    for (const auto& r : precision_spellings())
      if (r.normalize && r.type == PrecisionType::kInt) add(r);
    for (auto g : {PrecisionGroup::k1x, PrecisionGroup::kAlias, PrecisionGroup::kNew})
      for (const auto& r : precision_spellings())
        if (r.normalize && r.type == PrecisionType::kStr && r.group == g) add(r);
    return s + ")";
  }();
  return shown;
}

namespace {

// The distinct texts of the whitelisted rows, in table order.
const std::vector<std::string>& whitelist() {
  static const std::vector<std::string> texts = [] {
    std::vector<std::string> out;
    for (const auto& r : precision_spellings()) {
      bool seen = false;
      for (const auto& t : out) seen = seen || t == r.text;
      if (r.whitelist && !seen) out.emplace_back(r.text);
    }
    return out;
  }();
  return texts;
}

}  // namespace

bool precision_whitelisted(const std::string& text) {
  for (const auto& t : whitelist())
    if (text == t) return true;
  return false;
}

std::optional<PrecisionReading22> precision_reading22(const PyValue& p) {
  for (const auto& r : precision_spellings()) {
    if (!r.convert22) continue;
    // `precision in supported` (==): a str equals the str rows of its text, a number the int rows of its value.
    bool equal = p.is_str() ? r.type == PrecisionType::kStr && std::string_view(p.str) == r.text
                            : r.type == PrecisionType::kInt && !p.is_str() && py_eq(p, r.value);
    if (!equal) continue;
    if (p.kind == PyValue::Kind::kFloat) {  // str(16.0) is "16.0": no alias
      std::string text = py_str(p);
      return PrecisionReading22{PyValue::string(text), text, false};
    }
    // An int or a str equal to the row prints as the row's text.
    const PrecisionSpelling& to = precision_spelling(*r.convert22);
    const std::string_view text = r.text;
    bool warns = std::string_view(to.text) != text && text.substr(0, 2) != "32" && text.substr(0, 2) != "64";
    return PrecisionReading22{to.value, std::string(text), warns};
  }
  return std::nullopt;
}

const std::string& precisions22_shown() {
  // get_args(_PRECISION_INPUT_STR) + get_args(_PRECISION_INPUT_INT) + get_args(_PRECISION_INPUT_STR_ALIAS): the 2.x
  // names in the order of 2.2.5's Literal (fabric/plugins/precision/precision.py), then 64, 32, 16, then the strings.
  static const std::string shown = [] {
    static const char* const kOrder[] = {"transformer-engine", "transformer-engine-float16", "16-true", "16-mixed", "bf16-true",
                                         "bf16-mixed", "32-true", "64-true", "64", "32", "16", "64", "32", "16", "bf16"};
    static const PrecisionType kTypes[] = {PrecisionType::kStr, PrecisionType::kStr, PrecisionType::kStr, PrecisionType::kStr,
                                           PrecisionType::kStr, PrecisionType::kStr, PrecisionType::kStr, PrecisionType::kStr,
                                           PrecisionType::kInt, PrecisionType::kInt, PrecisionType::kInt, PrecisionType::kStr,
                                           PrecisionType::kStr, PrecisionType::kStr, PrecisionType::kStr};
    std::string s;
    for (size_t k = 0; k < std::size(kOrder); ++k)
      for (const auto& r : precision_spellings())
        if (r.convert22 && r.text == std::string_view(kOrder[k]) && r.type == kTypes[k]) s += (s.empty() ? "(" : ", ") + quoted(r);
    return s + ")";
  }();
  return shown;
}

const std::string& whitelisted_precisions_shown() {
  static const std::string shown = [] {
    std::string s;
    for (const auto& t : whitelist()) s += (s.empty() ? "('" : ", '") + t + "'";
    return s + ")";
  }();
  return shown;
}

}  // namespace accord::reference
