// table.cc: decision table files: a text header and packed little-endian cell data.
#include "enumerate/table.h"

#include <algorithm>
#include <fstream>

#include "accord/conformance/json_input.h"

namespace accord::enumerate {
using nlohmann::json;

namespace {

constexpr const char* kMagic = "ACCORD-DECISION-TABLE 1";

void put(std::string& buf, std::uint32_t v, int width) {
  for (int b = 0; b < width; ++b) buf.push_back(static_cast<char>((v >> (8 * b)) & 0xff));
}

std::uint32_t get(const unsigned char* p, int width) {
  std::uint32_t v = 0;
  for (int b = 0; b < width; ++b) v |= static_cast<std::uint32_t>(p[b]) << (8 * b);
  return v;
}

/// LEB128: 7 bits per byte, low bits first, high bit set on all but the last byte.
void put_varint(std::string& buf, std::uint64_t v) {
  while (v >= 0x80) {
    buf.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  buf.push_back(static_cast<char>(v));
}

bool get_varint(const unsigned char*& p, const unsigned char* end, std::uint64_t* v) {
  *v = 0;
  for (int shift = 0; p < end && shift < 64; shift += 7) {
    unsigned char b = *p++;
    *v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

bool fail(std::string* error, const std::string& path, const std::string& what) {
  *error = path + ": " + what;
  return false;
}

/// Everything after the header line (read_table catches what a header of the wrong shape throws).
bool read_body(const std::string& path, std::ifstream& in, Table r, Table* t, std::string* error);

}  // namespace

std::vector<std::uint32_t> Table::digits(std::uint64_t k) const {
  if (exhaustive) return domain.decode(k);
  return std::vector<std::uint32_t>(rows[k].begin(), rows[k].end());
}

bool write_table(const std::string& path, Table& t, std::string* error) {
  std::vector<std::uint64_t> counts(t.classes.size(), 0);
  for (auto id : t.ids) ++counts[id];
  t.header["mode"] = t.exhaustive ? "exhaustive" : "covering";
  t.header["cells"] = t.ids.size();
  t.header["encoding"] = "rle-varint";
  t.header["classes"] = t.classes;
  t.header["counts"] = counts;
  std::ofstream out(path, std::ios::binary);
  if (!out) return fail(error, path, "cannot open for writing");
  out << kMagic << '\n' << t.header.dump() << '\n';
  std::string buf;
  buf.reserve(1 << 20);
  auto flush = [&] { out.write(buf.data(), static_cast<std::streamsize>(buf.size())); buf.clear(); };
  for (const auto& r : t.rows) {
    for (auto v : r) put(buf, v, 2);
    if (buf.size() > (1 << 20)) flush();
  }
  for (std::size_t k = 0; k < t.ids.size();) {  // runs of equal classes: (class, length) varints
    std::size_t end = k;
    while (end < t.ids.size() && t.ids[end] == t.ids[k]) ++end;
    put_varint(buf, t.ids[k]);
    put_varint(buf, end - k);
    k = end;
    if (buf.size() > (1 << 20)) flush();
  }
  flush();
  if (!out) return fail(error, path, "write failed");
  return true;
}

bool read_table(const std::string& path, Table* t, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(error, path, "cannot open");
  std::string magic, head;
  if (!std::getline(in, magic) && in.bad()) return fail(error, path, "read error");
  if (magic != kMagic) return fail(error, path, "not a decision table (expected first line '" + std::string(kMagic) + "')");
  if (!std::getline(in, head)) return fail(error, path, "missing header line");
  Table r;
  std::string bad;
  if (!conformance::parse_json(head, &r.header, &bad)) {
    if (bad.rfind("line 1, column ", 0) == 0) bad.erase(0, 8);  // one line: its column says where
    return fail(error, path, "header line is not valid JSON: " + bad);
  }
  if (!r.header.is_object()) return fail(error, path, "header line is not a JSON object");
  try {
    return read_body(path, in, std::move(r), t, error);
  } catch (const std::exception& e) {  // a header value of the wrong type (json::type_error), a count too large to hold
    return fail(error, path, std::string("header: ") + conformance::quoted_text(e.what(), 240));
  }
}

namespace {
bool read_body(const std::string& path, std::ifstream& in, Table r, Table* t, std::string* error) {
  std::string why;
  if (!r.header.contains("domain") || !load_domain(r.header["domain"], &r.domain, &why)) return fail(error, path, "header /domain: " + why);
  auto cells = r.header.value("cells", std::uint64_t{0});
  r.exhaustive = r.header.value("mode", "") == "exhaustive";
  if (r.header.value("encoding", "") != "rle-varint") return fail(error, path, "header /encoding must be \"rle-varint\"");
  if (!r.header.contains("classes") || !r.header["classes"].is_array()) return fail(error, path, "header /classes missing");
  r.classes = r.header["classes"].get<std::vector<std::string>>();
  if (r.exhaustive && cells != r.domain.cells()) return fail(error, path, "header /cells does not match the domain's product");
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::size_t axes = r.domain.axes.size();
  std::size_t row_bytes = r.exhaustive ? 0 : cells * axes * 2;
  if (!r.exhaustive && axes && cells > data.size() / axes / 2) return fail(error, path, "data ends inside the covering array rows");
  if (data.size() < row_bytes) return fail(error, path, "data ends inside the covering array rows");
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  const auto* end = p + data.size();
  if (!r.exhaustive) {
    r.rows.assign(cells, std::vector<std::uint16_t>(axes));
    for (auto& row : r.rows)
      for (auto& v : row) v = static_cast<std::uint16_t>(get(p, 2)), p += 2;
  }
  r.ids.reserve(std::min<std::uint64_t>(cells, data.size()));  // each run takes at least 2 bytes
  while (r.ids.size() < cells) {
    std::uint64_t id = 0, run = 0;
    if (!get_varint(p, end, &id) || !get_varint(p, end, &run)) return fail(error, path, "data ends after " + std::to_string(r.ids.size()) + " cells");
    if (id >= r.classes.size()) return fail(error, path, "class index " + std::to_string(id) + " out of range");
    if (run == 0 || run > cells - r.ids.size()) return fail(error, path, "bad run length at cell " + std::to_string(r.ids.size()));
    r.ids.insert(r.ids.end(), run, static_cast<std::uint32_t>(id));
  }
  if (p != end) return fail(error, path, "trailing data after " + std::to_string(cells) + " cells");
  *t = std::move(r);
  return true;
}
}  // namespace

}  // namespace accord::enumerate
