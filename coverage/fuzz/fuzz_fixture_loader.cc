// fuzz_fixture_loader.cc: libFuzzer target: bytes as a fixture file -> conformance::load_file (parse, schema,
// typed fixture) -> every loaded case's `given` through the reference.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>

#include "accord/conformance/loader.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = [] {
    std::string dir = std::string(getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp") + "/accord-fuzz-loader-" + std::to_string(getpid());
    std::string cmd = "mkdir -p '" + dir + "'";
    if (std::system(cmd.c_str()) != 0) accord::fuzz::violated("cannot create " + dir);
    return dir + "/case.json";
  }();
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
