// adapter.cc: adapter vocabulary shared by every adapter: status names and the capability table.
#include "accord/conformance/adapter.h"

namespace accord::conformance {

const char* status_name(ResultStatus s) {
  switch (s) {
    case ResultStatus::kOk: return "ok";
    case ResultStatus::kSkipped: return "skipped";
    case ResultStatus::kErrored: return "errored";
    case ResultStatus::kCrashed: return "crashed";
    case ResultStatus::kTimeout: return "timeout";
  }
  return "?";  // LCOV_EXCL_LINE unreachable: every status returns above
}

AdapterResult Adapter::resolve_text(const std::string& id, const std::string& profile, const nlohmann::json& case_json,
                                    std::string* outcome_text) {
  AdapterResult r = resolve(id, profile, case_json);
  if (r.status == ResultStatus::kOk) {
    *outcome_text = r.outcome.dump();
    r.outcome = nullptr;
  }
  return r;
}

const std::vector<std::string>& known_capabilities() {
  static const std::vector<std::string> tags = {
#define ACCORD_CAPABILITY(Tag, Meaning) Tag,
#include "../tables/capabilities.def"
  };
  return tags;
}

const std::vector<std::string>& capability_meanings() {
  static const std::vector<std::string> meanings = {
#define ACCORD_CAPABILITY(Tag, Meaning) Meaning,
#include "../tables/capabilities.def"
  };
  return meanings;
}

}  // namespace accord::conformance
