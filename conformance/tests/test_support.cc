// test_support.cc: helpers for the conformance self-tests.
#include "test_support.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace accord::conformance::testing {
namespace fs = std::filesystem;

Expectation expectation(const nlohmann::json& j) {
  nlohmann::json c = {{"id", "t/t"}, {"title", "t"}, {"origin", "regression-snapshot"}, {"given", nlohmann::json::object()},
                      {"expect", j}};
  Fixture f;
  std::string ptr, msg;
  EXPECT_TRUE(fixture_from_json(c, "t.json", "/cases/0", &f, &ptr, &msg)) << ptr << ": " << msg;
  return f.expect;
}

std::string data_dir(const std::string& name) { return std::string(ACCORD_TEST_DATA) + "/" + name; }

TempDir::TempDir() {
  static int counter = 0;
  path_ = (fs::temp_directory_path() / ("accord-conformance-test-" + std::to_string(::getpid()) + "-" + std::to_string(++counter)))
              .string();
  fs::remove_all(path_);
  fs::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

void TempDir::write(const std::string& rel, const std::string& text) const {
  fs::path p = fs::path(path_) / rel;
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace accord::conformance::testing
