// json_input.cc: files named on the command line and JSON texts read without exceptions escaping
// (json_input.h): nlohmann's parser driven through a SAX that also refuses repeated keys and deep nesting.
#include "accord/conformance/json_input.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unordered_set>
#include <vector>

#include "accord/conformance/fixture.h"
#include "accord/reference/big_int_json.h"

namespace accord::conformance {
namespace {
using nlohmann::json;

/// (*lines)[at], made when `at` is the vector's size; a string that held a line over 1 MiB gives its room back first.
std::string& kept_slot(std::vector<std::string>* lines, std::size_t at) {
  if (lines->size() == at) lines->emplace_back();
  std::string& line = (*lines)[at];
  if (line.capacity() > (1u << 20)) std::string().swap(line);
  return line;
}

std::string errno_text(int e) {
  std::string s = std::strerror(e);
  if (!s.empty() && s[0] >= 'A' && s[0] <= 'Z' && !(s.size() > 1 && s[1] >= 'A' && s[1] <= 'Z')) s[0] = static_cast<char>(s[0] - 'A' + 'a');
  return s;
}

bool cannot_read(const std::string& path, const std::string& why, std::string* error) {
  *error = "cannot read '" + path + "': " + why;
  return false;
}

/// "line L, column C" of byte `offset` (both 1-based).
std::string where(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  std::size_t line = 1, start = 0;
  for (std::size_t k = 0; k < offset; ++k)
    if (text[k] == '\n') ++line, start = k + 1;
  return "line " + std::to_string(line) + ", column " + std::to_string(offset - start + 1);
}

/// nlohmann's DOM builder, plus: repeated keys and nesting past the limit stop the parse, and the
/// top-level "id" is kept as soon as it is read.
class CheckingSax {
 public:
  CheckingSax(json* out, json* id) : dom_(*out, false), id_(id) {}

  bool null() { return scalar(nullptr) && dom_.null(); }
  bool boolean(bool v) { return scalar(v) && dom_.boolean(v); }
  bool number_integer(json::number_integer_t v) { return scalar(v) && dom_.number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { return scalar(v) && dom_.number_unsigned(v); }
  bool number_float(json::number_float_t v, const json::string_t& s) {
    if (!reference::is_integer_literal(s)) return scalar(v) && dom_.number_float(v, s);
    json big = reference::integer_json(s);  // past 64 bits: kept as written (big_int_json.h)
    return scalar(big) && dom_.binary(big.get_binary());
  }
  bool string(json::string_t& v) { return scalar(v) && dom_.string(v); }
  bool binary(json::binary_t& v) { return scalar(nullptr) && dom_.binary(v); }
  bool start_object(std::size_t n) { return open(true) && dom_.start_object(n); }
  bool start_array(std::size_t n) { return open(false) && dom_.start_array(n); }
  bool end_object() { return close() && dom_.end_object(); }
  bool end_array() { return close() && dom_.end_array(); }
  bool key(json::string_t& k) {
    Frame& f = frames_.back();
    if (!f.keys.insert(k).second) {
      error_ = pointer() + ": key '" + quoted_text(k) + "' is repeated in one object (each key once)";
      return false;
    }
    f.key = k;
    return dom_.key(k);
  }
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& /*token*/, const Exception& ex) {
    std::string what = ex.what();
    if (auto p = what.find("] "); what.rfind("[json.exception.", 0) == 0 && p != std::string::npos) what.erase(0, p + 2);
    if (what.rfind("parse error", 0) == 0)
      if (auto p = what.find(": "); p != std::string::npos) what.erase(0, p + 2);
    position_ = position > 0 ? position - 1 : 0;
    error_ = quoted_text(what, 240);
    return dom_.parse_error(position, "", ex);
  }

  const std::string& error() const { return error_; }
  std::size_t position() const { return position_; }
  bool too_deep() const { return too_deep_; }

 private:
  struct Frame {
    bool object;
    std::unordered_set<std::string> keys;
    std::string key;
    std::size_t index = 0;
  };

  bool scalar(const json& v) {
    if (id_ && frames_.size() == 1 && frames_[0].object && frames_[0].key == "id") *id_ = v;
    return next();
  }
  bool next() {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
    return true;
  }
  bool open(bool object) {
    next();
    if (frames_.size() >= static_cast<std::size_t>(kMaxJsonDepth)) return too_deep_ = true, false;
    frames_.push_back({object, {}, {}, 0});
    return true;
  }
  bool close() {
    frames_.pop_back();
    return true;
  }
  std::string pointer() const {
    std::string p;
    for (std::size_t k = 0; k + 1 < frames_.size(); ++k)
      p += "/" + (frames_[k].object ? pointer_token(frames_[k].key) : std::to_string(frames_[k].index - 1));
    return p.empty() ? "/" : p;
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  json* id_;
  std::vector<Frame> frames_;
  std::string error_;
  std::size_t position_ = 0;
  bool too_deep_ = false;
};

}  // namespace

std::string quoted_text(std::string_view text, std::size_t limit) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (std::size_t k = 0; k < text.size(); ++k) {
    if (out.size() >= limit) return out + "...";
    auto c = static_cast<unsigned char>(text[k]);
    if (c >= 0x20 && c < 0x7f) out += static_cast<char>(c);
    else out += "\\x", out += hex[c >> 4], out += hex[c & 15];
  }
  return out;
}

bool open_input(const std::string& path, std::ifstream* in, std::string* error) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return cannot_read(path, errno_text(errno), error);
  if (S_ISDIR(st.st_mode)) return cannot_read(path, "is a directory", error);
  errno = 0;
  in->open(path, std::ios::binary);
  if (!*in) return cannot_read(path, errno ? errno_text(errno) : "cannot open", error);
  return true;
}

