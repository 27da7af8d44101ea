// diagnostic.cc: the diagnostics catalogue as data, and rendering of messages from templates.
#include "accord/reference/diagnostic.h"

#include <algorithm>
#include <vector>

namespace accord::reference {
namespace {
struct DiagRow { DiagCode code; const char* wire; Severity sev; DiagKind kind; const char* tmpl; };
const std::vector<DiagRow>& diag_rows() {
  static const std::vector<DiagRow> rows = {
#define ACCORD_DIAG(Name, Wire, Sev, Kind, Tmpl) {DiagCode::k##Name, Wire, Severity::k##Sev, DiagKind::k##Kind, Tmpl},
#include "../tables/diagnostics.def"
  };
  return rows;
}
const DiagRow& drow(DiagCode c) { return diag_rows().at(static_cast<size_t>(c)); }
}  // namespace

const char* wire_id(DiagCode c) { return drow(c).wire; }
Severity severity(DiagCode c) { return drow(c).sev; }
DiagKind diag_kind(DiagCode c) { return drow(c).kind; }
const char* message_template(DiagCode c) { return drow(c).tmpl; }
int diag_count() { return static_cast<int>(diag_rows().size()); }

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kDeprecation: return "deprecation";
    case Severity::kInfo: return "info";
  }
  return "error";  // LCOV_EXCL_LINE unreachable: every severity returns above
}

std::optional<DiagCode> diag_from_wire(const std::string& wire) {
  for (const auto& r : diag_rows())
    if (wire == r.wire) return r.code;
  return std::nullopt;
}

std::optional<std::string> Diagnostic::field(const std::string& key) const {
  for (const auto& f : fields)
    if (f.key == key) return f.value;
  return std::nullopt;
}

const std::vector<MessagePiece>& message_pieces(DiagCode c) {
  static const std::vector<std::vector<MessagePiece>> all = [] {
    std::vector<std::vector<MessagePiece>> out;
    for (const auto& r : diag_rows()) {
      auto& pieces = out.emplace_back();
      const std::string_view t = r.tmpl;
      std::size_t from = 0;
      for (std::size_t open = t.find('{'); open != std::string_view::npos; open = t.find('{', from)) {
        const std::size_t end = t.find('}', open);
        if (end == std::string_view::npos) break;  // a lone '{' is text
        if (open > from) pieces.push_back({t.substr(from, open - from), false});
        pieces.push_back({t.substr(open + 1, end - open - 1), true});
        from = end + 1;
      }
      if (from < t.size()) pieces.push_back({t.substr(from), false});
    }
    return out;
  }();
  return all.at(static_cast<std::size_t>(c));
}

std::vector<std::string> template_fields(DiagCode c) {
  std::vector<std::string> out;
  for (const MessagePiece& p : message_pieces(c))
    if (p.placeholder && p.text != "connector" && std::find(out.begin(), out.end(), p.text) == out.end()) out.emplace_back(p.text);
  return out;
}

std::string render(const Diagnostic& d) {
  std::string out;
  render_pieces(d, [&out](std::string_view piece) { out.append(piece.data(), piece.size()); });
  return out;
}

std::ostream& operator<<(std::ostream& os, const Diagnostic& d) {
  os << wire_id(d.code) << "{";
  for (size_t k = 0; k < d.fields.size(); ++k) os << (k ? ", " : "") << d.fields[k].key << "=" << d.fields[k].value;
  return os << "}";
}

}  // namespace accord::reference
