// fast_case.h: cases and resolve requests read straight from JSON text (simdjson), for the hot paths.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "accord/reference/inputs.h"

namespace accord::conformance {

/// Reads a case, or a protocol `resolve` request, from JSON text without building nlohmann's tree: the fast
/// path of `accord serve` and `accord resolve --batch`. It accepts only input that reference::case_from_json
/// accepts and reads it to the same Case. Everything else is declined (false), including every input that
/// case_from_json rejects and the few valid forms it does not read (repeated keys, integers past uint64 or past
/// int in hardware facts, a non-string request id). The caller then takes the nlohmann path, which gives the same result or the
/// error naming the JSON Pointer. Nesting past kMaxJsonDepth (json_input.h) is declined too. `*out` is overwritten
/// (cleared first, touching only what the last read set, so one case can be reused line after line: given the case
/// it last wrote into, the reader resets the flags it wrote there, so the caller must not set others on it in
/// between); when the reader declines, it holds part of the text. One reader per thread.
class FastCaseReader {
 public:
  FastCaseReader();
  ~FastCaseReader();
  FastCaseReader(const FastCaseReader&) = delete;
  FastCaseReader& operator=(const FastCaseReader&) = delete;

  /// A case's JSON text (`{"flags":..., "env":..., "hardware":..., "interactive":...}`).
  bool read_case(std::string_view text, reference::Case* out);
  /// A request line `{"cmd":"resolve","id":"...","profile":"...","case":{...}}` (PROTOCOL.md); an absent or
  /// null case is the empty case, an absent profile is nullopt.
  bool read_request(std::string_view line, std::string* id, std::optional<std::string>* profile, reference::Case* out);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace accord::conformance