bool read_input_file(const std::string& path, std::string* text, std::string* error) {
  std::ifstream in;
  if (!open_input(path, &in, error)) return false;
  text->clear();
  try {
    char buf[1 << 16];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) text->append(buf, static_cast<std::size_t>(in.gcount()));
    if (in.bad()) return cannot_read(path, "read error", error);
  } catch (const std::exception& e) {
    return cannot_read(path, e.what(), error);
  }
  return true;
}

bool check_json_depth(std::string_view text, std::string* error, int limit) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t k = 0; k < text.size(); ++k) {
    char c = text[k];
    if (in_string) {
      if (c == '\\') ++k;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) {
        *error = where(text, k) + ": nesting deeper than " + std::to_string(limit) + " levels (accord's limit)";
        return false;
      }
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return true;
}

bool parse_json(std::string_view text, json* out, std::string* error, json* id) {
  if (auto nul = text.find('\0'); nul != std::string_view::npos)  // nlohmann would take it for the end of the text
    return *error = where(text, nul) + ": a NUL byte (not in any JSON text)", false;
  json doc;
  CheckingSax sax(&doc, id);
  bool ok = false;
  try {
    ok = json::sax_parse(text.begin(), text.end(), &sax);
  } catch (const std::exception& e) {  // not expected: the SAX reports instead of throwing
    return *error = quoted_text(e.what(), 240), false;
  }
  if (ok) {
    *out = std::move(doc);
    return true;
  }
  if (sax.too_deep()) {
    if (check_json_depth(text, error)) *error = "nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels (accord's limit)";
  } else if (!sax.error().empty() && sax.error()[0] == '/') {
    *error = sax.error();
  } else {
    *error = where(text, sax.position()) + ": " + (sax.error().empty() ? "not valid JSON" : sax.error());
  }
  return false;
}

}  // namespace accord::conformance

namespace accord::conformance {

std::string line_limit_text() { return std::to_string(kMaxLineBytes >> 20) + " MiB"; }

bool read_kept_line(std::istream& in, std::vector<std::string>* lines, std::size_t at) {
  return read_line_bounded(in, &kept_slot(lines, at));
}

BlockLineReader::BlockLineReader(std::istream& in, std::size_t max, std::size_t block) : in_(in), max_(max), block_(std::max<std::size_t>(block, 1)) {}

bool BlockLineReader::fill() {
  in_.read(block_.data(), static_cast<std::streamsize>(block_.size()));  // up to a block; less at the end of input
  at_ = 0;
  end_ = static_cast<std::size_t>(in_.gcount());
  return end_ > 0;
}

bool BlockLineReader::next(std::string* line) {
  line->clear();
  bool too_long = false, any = false;
  for (;;) {
    if (at_ == end_ && !fill()) {  // the end of input: a last line without a newline, or none
      if (any && too_long) *line = kLineTooLong;
      return any;
    }
    const char* from = block_.data() + at_;
    const auto* newline = static_cast<const char*>(std::memchr(from, '\n', end_ - at_));
    const std::size_t n = newline ? static_cast<std::size_t>(newline - from) : end_ - at_;
    any = true;
    at_ += n + (newline ? 1 : 0);
    if (!too_long && line->size() + n > max_) {  // read on to the newline without holding the line
      too_long = true;
      line->clear();
      line->shrink_to_fit();
    }
    if (!too_long) line->append(from, n);
    if (newline) {
      if (too_long) *line = kLineTooLong;
      return true;
    }
  }
}

bool BlockLineReader::next_kept(std::vector<std::string>* lines, std::size_t at) { return next(&kept_slot(lines, at)); }

bool read_line_bounded(std::istream& in, std::string* line, std::size_t max) {
  line->clear();
  bool too_long = false;
  char buf[1 << 16];
  bool any = false;
  for (;;) {
    in.getline(buf, sizeof buf);  // libstdc++ scans its buffer for the newline: as fast as std::getline
    auto got = static_cast<std::size_t>(in.gcount());
    bool partial = in.fail() && !in.eof() && got == sizeof buf - 1;  // the buffer filled before a newline
    bool ended = !partial && !in.eof() && !in.fail();                // a newline was read (and counted in got)
    std::size_t stored = ended ? got - 1 : got;
    any = any || got > 0;
    if (too_long || line->size() + stored > max) {
      too_long = true;
      line->clear();
      line->shrink_to_fit();
    } else {
      line->append(buf, stored);
    }
    if (partial) {
      in.clear(in.rdstate() & ~std::ios::failbit);
      continue;
    }
    if (ended || (in.eof() && any)) {  // a line, or a last line without a newline
      if (!ended) in.clear(in.rdstate() & ~std::ios::failbit);
      if (too_long) *line = kLineTooLong;
      return true;
    }
    return false;  // end of input, or a read cut short (EINTR)
  }
}

}  // namespace accord::conformance
