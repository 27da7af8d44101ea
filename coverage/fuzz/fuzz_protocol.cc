// fuzz_protocol.cc: libFuzzer target: the protocol readers. The bytes are read as reply lines
// (parse_reply, parse_handshake) and as a request stream served by the in-process reference (serve), whose
// every output line must be a JSON object.
#include <cstddef>
#include <cstdint>
#include <sstream>

#include "accord/conformance/protocol.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    accord::conformance::Reply r = accord::conformance::parse_reply(line);
    if (r.kind == accord::conformance::ReplyKind::kOutcome && !r.has_id) accord::fuzz::violated("an outcome reply without an id");
    if (r.kind == accord::conformance::ReplyKind::kMalformed && r.message.empty()) accord::fuzz::violated("malformed without a reason");
    accord::conformance::ImplementationInfo info;
    std::string error;
    if (!accord::conformance::parse_handshake(line, &info, &error) && error.empty()) accord::fuzz::violated("handshake refused without a reason");
  }
  static auto impl = [] {
    auto a = accord::conformance::make_reference_adapter();
    std::string error;
    if (!a->start(&error)) accord::fuzz::violated("the reference adapter does not start: " + error);
    return a;
  }();
  std::istringstream in(text);
  std::ostringstream out;
  const char* profile = accord::reference::profile_name(accord::reference::default_profile());
  if (accord::conformance::serve(in, out, *impl, profile) != 0) accord::fuzz::violated("serve returned non-zero");
  std::istringstream replies(out.str());
  while (std::getline(replies, line)) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_object()) accord::fuzz::violated("serve wrote a line that is not a JSON object: " + line.substr(0, 200));
  }
  return 0;
}
