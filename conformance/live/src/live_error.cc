// live_error.cc: wire ids and message rendering for live_codes.def.
#include "live_error.h"

#include <array>

namespace accord::conformance::live {
namespace {

struct CodeRow {
  std::string_view wire;
  std::string_view tmpl;
};

constexpr std::array kRows = {
#define ACCORD_LIVE_CODE(Name, Wire, Tmpl) CodeRow{Wire, Tmpl},
#include "live_codes.def"
};

const CodeRow& row(LiveCode code) { return kRows.at(static_cast<std::size_t>(code)); }

}  // namespace

std::string_view wire_id(LiveCode code) { return row(code).wire; }

std::string render(const LiveError& error) {
  const std::string_view tmpl = row(error.code).tmpl;
  std::string out;
  std::size_t i = 0;
  while (i < tmpl.size()) {
    const std::size_t open = tmpl.find('{', i);
    const std::size_t close = open == std::string_view::npos ? open : tmpl.find('}', open);
    if (close == std::string_view::npos) {
      out.append(tmpl.substr(i));
      break;
    }
    out.append(tmpl.substr(i, open - i));
    const std::string_view key = tmpl.substr(open + 1, close - open - 1);
    bool found = false;
    for (const auto& [k, v] : error.fields) {
      if (k == key) {
        out.append(v);
        found = true;
        break;
      }
    }
    if (!found) out.append(tmpl.substr(open, close - open + 1));
    i = close + 1;
  }
  return out;
}

nlohmann::json to_json(const LiveError& error) {
  nlohmann::json fields = nlohmann::json::object();
  for (const auto& [k, v] : error.fields) fields[k] = v;
  return {{"code", std::string(wire_id(error.code))}, {"fields", fields}, {"message", render(error)}};
}

LiveError error_from_json(const nlohmann::json& error) {
  LiveError out{LiveCode::kInternal, {{"detail", error.dump()}}};
  if (!error.is_object() || !error.contains("code") || !error["code"].is_string()) return out;
  for (std::size_t i = 0; i < kRows.size(); ++i) {
    if (kRows[i].wire != error["code"].get<std::string>()) continue;
    out.code = static_cast<LiveCode>(i);
    out.fields.clear();
    const auto fields = error.find("fields");
    if (fields == error.end() || !fields->is_object()) return out;
    for (const auto& [k, v] : fields->items()) out.fields.emplace_back(k, v.is_string() ? v.get<std::string>() : v.dump());
    return out;
  }
  return out;
}

LiveFailure::LiveFailure(LiveError error) : std::runtime_error(render(error)), error_(std::move(error)) {}

void fail(LiveCode code, std::vector<Field> fields) { throw LiveFailure(LiveError{code, std::move(fields)}); }

}  // namespace accord::conformance::live
