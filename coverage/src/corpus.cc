// corpus.cc: the fixture corpus through the conformance loader, each `given` read by the reference.
#include "accord/coverage/corpus.h"

#include "accord/conformance/loader.h"
#include "accord/reference/json_io.h"

namespace accord::coverage {

std::vector<CorpusCase> load_corpus(const std::string& dir, std::vector<std::string>* errors) {
  conformance::Corpus corpus = conformance::load_corpus(dir);
  for (const auto& e : corpus.errors) errors->push_back(conformance::to_string(e));
  std::vector<CorpusCase> out;
  for (const auto& f : corpus.fixtures) {
    CorpusCase c{f.id, f.file, {}, f.covers, {}};
    for (const auto& p : reference::profiles())
      if (f.applies_to(p.name)) c.profiles.push_back(p.profile);
    std::string error;
    if (!reference::case_from_json(f.given, &c.given, &error)) {
      errors->push_back(f.file + ": " + f.pointer + "/given" + error);
      continue;
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace accord::coverage
