// loader.cc: finds, parses and schema-checks fixture files, turning every problem into a LoadError.
#include "accord/conformance/loader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
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

void load_file(const std::string& path, Corpus* out) {
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
  valijson::Validator validator;
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
  std::size_t errors = out->errors.size();
  for (std::size_t i = 0; i < cases.size(); ++i) {
    Fixture f;
    std::string ptr, msg;
    if (fixture_from_json(cases[i], path, "/cases/" + std::to_string(i), &f, &ptr, &msg))
      read.push_back(std::move(f));
    else
      out->errors.push_back({path, ptr, msg});
  }
  if (out->errors.size() != errors) return;
  for (auto& f : read) out->fixtures.push_back(std::move(f));
}

Corpus load_corpus(const std::string& dir, const LoadProgress& progress) {
  Corpus c;
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
  for (std::size_t k = 0; k < c.files.size(); ++k) {
    load_file(c.files[k], &c);
    if (progress) progress(k + 1, c.files.size());
  }
  return c;
}

}  // namespace accord::conformance
