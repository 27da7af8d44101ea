// test_support.h: helpers for the conformance self-tests (expectations from JSON, temp dirs, paths).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "accord/conformance/fixture.h"

namespace accord::conformance::testing {

/// An expectation read from its JSON form (fails the test on a bad one).
Expectation expectation(const nlohmann::json& j);
/// `<data>/<name>`: a corpus under conformance/tests/data.
std::string data_dir(const std::string& name);
/// A fresh empty directory under the system temp dir, removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }
  /// Writes `text` to `path()/rel`, creating folders.
  void write(const std::string& rel, const std::string& text) const;

 private:
  std::string path_;
};
/// The whole content of a file ("" when missing).
std::string read_file(const std::string& path);

}  // namespace accord::conformance::testing
