// protocol.h: the JSON-lines protocol of conformance/PROTOCOL.md, both sides (harness and implementation).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accord/conformance/adapter.h"

namespace accord::conformance {

/// Appends `s` as a JSON string literal, escaped exactly as nlohmann's dump() escapes it.
void append_json_string(std::string& out, std::string_view s);
/// Appends the inside of that literal (the escaped text without its quotes): a string written in pieces.
void append_json_escaped(std::string& out, std::string_view s);
/// The most bytes escaping writes per byte of text (`\u001f` for one control character).
inline constexpr std::size_t kMaxEscapedGrowth = 6;
/// Writes the inside of the literal at `to`, which has room for kMaxEscapedGrowth * s.size() bytes; returns its end.
char* escape_json(char* to, std::string_view s);

/// The protocol version this harness speaks.
inline constexpr int kProtocolVersion = 1;

/// `{"cmd": "start", "protocol": 1}` (no newline).
std::string start_request(bool timing = false);
/// `{"cmd": "stop"}` (no newline).
std::string stop_request();
/// `{"cmd": "resolve", "id": ..., "profile": ..., "case": ...}` (no newline).
std::string resolve_request(const std::string& id, const std::string& profile, const nlohmann::json& case_json);

/// Reads a handshake reply. False with `error` set when the line is not JSON, says `ok: false`,
/// lacks the implementation name or speaks another protocol version.
bool parse_handshake(const std::string& line, ImplementationInfo* info, std::string* error);
/// The handshake reply an implementation sends (no newline).
std::string handshake_reply(const ImplementationInfo& info);

/// What a reply line to a resolve request says.
enum class ReplyKind {
  kOutcome,    ///< `{"id", "outcome"}`
  kSkipped,    ///< `{"id", "skipped"}`
  kErrored,    ///< `{"id", "errored"}`
  kMalformed,  ///< not JSON, not an object, no id, or none of outcome/skipped/errored
};

/// One parsed reply line; `message` holds the skip reason, error text or what was malformed.
struct Reply {
  ReplyKind kind = ReplyKind::kMalformed;
  std::string id;
  bool has_id = false;
  nlohmann::json outcome;
  std::string message;
  std::optional<std::int64_t> elapsed_ns = std::nullopt;  ///< an outcome reply's `elapsed_ns` (timing mode), when a non-negative integer
};

/// Parses one reply line; never throws.
Reply parse_reply(const std::string& line);

/// Runs the implementation side of the protocol over `in`/`out` with `impl` answering the cases
/// (`accord serve`). A request without `profile` uses `default_profile`. The lines already
/// buffered are answered as one batch, whose replies are written in order and flushed once.
/// Returns 0 after `stop` or end of input.
int serve(std::istream& in, std::ostream& out, Adapter& impl, const std::string& default_profile);
/// The same, answering large batches on every adapter of `impls` in parallel (one thread each).
int serve(std::istream& in, std::ostream& out, const std::vector<Adapter*>& impls, const std::string& default_profile);

}  // namespace accord::conformance
