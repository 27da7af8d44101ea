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
/// One piece of a message template: a run of its text, or a `{name}` placeholder (`text` is the name).
struct MessagePiece {
  std::string_view text;
  bool placeholder = false;
};
/// The template of `c` cut into pieces, once per program: runs of text and placeholders in order, no empty run; a `{`
/// with no `}` after it is text.
const std::vector<MessagePiece>& message_pieces(DiagCode c);
/// The message in pieces, in order: emit(text) for each run of template text and for each {field}'s value (the first
/// field of that key; `<?>` when there is none; `{connector}` is the connector's name); render() joins them. A writer
/// that escapes the message calls it with no string built in between.
template <typename Emit>
void render_pieces(const Diagnostic& d, Emit&& emit) {
  for (const MessagePiece& p : message_pieces(d.code)) {
    if (!p.placeholder) {
      emit(p.text);
    } else if (p.text == "connector") {
      emit(std::string_view(d.connector));
    } else {
      const Field* f = nullptr;
      for (const auto& x : d.fields)
        if (x.key == p.text) {
          f = &x;
          break;
        }
      emit(f ? std::string_view(f->value) : std::string_view("<?>"));
    }
  }
}
std::ostream& operator<<(std::ostream& os, const Diagnostic& d);

}  // namespace accord::reference
