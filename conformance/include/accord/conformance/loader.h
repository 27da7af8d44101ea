// loader.h: reads every fixture file of a corpus directory, checked against the published schema.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "accord/conformance/fixture.h"

namespace accord::conformance {

/// A problem with one fixture file: the file, a JSON Pointer into it ("" = the whole file) and
/// a message that names the bad value.
struct LoadError {
  std::string file;
  std::string pointer;
  std::string message;
};

/// The cases of a corpus, in path order then file order, and every file that could not be read.
struct Corpus {
  std::vector<Fixture> fixtures;
  std::vector<LoadError> errors;
  std::vector<std::string> files;  ///< every fixture file found, sorted
};

/// Told after each file: how many of the corpus's files are loaded.
using LoadProgress = std::function<void(std::size_t files_done, std::size_t files)>;

/// Loads every `**/*.json` under `dir` except `schema/`, validating each file against the fixture
/// schema. Files with errors contribute errors, never cases. Never throws.
Corpus load_corpus(const std::string& dir, const LoadProgress& progress = nullptr);

/// Loads one file (as load_corpus does for each); appends to `out`.
void load_file(const std::string& path, Corpus* out);

/// The published schema (fixtures/schema/fixture.schema.json), compiled into the library.
const char* fixture_schema_text();

/// Formats `file: pointer: message` the way `accord lint` prints it.
std::string to_string(const LoadError& e);

}  // namespace accord::conformance
