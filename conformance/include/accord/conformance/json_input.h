// json_input.h: reading what a user hands accord (files named on the command line, case texts, request
// and batch lines) without aborting: every failure is a message, never an exception. The limits are
// listed in conformance/README.md ("Limits") and PROTOCOL.md.
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>
#include <string_view>

namespace accord::conformance {

/// The deepest nesting of arrays and objects accord reads: far past any real case (a fixture file nests
/// about 8 deep), well short of what the recursive readers (schema, case reader, dump) can take.
constexpr int kMaxJsonDepth = 256;
/// The longest line a JSON-lines reader takes (`serve` requests, `resolve --batch` cases, implementation replies):
/// 64 MiB. A longer line is skipped without being held in memory, and answered with an error naming the limit.
constexpr std::size_t kMaxLineBytes = 64u * 1024 * 1024;

/// What read_line_bounded() gives for a line past the limit (a real line never holds a newline).
constexpr std::string_view kLineTooLong = "\n";
/// The limit as the messages name it: "64 MiB".
std::string line_limit_text();

/// Reads the next line of `in` (without its newline) into `line`, keeping at most `max` bytes: a longer line is read
/// to its end without being held and `line` is kLineTooLong. False at the end of input, or when a read fails.
bool read_line_bounded(std::istream& in, std::string* line, std::size_t max = kMaxLineBytes);

/// read_line_bounded() into (*lines)[at], a string kept from batch to batch so that a line costs no allocation
/// (the vector grows when `at` is its size; a string that held a line over 1 MiB gives its room back first).
bool read_kept_line(std::istream& in, std::vector<std::string>* lines, std::size_t at);

/// The lines of a stream read a block at a time, for a reader that takes the whole stream (`resolve --batch`): the
/// lines read_line_bounded() gives, each copied once from a 1 MiB block instead of twice through istream::getline.
/// It reads ahead, so it is not for a peer that waits for each answer (`serve` reads with read_kept_line()).
class BlockLineReader {
 public:
  /// `block`: the bytes read at a time (tests make it small to cut lines across blocks).
  explicit BlockLineReader(std::istream& in, std::size_t max = kMaxLineBytes, std::size_t block = std::size_t{1} << 20);
  /// read_line_bounded()'s result and `line` for the next line of the stream.
  bool next(std::string* line);
  /// read_kept_line()'s result and string for the next line of the stream.
  bool next_kept(std::vector<std::string>* lines, std::size_t at);

 private:
  bool fill();  ///< the next block; false at the end of input or when a read fails
  std::istream& in_;
  std::size_t max_;
  std::vector<char> block_;
  std::size_t at_ = 0, end_ = 0;  ///< the bytes of block_ not yet handed out
};

/// Opens a file named on the command line for reading. False with *error = "cannot read 'PATH': is a
/// directory" (or "no such file or directory", "permission denied", ...).
bool open_input(const std::string& path, std::ifstream* in, std::string* error);

/// The whole of a file named on the command line (as open_input; read errors become messages too).
bool read_input_file(const std::string& path, std::string* text, std::string* error);

/// A linear scan of `text` (strings skipped, nothing parsed): false when arrays and objects nest deeper
/// than `limit`, with *error = "line L, column C: nesting deeper than 256 levels (accord's limit)".
bool check_json_depth(std::string_view text, std::string* error, int limit = kMaxJsonDepth);

/// Parses one JSON text; never throws. Rejects, with *error = "line L, column C: <what was wrong>":
/// syntax errors, a NUL byte, invalid UTF-8, numbers out of range (`1e400`), a key repeated in one object (nlohmann
/// would keep the last value silently) and nesting deeper than kMaxJsonDepth. When `id` is given, it
/// receives the top-level member "id" if one was read before the text went wrong (else stays null).
bool parse_json(std::string_view text, nlohmann::json* out, std::string* error, nlohmann::json* id = nullptr);

/// `text` as it may be quoted in a message: bytes outside printable ASCII written as \xNN, at most
/// `limit` bytes of it (then "...").
std::string quoted_text(std::string_view text, std::size_t limit = 60);

}  // namespace accord::conformance
