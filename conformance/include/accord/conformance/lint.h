// lint.h: `accord lint`: the schema plus the checks a schema cannot express.
#pragma once

#include <string>
#include <vector>

#include "accord/conformance/adapter.h"
#include "accord/conformance/loader.h"

namespace accord::conformance {

/// Every problem of a corpus, sorted by file then pointer, and what was looked at.
struct LintResult {
  std::vector<LoadError> problems;
  std::size_t files = 0;
  std::size_t cases = 0;
};

/// Loads `dir` and checks, beyond the schema: unique ids; the id's area equals the folder under
/// `cases/`; rule IDs (`covers`, `trace_includes`), codes, profiles and capability tags exist in
/// `vocab`; every applicable profile has an expectation; no expectation checks nothing; the
/// reference can read `given`. Never throws.
LintResult lint_corpus(const std::string& dir, const Vocabulary& vocab);

/// The checks of one case (all but unique ids), appended to `problems`: what `accord conform` asks of each case
/// before it runs it, so that a case lint rejects is never a pass.
void case_problems(const Fixture& f, const std::string& dir, const Vocabulary& vocab, std::vector<LoadError>* problems);

/// The same checks over cases already loaded (duplicates are found across all of them).
void lint_fixtures(const std::vector<Fixture>& fixtures, const std::string& dir, const Vocabulary& vocab,
                   std::vector<LoadError>* problems);

}  // namespace accord::conformance
