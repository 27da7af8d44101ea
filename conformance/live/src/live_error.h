// live_error.h: the live runner's errors as data (a code from live_codes.def plus string fields).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace accord::conformance::live {

/// One enumerator per row of live_codes.def.
enum class LiveCode {
#define ACCORD_LIVE_CODE(Name, Wire, Tmpl) k##Name,
#include "live_codes.def"
};

/// A key/value pair that fills `{key}` in the code's template.
using Field = std::pair<std::string, std::string>;

/// An error: its code and fields. Text comes only from render().
struct LiveError {
  LiveCode code = LiveCode::kInternal;
  std::vector<Field> fields;
};

/// The stable wire id of `code` (e.g. "live_port_in_use").
[[nodiscard]] std::string_view wire_id(LiveCode code);

/// The message: the code's template with every `{field}` replaced; unknown fields stay as written.
[[nodiscard]] std::string render(const LiveError& error);

/// `{"code": wire id, "fields": {...}, "message": render(error)}`.
[[nodiscard]] nlohmann::json to_json(const LiveError& error);

/// The inverse of to_json(): a report's error object back into a LiveError (unknown or
/// malformed codes become kInternal with the original text in `detail`).
[[nodiscard]] LiveError error_from_json(const nlohmann::json& error);

/// Thrown inside the runner and turned into a report at the boundary (launch(), the worker).
class LiveFailure : public std::runtime_error {
 public:
  explicit LiveFailure(LiveError error);
  /// The error this failure carries.
  [[nodiscard]] const LiveError& error() const { return error_; }

 private:
  LiveError error_;
};

/// Throws LiveFailure{code, fields}.
[[noreturn]] void fail(LiveCode code, std::vector<Field> fields);

}  // namespace accord::conformance::live
