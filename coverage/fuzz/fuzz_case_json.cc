// fuzz_case_json.cc: libFuzzer target: JSON text -> case_from_json -> resolve (both profiles) -> invariants.
#include <cstddef>
#include <cstdint>

#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto j = nlohmann::json::parse(data, data + size, nullptr, false);
  if (j.is_discarded()) return 0;
  accord::reference::Case c;
  std::string error;
  if (!accord::reference::case_from_json(j, &c, &error)) {
    if (error.empty()) accord::fuzz::violated("case_from_json failed without a message");
    // `accord resolve` prints the message inside JSON: it must stay valid UTF-8 (dump throws otherwise).
    (void)nlohmann::json{{"error", error}}.dump();
    return 0;
  }
  nlohmann::json outcome = accord::fuzz::check_resolve(c);
  accord::fuzz::check_round_trip(c, outcome);
  return 0;
}
