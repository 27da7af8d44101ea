// jsonl.cc: the JSON-lines protocol (conformance/PROTOCOL.md): message encoding and reply parsing.
#include <array>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "accord/conformance/protocol.h"
#include "accord/reference/big_int_json.h"

namespace accord::conformance {
using nlohmann::json;

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  append_json_escaped(out, s);
  out += '"';
}

void append_json_escaped(std::string& out, std::string_view s) {
  const std::size_t at = out.size();
  out.resize(at + kMaxEscapedGrowth * s.size());
  out.resize(static_cast<std::size_t>(escape_json(&out[at], s) - out.data()));
}

#if defined(__SSE2__)
namespace {

/// One bit a byte of `v` that needs an escape: below 0x20 as an unsigned byte, '"' or '\\'.
int escape_mask(__m128i v) {
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), below = _mm_set1_epi8(0x1f);
  const __m128i bad = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                                   _mm_cmpeq_epi8(_mm_min_epu8(v, below), v));  // min(v, 0x1f) == v: v <= 0x1f
  return _mm_movemask_epi8(bad);
}

template <typename Word>
Word load(const char* p) {
  Word w;
  std::memcpy(&w, p, sizeof w);
  return w;
}
template <typename Word>
void store(char* to, Word w) {
  std::memcpy(to, &w, sizeof w);
}

/// A text of 4 to 32 bytes that needs no escape, copied to `to` whole: two loads of 4, 8 or 16 bytes, the first at its
/// start and the second ending at its end (they overlap unless the length is twice the load), one compare mask for
/// both, and the same two stores. Every load and store stays within the text and its copy. False, with nothing
/// written, when the text is of another length or has a byte to escape.
bool copied_whole(char* to, const char* p, std::size_t n) {
  if (n >= 16 && n <= 32) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + n - 16));
    if (escape_mask(a) | escape_mask(b)) return false;
    _mm_storeu_si128(reinterpret_cast<__m128i*>(to), a);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(to + n - 16), b);
    return true;
  }
  if (n >= 8 && n < 16) {
    const auto a = load<std::uint64_t>(p), b = load<std::uint64_t>(p + n - 8);
    const __m128i both = _mm_set_epi64x(static_cast<long long>(b), static_cast<long long>(a));
    if (escape_mask(both)) return false;
    store(to, a), store(to + n - 8, b);
    return true;
  }
  if (n >= 4 && n < 8) {
    const auto a = load<std::uint32_t>(p), b = load<std::uint32_t>(p + n - 4);
    const __m128i both = _mm_set_epi32(0x61616161, 0x61616161, static_cast<int>(b), static_cast<int>(a));  // 'a' pads
    if (escape_mask(both)) return false;
    store(to, a), store(to + n - 4, b);
    return true;
  }
  return false;
}

}  // namespace
#endif

char* escape_json(char* to, std::string_view s) {
#if defined(__SSE2__)
  // Most texts written are short names and values that need no escape: those of 4 to 32 bytes take two loads.
  if (copied_whole(to, s.data(), s.size())) return to + s.size();
#endif
  // 1 = needs an escape: control characters, '"' and '\\' (nlohmann's dump() escapes exactly these).
  static constexpr auto kEscape = [] {
    std::array<unsigned char, 256> t{};
    for (int c = 0; c < 0x20; ++c) t[c] = 1;
    t['"'] = t['\\'] = 1;
    return t;
  }();
  static const char* hex = "0123456789abcdef";
  const char* p = s.data();
  const char* end = p + s.size();
  while (p < end) {
#if defined(__SSE2__)
    // Sixteen bytes at a time while sixteen are left: each block is copied whole (the room holds it: a byte read so
    // far wrote at most kMaxEscapedGrowth, and sixteen more are still to read), and the copy is cut at the first
    // byte that needs an escape (below 0x20 as an unsigned byte, '"' or '\\'), found by one compare mask.
    int stop = 16;
    while (end - p >= 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(to), v);
      const int mask = escape_mask(v);
      stop = mask ? __builtin_ctz(static_cast<unsigned>(mask)) : 16;
      p += stop, to += stop;
      if (stop < 16) break;
    }
    if (stop == 16) {  // fewer than sixteen bytes left: byte by byte
      while (p < end && !kEscape[static_cast<unsigned char>(*p)]) *to++ = *p++;
      if (p == end) break;
    }
#else
    const char* run = p;
    while (p < end && !kEscape[static_cast<unsigned char>(*p)]) ++p;
    std::memcpy(to, run, static_cast<std::size_t>(p - run));
    to += p - run;
    if (p == end) break;
#endif
    unsigned char c = static_cast<unsigned char>(*p++);
    *to++ = '\\';
    switch (c) {
      case '"': *to++ = '"'; break;
      case '\\': *to++ = '\\'; break;
      case '\b': *to++ = 'b'; break;
      case '\f': *to++ = 'f'; break;
      case '\n': *to++ = 'n'; break;
      case '\r': *to++ = 'r'; break;
      case '\t': *to++ = 't'; break;
      default: *to++ = 'u', *to++ = '0', *to++ = '0', *to++ = hex[c >> 4], *to++ = hex[c & 15];
    }
  }
  return to;
}

