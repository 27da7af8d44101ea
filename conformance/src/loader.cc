// loader.cc: finds, parses and schema-checks fixture files, turning every problem into a LoadError.
#include "accord/conformance/loader.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <thread>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include "accord/conformance/json_input.h"
#include "accord/reference/big_int_json.h"

namespace accord::conformance {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

/// The compiled schema, parsed once. Valijson throws on a bad schema; that is a build bug.
const valijson::Schema& schema() {
  static const valijson::Schema* s = [] {
    auto* out = new valijson::Schema;
    json doc = json::parse(fixture_schema_text());
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    parser.populateSchema(valijson::adapters::NlohmannJsonAdapter(doc), *out);
    return out;
  }();
  return *s;
}

/// `<root>`, `[cases]`, `[0]`, `[id]` -> `/cases/0/id`.
std::string context_pointer(const std::vector<std::string>& context) {
  std::string p;
  for (const auto& c : context) {
    if (c == "<root>") continue;
    std::string token = c.size() >= 2 && c.front() == '[' && c.back() == ']' ? c.substr(1, c.size() - 2) : c;
    p += "/" + pointer_token(token);
  }
  return p;
}

std::string shown_value(const json& doc, const std::string& pointer) {
  try {
    json::json_pointer ptr(pointer);
    if (!doc.contains(ptr)) return "";
    const json& v = doc.at(ptr);
    if (v.is_structured()) return "";
    std::string s = reference::json_text(v);
    return " (value: " + (s.size() > 80 ? s.substr(0, 77) + "..." : s) + ")";
  } catch (const json::exception&) {
    return "";
  }
}

/// The place of `path` in `c->files` (added when absent).
std::size_t file_index(const std::string& path, Corpus* c) {
  auto it = std::find(c->files.begin(), c->files.end(), path);
  if (it != c->files.end()) return static_cast<std::size_t>(it - c->files.begin());
  c->files.push_back(path);
  return c->files.size() - 1;
}

bool generic(const std::string& m) { return m.rfind("Failed to validate", 0) == 0; }

/// Keeps the most specific schema errors: deepest pointers, specific messages over "Failed to ...".
void schema_errors(const std::string& file, const json& doc, valijson::ValidationResults& results,
                   std::vector<LoadError>* out) {
  std::map<std::string, std::vector<std::string>> by_pointer;
  valijson::ValidationResults::Error e;
  while (results.popError(e)) {
    auto& v = by_pointer[context_pointer(e.context)];
    if (std::find(v.begin(), v.end(), e.description) == v.end()) v.push_back(e.description);
  }
  for (auto& [ptr, msgs] : by_pointer) {
    auto deeper = by_pointer.lower_bound(ptr + "/");
    bool explained = deeper != by_pointer.end() && deeper->first.rfind(ptr + "/", 0) == 0;
    // "Failed to validate ..." only summarises other errors; keep it when it is all there is.
    if (explained || std::any_of(msgs.begin(), msgs.end(), [](const std::string& m) { return !generic(m); }))
      msgs.erase(std::remove_if(msgs.begin(), msgs.end(), generic), msgs.end());
    if (msgs.empty()) continue;
    std::string text;
    for (const auto& m : msgs) text += (text.empty() ? "" : " ") + m;
    out->push_back({file, ptr, "schema: " + text + shown_value(doc, ptr)});
  }
}

}  // namespace

std::string to_string(const LoadError& e) {
  return e.file + ": " + (e.pointer.empty() ? "/" : e.pointer) + ": " + e.message;
}

