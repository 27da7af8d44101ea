// fuzz_case_json.cc: libFuzzer target: JSON text -> case_from_json -> resolve (every profile) -> invariants; and
// the fast reader of serve / resolve --batch (FastCaseReader) agrees: it accepts only what case_from_json accepts,
// and reads it to the same case.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "accord/conformance/fast_case.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static accord::conformance::FastCaseReader fast;
  accord::reference::Case quick;
  const bool fast_read = fast.read_case(std::string_view(reinterpret_cast<const char*>(data), size), &quick);
  auto j = nlohmann::json::parse(data, data + size, nullptr, false);
  if (j.is_discarded()) {
    if (fast_read) accord::fuzz::violated("the fast reader accepts text nlohmann does not parse");
    return 0;
  }
  accord::reference::Case c;
  std::string error;
  if (!accord::reference::case_from_json(j, &c, &error)) {
    if (error.empty()) accord::fuzz::violated("case_from_json failed without a message");
    if (fast_read) accord::fuzz::violated("the fast reader accepts a case case_from_json rejects: " + error);
    // `accord resolve` prints the message inside JSON: it must stay valid UTF-8 (dump throws otherwise).
    (void)nlohmann::json{{"error", error}}.dump();
    return 0;
  }
  if (fast_read && accord::reference::case_to_json(quick) != accord::reference::case_to_json(c))
    accord::fuzz::violated("the fast reader reads another case: " + accord::reference::case_to_json(quick).dump());
  nlohmann::json outcome = accord::fuzz::check_resolve(c);
  accord::fuzz::check_round_trip(c, outcome);
  return 0;
}