std::string start_request(bool timing) {
  json start = {{"cmd", "start"}, {"protocol", kProtocolVersion}};
  if (timing) start["timing"] = true;
  return start.dump();
}
std::string stop_request() { return R"({"cmd":"stop"})"; }

std::string resolve_request(const std::string& id, const std::string& profile, const json& case_json) {
  return "{\"cmd\":\"resolve\",\"id\":" + json(id).dump() + ",\"profile\":" + json(profile).dump() +
         ",\"case\":" + reference::json_text(case_json) + "}";
}

bool parse_handshake(const std::string& line, ImplementationInfo* info, std::string* error) {
  json j = json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    *error = "handshake reply is not a JSON object: " + line.substr(0, 200);
    return false;
  }
  if (j.value("ok", json()) != true) {
    *error = "implementation refused the handshake: " + reference::value_text(j.value("error", json("no reason given")));
    return false;
  }
  if (j.value("protocol", json()) != kProtocolVersion) {
    *error = "implementation speaks protocol " + j.value("protocol", json()).dump() + ", the harness speaks 1";
    return false;
  }
  const json impl = j.value("implementation", json());
  if (!impl.is_object() || !impl.contains("name") || !impl["name"].is_string() || impl["name"].get<std::string>().empty()) {
    *error = "handshake reply lacks /implementation/name";
    return false;
  }
  ImplementationInfo out;
  out.name = impl["name"].get<std::string>();
  out.version = reference::value_text(impl.value("version", json("")));
  out.language = reference::value_text(impl.value("language", json("")));
  const json caps = impl.value("capabilities", json::array());
  if (!caps.is_array()) {
    *error = "/implementation/capabilities must be a list of strings";
    return false;
  }
  for (const auto& c : caps)
    if (c.is_string()) out.capabilities.insert(c.get<std::string>());
  *info = std::move(out);
  return true;
}

std::string handshake_reply(const ImplementationInfo& info) {
  json impl = {{"name", info.name}, {"version", info.version}, {"language", info.language},
               {"capabilities", info.capabilities}};
  return json({{"ok", true}, {"implementation", impl}, {"protocol", kProtocolVersion}}).dump();
}

Reply parse_reply(const std::string& line) {
  Reply r;
  json j = json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    r.message = "reply is not a JSON object: " + line.substr(0, 200);
    return r;
  }
  if (auto id = j.find("id"); id != j.end() && id->is_string()) {
    r.id = id->get<std::string>();
    r.has_id = true;
  }
  if (auto o = j.find("outcome"); o != j.end()) {
    r.kind = ReplyKind::kOutcome;
    r.outcome = std::move(*o);
    if (auto t = j.find("elapsed_ns"); t != j.end() && t->is_number_integer() && *t >= 0) r.elapsed_ns = t->get<std::int64_t>();
  } else if (auto s = j.find("skipped"); s != j.end()) {
    r.kind = ReplyKind::kSkipped;
    r.message = reference::value_text(*s);
  } else if (auto e = j.find("errored"); e != j.end()) {
    r.kind = ReplyKind::kErrored;
    r.message = reference::value_text(*e);
  } else {
    r.message = "reply has none of outcome, skipped, errored: " + line.substr(0, 200);
  }
  if (!r.has_id && r.kind != ReplyKind::kMalformed) {
    r.kind = ReplyKind::kMalformed;
    r.message = "reply has no string id: " + line.substr(0, 200);
  }
  return r;
}

}  // namespace accord::conformance