namespace {

/// load_file, with the file's place in `out->files` known (`file`, for packed cases).
void load_one(const std::string& path, std::uint32_t file, Corpus* out) {
  std::string text, error;
  if (!read_input_file(path, &text, &error)) {
    out->errors.push_back({path, "", error});
    return;
  }
  json doc;
  if (!parse_json(text, &doc, &error)) {  // a repeated key comes as "/json/pointer: what"
    std::size_t at = error.rfind('/', 0) == 0 ? error.find(": ") : std::string::npos;
    std::string ptr = at == std::string::npos || error.compare(0, at, "/") == 0 ? "" : error.substr(0, at);
    out->errors.push_back({path, ptr, "not valid JSON: " + (at == std::string::npos ? error : error.substr(at + 2))});
    return;
  }
  valijson::ValidationResults results;
  // One validator a thread: it keeps the schema's compiled `pattern` regexes, which a fresh one compiles again for
  // every file (std::regex construction was a quarter of the corpus's load time, most of it under ASan).
  static thread_local valijson::Validator validator;
  bool valid = false;
  try {
    valid = validator.validate(schema(), valijson::adapters::NlohmannJsonAdapter(doc), &results);
  } catch (const std::exception& e) {
    out->errors.push_back({path, "", std::string("schema validation failed: ") + e.what()});
    return;
  }
  if (!valid) {
    schema_errors(path, doc, results, &out->errors);
    return;
  }
  // A file contributes its cases only when every case reads: a file with an error is reported whole, never half-run.
  const json& cases = doc["cases"];
  std::vector<Fixture> read;
  std::vector<PackedCase> packed;
  const bool pack = out->as == LoadAs::kPacked;
  std::size_t errors = out->errors.size();
  for (std::size_t i = 0; i < cases.size(); ++i) {
    Fixture f;
    std::string ptr, msg;
    if (!fixture_from_json(cases[i], path, "/cases/" + std::to_string(i), &f, &ptr, &msg))
      out->errors.push_back({path, ptr, msg});
    else if (pack) {
      packed.push_back({std::move(f.id), std::move(f.profiles), std::move(f.profiles_except), file,
                        static_cast<std::uint32_t>(i), reference::json_text(cases[i])});
      packed.back().text.shrink_to_fit();  // the text grew by doubling: keep its size, not its capacity
    }
    else
      read.push_back(std::move(f));
  }
  if (out->errors.size() != errors) return;
  for (auto& f : read) out->fixtures.push_back(std::move(f));
  for (auto& p : packed) out->packed.push_back(std::move(p));
}

}  // namespace

void load_file(const std::string& path, Corpus* out) {
  load_one(path, static_cast<std::uint32_t>(out->as == LoadAs::kPacked ? file_index(path, out) : 0), out);
}

bool unpack(const Corpus& c, const PackedCase& p, Fixture* out, std::string* error) {
  const std::string& file = p.file < c.files.size() ? c.files[p.file] : std::string();
  json j;
  std::string ptr, msg;
  if (!parse_json(p.text, &j, error)) return *error = file + ": packed case " + p.id + ": " + *error, false;
  if (fixture_from_json(j, file, "/cases/" + std::to_string(p.index), out, &ptr, &msg)) return true;
  *error = file + ": " + ptr + ": " + msg;  // LCOV_EXCL_LINE the loader packs only what read
  return false;                            // LCOV_EXCL_LINE
}

Corpus load_corpus(const std::string& dir, const LoadProgress& progress, LoadAs as) {
  Corpus c;
  c.as = as;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    c.errors.push_back({dir, "", "not a directory"});
    return c;
  }
  const fs::path root(dir);
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    if (it.depth() == 0 && p.filename() == "schema" && it->is_directory(ec)) {
      it.disable_recursion_pending();
      continue;
    }
    if (p.extension() == ".json" && it->is_regular_file(ec)) c.files.push_back(p.string());
  }
  if (ec) c.errors.push_back({dir, "", "cannot list the directory: " + ec.message()});
  std::sort(c.files.begin(), c.files.end());
  // Files are read and checked on every core, each into its own part; the parts join in path order, into vectors
  // sized once (no doubling while a large corpus grows).
  const std::size_t n = c.files.size();
  std::vector<Corpus> parts(n);
  std::atomic<std::size_t> next{0};
  std::mutex mu;
  std::size_t done = 0;
  auto work = [&] {
    for (std::size_t k; (k = next++) < n;) {
      parts[k].as = as;
      load_one(c.files[k], static_cast<std::uint32_t>(k), &parts[k]);
      std::lock_guard<std::mutex> lock(mu);
      if (progress) progress(++done, n);
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < std::min<std::size_t>(n, std::clamp(std::thread::hardware_concurrency(), 1u, 8u)); ++t)
    threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  std::size_t fixtures = 0, packed = 0;
  for (const auto& part : parts) fixtures += part.fixtures.size(), packed += part.packed.size();
  c.fixtures.reserve(fixtures);
  c.packed.reserve(packed);
  for (auto& part : parts) {
    for (auto& e : part.errors) c.errors.push_back(std::move(e));
    std::move(part.fixtures.begin(), part.fixtures.end(), std::back_inserter(c.fixtures));
    std::move(part.packed.begin(), part.packed.end(), std::back_inserter(c.packed));
    part = Corpus();
  }
  return c;
}

}  // namespace accord::conformance
