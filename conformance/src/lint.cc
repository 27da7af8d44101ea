// lint.cc: corpus checks beyond the schema (ids, folders, vocabularies, expectations that check nothing).
#include "accord/conformance/lint.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "accord/conformance/compare.h"

namespace accord::conformance {
namespace {
namespace fs = std::filesystem;

struct Checker {
  const Vocabulary& vocab;
  const Fixture& f;
  std::vector<LoadError>* out;

  void problem(const std::string& pointer, const std::string& message) { out->push_back({f.file, pointer, message}); }

  void codes(const std::vector<std::string>& list, const std::string& ptr, const char* key) {
    for (std::size_t i = 0; i < list.size(); ++i)
      if (!vocab.is_code(list[i]))
        problem(ptr + "/" + key + "/" + std::to_string(i), "unknown diagnostic code '" + list[i] + "' (see `accord list codes`)");
  }

  void expectation(const Expectation& e) {
    codes(e.diagnostics, e.pointer, "diagnostics");
    codes(e.diagnostics_absent, e.pointer, "diagnostics_absent");
    for (std::size_t i = 0; i < e.trace_includes.size(); ++i)
      if (!vocab.is_rule(e.trace_includes[i]))
        problem(e.pointer + "/trace_includes/" + std::to_string(i),
                "unknown rule ID '" + e.trace_includes[i] + "' (see `accord list rules`)");
    for (const auto& c : e.diagnostics)
      if (std::find(e.diagnostics_absent.begin(), e.diagnostics_absent.end(), c) != e.diagnostics_absent.end())
        problem(e.pointer, "code '" + c + "' is in both diagnostics and diagnostics_absent");
    switch (e.kind) {
      case ExpectationKind::kPlan: break;
      case ExpectationKind::kError:
        if (!vocab.is_code(e.error.code)) problem(e.pointer + "/error/code", "unknown diagnostic code '" + e.error.code + "'");
        else error_fields(e);
        break;
      case ExpectationKind::kAnyOf:
        if (e.any_of_reason.empty())
          problem(e.pointer + "/any_of", "any_of accepts more than one answer: say why each is right in any_of_reason, or split "
                                         "the expectation by profile (expect_by_profile)");
        for (const auto& alt : e.any_of) expectation(alt);
        break;
    }
  }

  /// Every flag the catalogue's template of the error's code names is a listed field (seed item 7: an error names
  /// each flag involved).
  void error_fields(const Expectation& e) {
    std::string missing;
    for (const auto& field : vocab.code_flag_fields ? vocab.code_flag_fields(e.error.code) : std::vector<std::string>())
      if (std::find(e.error.fields.begin(), e.error.fields.end(), field) == e.error.fields.end())
        missing += (missing.empty() ? "" : ", ") + field;
    if (!missing.empty())
      problem(e.pointer + "/error/fields", "error '" + e.error.code + "' names the flags of its catalogue template; list " +
                                               missing + " too (see `accord list codes`)");
  }

  void top_expectation(const Expectation& e) {
    expectation(e);
    if (checks_nothing(e))
      problem(e.pointer, "the expectation checks nothing: give plan fields, an error code, or diagnostics to check");
  }

