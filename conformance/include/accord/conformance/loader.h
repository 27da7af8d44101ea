// loader.h: reads every fixture file of a corpus directory, checked against the published schema.
#pragma once

#include <cstddef>
#include <cstdint>
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

/// A case kept as its compact JSON text (about its size on disk) with the facts that select it, and read into a
/// Fixture (unpack) only when it runs: how `accord conform` holds a corpus, so that memory stays near its size on disk.
struct PackedCase {
  std::string id;
  std::vector<std::string> profiles, profiles_except;  ///< as Fixture's (case_applies)
  std::uint32_t file = 0;                              ///< index into Corpus::files
  std::uint32_t index = 0;                             ///< position in its file's `cases` (pointer `/cases/<index>`)
  std::string text;                                    ///< the case object, compact JSON (big integers as written)
};

/// How the loader keeps the cases it read: as Fixtures, or packed (PackedCase).
enum class LoadAs { kFixtures, kPacked };

/// The cases of a corpus, in path order then file order, and every file that could not be read.
struct Corpus {
  LoadAs as = LoadAs::kFixtures;
  std::vector<Fixture> fixtures;  ///< LoadAs::kFixtures
  std::vector<PackedCase> packed;  ///< LoadAs::kPacked
  std::vector<LoadError> errors;
  std::vector<std::string> files;  ///< every fixture file found, sorted
};

/// Told after each file: how many of the corpus's files are loaded.
using LoadProgress = std::function<void(std::size_t files_done, std::size_t files)>;

/// Loads every `**/*.json` under `dir` except `schema/`, validating each file against the fixture
/// schema. Files with errors contribute errors, never cases. Never throws.
Corpus load_corpus(const std::string& dir, const LoadProgress& progress = nullptr, LoadAs as = LoadAs::kFixtures);

/// Loads one file (as load_corpus does for each); appends to `out` (as `out->as` says; a packed case's file is
/// `path`'s place in `out->files`, added when absent).
void load_file(const std::string& path, Corpus* out);

/// The Fixture of a packed case of `c`. False with `error` if its text no longer reads (never for what the loader
/// packed); never throws.
bool unpack(const Corpus& c, const PackedCase& p, Fixture* out, std::string* error);

/// The published schema (fixtures/schema/fixture.schema.json), compiled into the library.
const char* fixture_schema_text();

/// Formats `file: pointer: message` the way `accord lint` prints it.
std::string to_string(const LoadError& e);

}  // namespace accord::conformance
