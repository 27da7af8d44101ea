// flags.h: the vocabularies of the inputs as data: the connector flags (tables/flags.def) and the precision
// spellings (tables/precisions.def). Every list of flags or spellings outside reference/ reads these rows.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "accord/reference/gate.h"
#include "accord/reference/inputs.h"
#include "accord/reference/profiles.h"

namespace accord::reference {

/// What a profile that does not accept a flag does when it is passed (tables/flags.def, column Lacking).
enum class FlagLacking { kUnexpectedKeyword };
/// Stable name of a FlagLacking ("unexpected_keyword").
const char* lacking_name(FlagLacking l);

/// A row of tables/flags.def.
struct FlagRow {
  const char* name;            ///< wire key, UserFlags member
  PyValue UserFlags::*member;  ///< the member of UserFlags
  bool instances;              ///< strings naming a known class are read as instances
  const char* py_type;         ///< the keyword's annotation in the release's Trainer.__init__
  PolicyGate gate;             ///< the profiles that accept it (ALWAYS: every profile)
  FlagLacking lacking;         ///< what a profile outside the gate does with it
  const char* description;
  std::string env;             ///< the environment default: PL_TRAINER_<NAME>
};
/// Every flag, in table (= wire) order.
const std::vector<FlagRow>& flags();
/// The row of the flag called `name`; null when no flag has that name.
const FlagRow* flag_row(std::string_view name);
/// The place of the flag called `name` in tables/flags.def (its row of flags()); -1 when no flag has that name. It
/// reads the names as constants and their places by length, without the rows (a reader asks for each flag of each
/// line).
int flag_index(std::string_view name);
/// Whether profile `p` accepts the flag (its gate holds for the profile's policies).
bool flag_accepted(const FlagRow& f, Profile p);

/// tables/precisions.def.
enum class PrecisionSpellingId {
#define ACCORD_PRECISION(Id, Type, Text, Group, Normalize, Whitelist, Convert22, Description) k##Id,
#include "../../../tables/precisions.def"
};
enum class PrecisionType { kInt, kStr };
/// k1x: a Lightning 1.x spelling; kAlias: a 2.x name of a 1.x precision; kNew: a 2.x precision 1.x lacks.
enum class PrecisionGroup { k1x, kAlias, kNew };
const char* group_name(PrecisionGroup g);  // "1.x", "2.x alias", "2.x new"

/// A row of tables/precisions.def.
struct PrecisionSpelling {
  PrecisionSpellingId id;
  PrecisionType type;
  const char* text;                              ///< str() of the value
  PrecisionGroup group;
  std::optional<PrecisionSpellingId> normalize;  ///< the row it normalises to under precision_normalize; nullopt: rejected
  bool whitelist;                                ///< accepted by the str() whitelist (policy precision_normalize off)
  std::optional<PrecisionSpellingId> convert22;  ///< the row whose 2.x name 2.2.5 converts it to; nullopt: rejected
  const char* description;
  PyValue value;                                 ///< the Python value (int or str)
};
/// Every spelling, in table order.
const std::vector<PrecisionSpelling>& precision_spellings();
const PrecisionSpelling& precision_spelling(PrecisionSpellingId id);
/// What profile `p` reads a spelling as: its normalised value where policy precision_normalize holds, itself where
/// the whitelist accepts it; null for err_precision_invalid.
const PyValue* precision_reading(const PrecisionSpelling& s, Profile p);
/// Under precision_normalize: the value `p` normalises to; null when no row accepts it.
const PyValue* normalized_precision(const PyValue& p);
/// The accepted spellings as err_precision_invalid's `allowed` shows them under precision_normalize.
const std::string& normalized_precisions_shown();
/// What the 2.2.5 connector makes of a precision flag (tables/precisions.def, column Convert22).
struct PrecisionReading22 {
  PyValue value;     ///< the 2.x string it becomes ("16-mixed"), or str() of a float equal to an accepted int ("16.0")
  std::string text;  ///< str() of the flag, as the alias warning prints it
  bool warns;        ///< a legacy alias that does not start with 32 or 64 (warn_precision_alias)
};
/// nullopt: err_precision_invalid.
std::optional<PrecisionReading22> precision_reading22(const PyValue& p);
/// The accepted values as 2.2.5's err_precision_invalid lists them (the 2.x names, the ints, the legacy strings).
const std::string& precisions22_shown();
/// Whether str() of a precision, `text`, is in the whitelist (precision_normalize off).
bool precision_whitelisted(const std::string& text);
/// The whitelist as err_precision_invalid's `allowed` shows it.
const std::string& whitelisted_precisions_shown();

}  // namespace accord::reference
