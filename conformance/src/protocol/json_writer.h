// json_writer.h: JsonWriter, JSON text appended to a string exactly as nlohmann's dump() writes it (internal).
#pragma once

#include <charconv>
#include <cstddef>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "accord/conformance/protocol.h"

namespace accord::conformance {

/// Appends compact JSON to `out`, byte for byte as nlohmann's dump() writes the same tree when the caller writes the
/// keys of each object in sorted order (same escapes, same numbers). Commas come by themselves: a value after a key
/// or an opening bracket has none, any other value one. The text goes into a buffer kept per thread whose room is made
/// ahead and never given back, so no character costs a call into a string and no line pays for room it had before
/// (a string grown past its end is filled with zeros each time); the writer appends the text to `out` in one copy
/// when it goes. `out` must not be read or written while the writer lives; one writer a thread at a time.
class JsonWriter {
 public:
  explicit JsonWriter(std::string* out) : out_(*out), s_(buffer()) {}
  ~JsonWriter() { out_.append(s_.data(), at_); }
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  /// A string value, escaped.
  void str(std::string_view s) {
    comma();
    quoted(s);
  }
  /// A string value, or null for "".
  void str_or_null(std::string_view s) { s.empty() ? raw("null") : str(s); }
  /// A key given as a literal (no escaping needed, length known at compile time).
  template <std::size_t N>
  void key(const char (&k)[N]) {
    comma();
    char* p = room(N + 2);
    *p = '"';
    std::memcpy(p + 1, k, N - 1);
    p[N] = '"', p[N + 1] = ':';
    at_ += N + 2;
    first_ = true;  // the value follows without a comma
  }
  /// A key that may need escaping.
  void key_str(std::string_view k) {
    comma();
    quoted(k);
    put(':');
    first_ = true;
  }
  /// JSON text written as it is (a literal, an id quoted once beforehand, text another writer made).
  void raw(std::string_view t) {
    comma();
    put(t);
  }
  /// A string value written in pieces: each piece `write` passes to its callback is escaped and appended, except a
  /// piece that lies within `plain`, text the caller knows needs no escape (a message's template): it is copied.
  template <typename Write>
  void pieces(Write&& write, std::string_view plain = {}) {
    comma();
    put('"');
    write([this, plain](std::string_view piece) {
      if (!plain.empty() && piece.data() >= plain.data() && piece.data() + piece.size() <= plain.data() + plain.size())
        put(piece);
      else
        escaped(piece);
    });
    put('"');
  }
  void boolean(bool b) { raw(b ? "true" : "false"); }
  void num(long long v) {
    comma();
    char* p = room(24);
    at_ += static_cast<std::size_t>(std::to_chars(p, p + 24, v).ptr - p);
  }
  void opt(const std::optional<long long>& v) { v ? num(*v) : raw("null"); }
  void open(char c) {
    comma();
    put(c);
    first_ = true;
  }
  void close(char c) {
    put(c);
    first_ = false;
  }
  /// An object of strings, in the map's (sorted) order.
  template <typename Text>
  void string_map(const std::map<Text, Text>& m) {
    open('{');
    for (const auto& [k, v] : m) key_str(k), str(v);
    close('}');
  }

 private:
  static constexpr std::size_t kSlack = 1024;  ///< room made at a time beyond what one write needs
  /// Room for n more bytes at the write position.
  char* room(std::size_t n) {
    if (s_.size() - at_ < n) s_.resize(at_ + n + kSlack);  // the string's capacity grows geometrically
    return &s_[at_];
  }
  void put(char c) {
    *room(1) = c;
    ++at_;
  }
  void put(std::string_view t) {
    std::memcpy(room(t.size()), t.data(), t.size());
    at_ += t.size();
  }
  void escaped(std::string_view t) {
    char* p = room(kMaxEscapedGrowth * t.size());
    at_ += static_cast<std::size_t>(escape_json(p, t) - p);
  }
  void quoted(std::string_view t) {
    char* p = room(kMaxEscapedGrowth * t.size() + 2);
    *p = '"';
    char* end = escape_json(p + 1, t);
    *end++ = '"';
    at_ += static_cast<std::size_t>(end - p);
  }
  void comma() {
    if (!first_) put(',');
    first_ = false;
  }
  static std::string& buffer() {
    thread_local std::string kept;  // its size is the room made so far; the text is its first at_ bytes
    return kept;
  }
  std::string& out_;
  std::string& s_;
  std::size_t at_ = 0;  ///< the end of the text written into s_
  bool first_ = true;
};

}  // namespace accord::conformance