  void run() {
    for (std::size_t i = 0; i < f.covers.size(); ++i)
      if (!vocab.is_rule(f.covers[i]))
        problem(f.pointer + "/covers/" + std::to_string(i), "unknown rule ID '" + f.covers[i] + "' (see `accord list rules`)");
    for (std::size_t i = 0; i < f.requires_.size(); ++i)
      if (!vocab.is_capability(f.requires_[i]))
        problem(f.pointer + "/requires/" + std::to_string(i),
                "unknown capability tag '" + f.requires_[i] + "' (see conformance/tables/capabilities.def)");
    for (std::size_t i = 0; i < f.profiles.size(); ++i)
      if (!vocab.is_profile(f.profiles[i]))
        problem(f.pointer + "/profiles/" + std::to_string(i), "unknown profile '" + f.profiles[i] + "'");
    for (std::size_t i = 0; i < f.profiles_except.size(); ++i)
      if (!vocab.is_profile(f.profiles_except[i]))
        problem(f.pointer + "/profiles_except/" + std::to_string(i), "unknown profile '" + f.profiles_except[i] + "'");
    if (f.has_expect) top_expectation(f.expect);
    for (const auto& [profile, e] : f.expect_by_profile) {
      if (!vocab.is_profile(profile)) problem(e.pointer, "unknown profile '" + profile + "'");
      else if (!f.applies_to(profile)) problem(e.pointer, "expectation for profile '" + profile + "', which the case does not list in profiles");
      top_expectation(e);
    }
    for (const auto& [hw, e] : f.expect_live) top_expectation(e);
    for (const auto& p : vocab.profile_names())
      if (f.applies_to(p) && !f.expectation_for(p))
        problem(f.pointer, "no expectation for profile '" + p + "': add expect, or expect_by_profile." + p);
    std::string bad = vocab.check_case(f.given);
    if (!bad.empty()) problem(f.pointer + "/given", "the reference cannot read the case: " + bad);
  }
};

/// The folder that names the area: the directory right under `cases/` (or under the corpus root).
std::string folder_area(const std::string& file, const std::string& dir) {
  // The loader names each file under `dir` as written, so the path is relative by its text (no file-system call per
  // case); only a path that does not start with `dir` asks the file system.
  fs::path rel = fs::path(file).lexically_relative(fs::path(dir));
  std::error_code ec;
  if (rel.empty() || *rel.begin() == "..") rel = fs::relative(fs::path(file), fs::path(dir), ec);
  if (ec || rel.empty()) return "";
  std::vector<std::string> parts;
  for (const auto& p : rel) parts.push_back(p.string());
  if (parts.size() < 2) return "";  // a file directly in the corpus root
  std::size_t at = parts[0] == "cases" ? 1 : 0;
  if (parts[0] == "regressions") return "";  // promoted cases keep their original area
  return at + 1 < parts.size() ? parts[at] : "";
}

/// Each id's first case (file, pointer), for naming it when the id comes again.
using Seen = std::map<std::string, std::pair<std::string, std::string>>;

void lint_case(const Fixture& f, const std::string& dir, const Vocabulary& vocab, Seen& seen, std::vector<LoadError>* problems) {
  auto [it, fresh] = seen.try_emplace(f.id, f.file, f.pointer);
  if (!fresh)
    problems->push_back({f.file, f.pointer + "/id", "duplicate id '" + f.id + "' (first at " + it->second.first + ": " +
                                                        it->second.second + ")"});
  case_problems(f, dir, vocab, problems);
}

}  // namespace

void case_problems(const Fixture& f, const std::string& dir, const Vocabulary& vocab, std::vector<LoadError>* problems) {
  std::string area = f.id.substr(0, f.id.find('/'));
  std::string folder = folder_area(f.file, dir);
  if (!folder.empty() && folder != area)
    problems->push_back({f.file, f.pointer + "/id", "id '" + f.id + "' has area '" + area + "' but the file is in folder '" +
                                                        folder + "'"});
  Checker{vocab, f, problems}.run();
}

void lint_fixtures(const std::vector<Fixture>& fixtures, const std::string& dir, const Vocabulary& vocab,
                   std::vector<LoadError>* problems) {
  Seen seen;
  for (const auto& f : fixtures) lint_case(f, dir, vocab, seen, problems);
}

LintResult lint_corpus(const std::string& dir, const Vocabulary& vocab) {
  LintResult r;
  Corpus c = load_corpus(dir, nullptr, LoadAs::kPacked);  // each case read in turn: memory near the corpus's size
  r.files = c.files.size();
  r.cases = c.packed.size();
  r.problems = c.errors;
  Seen seen;
  for (const auto& p : c.packed) {
    Fixture f;
    std::string error;
    if (unpack(c, p, &f, &error))
      lint_case(f, dir, vocab, seen, &r.problems);
    else  // LCOV_EXCL_LINE the loader packs only what read
      r.problems.push_back({c.files[p.file], "/cases/" + std::to_string(p.index), error});  // LCOV_EXCL_LINE
  }
  std::stable_sort(r.problems.begin(), r.problems.end(), [](const LoadError& a, const LoadError& b) {
    return a.file != b.file ? a.file < b.file : a.pointer < b.pointer;
  });
  return r;
}

}  // namespace accord::conformance
