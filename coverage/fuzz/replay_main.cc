// replay_main.cc: a main() for a libFuzzer target without libFuzzer: runs the target's entry point on the
// empty input and on every file under the paths given, so ctest reruns saved fuzz inputs in any build.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {
namespace fs = std::filesystem;

/// Every regular file under `path` (or `path` itself), sorted; false with a message when it cannot be read.
bool collect(const fs::path& path, std::vector<fs::path>* files, std::string* error) {
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) {
    files->push_back(path);
    return true;
  }
  if (!fs::is_directory(path, ec)) {
    *error = path.string() + ": not a file or directory";
    return false;
  }
  std::vector<fs::path> found;
  for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file()) found.push_back(it->path());
  if (ec) {
    *error = path.string() + ": " + ec.message();
    return false;
  }
  std::sort(found.begin(), found.end());
  files->insert(files->end(), found.begin(), found.end());
  return true;
}

/// Runs the entry point on `bytes` copied into a buffer of exactly their size (so a sanitizer sees overreads).
void run_one(const std::string& bytes) {
  std::unique_ptr<uint8_t[]> buffer(new uint8_t[bytes.size()]);
  std::copy(bytes.begin(), bytes.end(), buffer.get());
  LLVMFuzzerTestOneInput(buffer.get(), bytes.size());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <input file or directory>...\n", argv[0]);
    return 2;
  }
  std::vector<fs::path> files;
  for (int k = 1; k < argc; ++k) {
    std::string error;
    if (!collect(argv[k], &files, &error)) {
      std::fprintf(stderr, "replay: %s\n", error.c_str());
      return 2;
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "replay: no input files under the paths given\n");
    return 2;
  }
  run_one("");
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::string bytes;
    if (in) bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (!in.is_open() || in.bad()) {
      std::fprintf(stderr, "replay: %s: cannot read\n", f.string().c_str());
      return 2;
    }
    std::fprintf(stderr, "replay: %s (%zu bytes)\n", f.string().c_str(), bytes.size());
    run_one(bytes);
  }
  std::printf("replay: %zu inputs and the empty input, no crash\n", files.size());
  return 0;
}
