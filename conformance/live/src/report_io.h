// report_io.h: the launcher's scratch directory and the JSON files workers leave in it.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace accord::conformance::live {

/// A fresh directory under $TMPDIR (or /tmp), removed on destruction unless keep() was called.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  /// The directory; empty when it could not be created.
  [[nodiscard]] const std::string& path() const { return path_; }
  /// `path()/name`.
  [[nodiscard]] std::string file(const std::string& name) const { return path_ + "/" + name; }
  /// Leave the directory in place.
  void keep() { keep_ = true; }

 private:
  std::string path_;
  bool keep_ = false;
};

/// Writes `value` to `path` atomically (a temporary file, then rename); false on failure.
bool write_json_file(const std::string& path, const nlohmann::json& value);

/// Reads and parses `path`; std::nullopt when it is missing or not JSON.
[[nodiscard]] std::optional<nlohmann::json> read_json_file(const std::string& path);

/// The last `max_bytes` of a text file (whole lines where possible); "" when unreadable.
[[nodiscard]] std::string file_tail(const std::string& path, std::size_t max_bytes = 4000);

}  // namespace accord::conformance::live
