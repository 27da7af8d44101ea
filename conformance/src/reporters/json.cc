// json.cc: the JSON-lines report: a header line, one line per result as it arrives, a footer line.
#include "accord/reference/big_int_json.h"
#include "reporters/common.h"

namespace accord::conformance::detail {
namespace {
using nlohmann::json;

json diffs_json(const std::vector<Diff>& diffs) {
  json a = json::array();
  for (const auto& d : diffs) a.push_back({{"pointer", d.pointer}, {"expected", d.expected}, {"actual", d.actual}, {"note", d.note}});
  return a;
}

class JsonReporter : public ResultSink {
 public:
  explicit JsonReporter(std::unique_ptr<StreamedFile> f) : f_(std::move(f)) {}
  void begin(const RunHeader& h) override {
    const auto& i = h.implementation;
    json impl = {{"name", i.name}, {"version", i.version}, {"language", i.language}, {"capabilities", i.capabilities}};
    f_->append(json({{"type", "header"}, {"implementation", impl}, {"profile", h.profile}, {"corpus", h.corpus},
                     {"divergence_file", h.divergence_file}, {"selected", h.selected}, {"started_at", h.started_at},
                     {"protocol", 1}})
                   .dump() +
               "\n");
  }
  void result(const CaseResult& r) override {
    json j = {{"type", "result"}, {"id", r.id},           {"verdict", verdict_name(r.verdict)},
              {"file", r.file},   {"pointer", r.pointer}, {"seconds", r.seconds}};
    if (!r.message.empty()) j["message"] = r.message;
    if (!r.diffs.empty()) j["diffs"] = diffs_json(r.diffs);
    if (r.verdict != Verdict::kPassed && !r.outcome.is_null()) j["outcome"] = r.outcome;
    if (!r.reproduce.empty()) j["given"] = r.given, j["reproduce"] = r.reproduce;
    f_->append(reference::json_text(j) + "\n");  // a case input keeps its big integers as written
  }
  void end(const Summary& s) override {
    json counts = json::object();
    for (Verdict v : all_verdicts()) counts[verdict_name(v)] = s.count(v);
    f_->append(json({{"type", "footer"}, {"counts", counts}, {"selected", s.selected}, {"not_run", s.not_run},
                     {"not_run_ids", s.not_run_ids}, {"stopped", s.stopped},
                     {"stale_divergences", s.stale_divergences}, {"seconds", s.seconds}, {"ok", s.ok()}})
                   .dump() +
               "\n");
  }

 private:
  std::unique_ptr<StreamedFile> f_;
};

}  // namespace

std::unique_ptr<ResultSink> make_json_reporter(std::unique_ptr<StreamedFile> f) {
  return std::make_unique<JsonReporter>(std::move(f));
}

}  // namespace accord::conformance::detail
