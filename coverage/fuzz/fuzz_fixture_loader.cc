// fuzz_fixture_loader.cc: libFuzzer target: bytes as a fixture file -> conformance::load_file (parse, schema,
// typed fixture) -> every loaded case's `given` through the reference.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "accord/conformance/loader.h"
#include "fuzz_util.h"

namespace {
/// The file each input is written to, in a directory of its own (mkdtemp), removed with the directory when the
/// fuzzer exits: runs leave nothing in the temporary folder.
struct InputFile {
  std::string dir, path;
  InputFile() {
    std::string pattern = std::string(getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp") + "/accord-fuzz-loader-XXXXXX";
    if (!mkdtemp(pattern.data())) accord::fuzz::violated("cannot create a directory from " + pattern);
    dir = pattern;
    path = dir + "/case.json";
  }
  ~InputFile() {
    std::remove(path.c_str());
    rmdir(dir.c_str());
  }
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const InputFile input;
  const std::string& path = input.path;
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  accord::conformance::Corpus corpus;
  accord::conformance::load_file(path, &corpus);
  for (const auto& e : corpus.errors) {
    if (e.message.empty()) accord::fuzz::violated("a load error without a message");
    if (e.file != path) accord::fuzz::violated("a load error naming another file: " + e.file);
  }
  if (!corpus.errors.empty() && !corpus.fixtures.empty()) accord::fuzz::violated("a file with errors contributed cases");
  for (size_t k = 0; k < corpus.fixtures.size(); ++k) {
    const auto& f = corpus.fixtures[k];
    if (f.id.empty()) accord::fuzz::violated("a loaded fixture without an id");
    accord::reference::Case c;
    std::string error;
    // The loader is the target; the first cases of a file also go through the resolver.
    if (k < 2 && accord::reference::case_from_json(f.given, &c, &error)) accord::fuzz::check_resolve(c);
  }
  return 0;
}
