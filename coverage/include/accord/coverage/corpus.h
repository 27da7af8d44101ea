// corpus.h: the fixture corpus as the coverage analysis reads it, through the conformance fixture loader.
#pragma once

#include <string>
#include <vector>

#include "accord/coverage/analysis.h"

namespace accord::coverage {

/// Loads every fixture under `dir` with the conformance loader and turns each case into a CorpusCase
/// (its `given` parsed with reference::case_from_json). Problems (a file that does not load, a `given`
/// the reference cannot read) are appended to `errors` as "<file>: <pointer>: <what>"; the other cases
/// are still returned.
std::vector<CorpusCase> load_corpus(const std::string& dir, std::vector<std::string>* errors);

}  // namespace accord::coverage
