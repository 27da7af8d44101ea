// diagnostic.h: diagnostics as data (a code plus fields); text is rendered only at the edge.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace accord::reference {

/// Every diagnostic code, generated from tables/diagnostics.def.
enum class DiagCode {
#define ACCORD_DIAG(Name, Wire, Sev, Kind, Tmpl) k##Name,
#include "../../../tables/diagnostics.def"
};

enum class Severity { kError, kWarning, kDeprecation, kInfo };
/// Value: the flag is malformed or unknown. State: the flag is valid but flags/env/hardware forbid it.
enum class DiagKind { kValue, kState, kNote };

/// One field of a diagnostic: a flag or quantity name and its value as Python would print it.
struct Field {
  std::string key;
  std::string value;
  bool operator==(const Field& o) const { return key == o.key && value == o.value; }
};

/// A diagnostic: a stable code and its fields. Messages come only from render().
struct Diagnostic {
  DiagCode code;
  std::vector<Field> fields;
  /// The class the user constructs, for the message's {connector} (`Trainer`, `Fabric`); not a field, not compared.
  const char* connector = "Trainer";
  bool operator==(const Diagnostic& o) const { return code == o.code && fields == o.fields; }
  /// The value of field `key`, or nullopt.
  std::optional<std::string> field(const std::string& key) const;
};

/// Wire id (`err_flag_conflict`).
const char* wire_id(DiagCode c);
Severity severity(DiagCode c);
DiagKind diag_kind(DiagCode c);
const char* severity_name(Severity s);
/// The message template of the code.
const char* message_template(DiagCode c);
/// The fields a diagnostic of `c` carries: the `{name}` placeholders of its template, in order, each once, without
/// `{connector}` (not a field).
std::vector<std::string> template_fields(DiagCode c);
/// Looks a wire id up; nullopt when unknown.
std::optional<DiagCode> diag_from_wire(const std::string& wire);
/// Number of codes in the catalogue.
int diag_count();
/// The message: the template with every {field} (and {connector}) replaced.
std::string render(const Diagnostic& d);
/// The message in pieces, in order: emit(text) for each run of template text and for each {field}'s value (the first
/// field of that key; `<?>` when there is none; `{connector}` is the connector's name); render() joins them. A writer
/// that escapes the message calls it with no string built in between.
template <typename Emit>
void render_pieces(const Diagnostic& d, Emit&& emit) {
  const std::string_view t = message_template(d.code);
  std::size_t from = 0;
  for (std::size_t open = t.find('{'); open != std::string_view::npos; open = t.find('{', from)) {
    const std::size_t end = t.find('}', open);
    if (end == std::string_view::npos) break;  // a lone '{' is text
    if (open > from) emit(t.substr(from, open - from));
    const std::string_view key = t.substr(open + 1, end - open - 1);
    if (key == "connector") {
      emit(std::string_view(d.connector));
    } else {
      const Field* f = nullptr;
      for (const auto& x : d.fields)
        if (x.key == key) {
          f = &x;
          break;
        }
      emit(f ? std::string_view(f->value) : std::string_view("<?>"));
    }
    from = end + 1;
  }
  if (from < t.size()) emit(t.substr(from));
}
std::ostream& operator<<(std::ostream& os, const Diagnostic& d);

}  // namespace accord::reference
