// protocol_test.cc: message encoding, reply parsing, the handshake, and the serve loop over streams.
#include <gtest/gtest.h>

#include <sstream>

#include "accord/conformance/protocol.h"

namespace accord::conformance {
namespace {
using nlohmann::json;

TEST(Protocol, RequestsAreSingleJsonLines) {
  EXPECT_EQ(json::parse(start_request()), json({{"cmd", "start"}, {"protocol", 1}}));
  EXPECT_EQ(json::parse(stop_request()), json({{"cmd", "stop"}}));
  std::string r = resolve_request("a/b", "spec", {{"flags", {{"devices", 2}}}});
  EXPECT_EQ(r.find('\n'), std::string::npos);
  EXPECT_EQ(json::parse(r), json({{"cmd", "resolve"}, {"id", "a/b"}, {"profile", "spec"}, {"case", {{"flags", {{"devices", 2}}}}}}));
}

// escape_json scans sixteen bytes at a time while sixteen are left, then byte by byte: every ASCII byte value, at
// every offset of strings of 1 to 40 bytes in text that needs no escape, is escaped as nlohmann's dump() escapes it
// (valid UTF-8 after it: é is two bytes), and so are two escapes in one block and bytes past 0x7f (which a signed
// compare would take for control characters) around an escape.
TEST(Protocol, JsonStringsAreEscapedLikeNlohmannAtEveryOffset) {
  for (int len = 1; len <= 40; ++len)
    for (int at = 0; at < len; ++at) {
      for (int byte = 0; byte < 0x80; ++byte) {
        std::string s(static_cast<std::size_t>(len), 'a');
        s[static_cast<std::size_t>(at)] = static_cast<char>(byte);
        s += "\xc3\xa9";
        std::string out;
        append_json_string(out, s);
        ASSERT_EQ(out, json(s).dump()) << "byte " << byte << " at " << at << " of " << len;
      }
      std::string twice(static_cast<std::size_t>(len), 'b');
      twice[static_cast<std::size_t>(at)] = '"', twice[static_cast<std::size_t>(len - 1 - at)] = '\x01';
      std::string out;
      append_json_string(out, twice);
      ASSERT_EQ(out, json(twice).dump()) << "two escapes at " << at << " and " << len - 1 - at << " of " << len;
      std::string wide;
      for (int i = 0; i < len; ++i) wide += i == at ? "\\" : "\xc3\xa9";
      out.clear();
      append_json_string(out, wide);
      ASSERT_EQ(out, json(wide).dump()) << "a backslash after " << at << " two-byte characters";
    }
}

// Texts of 4 to 32 bytes are first checked whole, by two loads that meet or overlap: each length from 0 to 40 with
// nothing to escape, with every ASCII byte value at every offset (the last byte included), and with bytes past 0x7f
// only (two-byte characters, which an unsigned compare must pass).
TEST(Protocol, ShortJsonStringsAreEscapedLikeNlohmannWhateverTheirLength) {
  for (int len = 0; len <= 40; ++len) {
    std::string plain;
    for (int i = 0; i < len; ++i) plain += static_cast<char>('a' + i % 26);
    std::string out;
    append_json_string(out, plain);
    ASSERT_EQ(out, json(plain).dump()) << "plain text of " << len;
    for (int at = 0; at < len; ++at)
      for (int byte = 0; byte < 0x80; ++byte) {
        std::string s = plain;
        s[static_cast<std::size_t>(at)] = static_cast<char>(byte);
        out.clear();
        append_json_string(out, s);
        ASSERT_EQ(out, json(s).dump()) << "byte " << byte << " at " << at << " of " << len;
      }
    std::string wide;
    for (int i = 0; i < len / 2; ++i) wide += "\xc3\xa9";
    out.clear();
    append_json_string(out, wide);
    ASSERT_EQ(out, json(wide).dump()) << len / 2 << " two-byte characters";
  }
}

TEST(Protocol, ParseReplyKinds) {
  Reply r = parse_reply(R"({"id": "a", "outcome": {"status": "ok"}})");
  EXPECT_EQ(r.kind, ReplyKind::kOutcome);
  EXPECT_EQ(r.id, "a");
  EXPECT_EQ(r.outcome["status"], "ok");
  r = parse_reply(R"({"id": "a", "skipped": "no ipu"})");
  EXPECT_EQ(r.kind, ReplyKind::kSkipped);
  EXPECT_EQ(r.message, "no ipu");
  r = parse_reply(R"({"id": "a", "errored": "Traceback ..."})");
  EXPECT_EQ(r.kind, ReplyKind::kErrored);
  EXPECT_EQ(parse_reply("not json").kind, ReplyKind::kMalformed);
  EXPECT_EQ(parse_reply("[1, 2]").kind, ReplyKind::kMalformed);
  EXPECT_EQ(parse_reply(R"({"id": "a"})").kind, ReplyKind::kMalformed);
  r = parse_reply(R"({"outcome": {}})");
  EXPECT_EQ(r.kind, ReplyKind::kMalformed);
  EXPECT_NE(r.message.find("no string id"), std::string::npos);
}

TEST(Protocol, TimingIsAskedInTheStartLineAndReadFromOutcomeReplies) {
  EXPECT_EQ(json::parse(start_request(true)), json({{"cmd", "start"}, {"protocol", 1}, {"timing", true}}));
  EXPECT_EQ(parse_reply(R"({"id": "a", "outcome": {}, "elapsed_ns": 1234})").elapsed_ns, 1234);
  EXPECT_EQ(parse_reply(R"({"id": "a", "outcome": {}})").elapsed_ns, std::nullopt);
  EXPECT_EQ(parse_reply(R"({"id": "a", "outcome": {}, "elapsed_ns": -5})").elapsed_ns, std::nullopt);
  EXPECT_EQ(parse_reply(R"({"id": "a", "outcome": {}, "elapsed_ns": "12"})").elapsed_ns, std::nullopt);
  EXPECT_EQ(parse_reply(R"({"id": "a", "skipped": "x", "elapsed_ns": 3})").elapsed_ns, std::nullopt);
}

TEST(Protocol, HandshakeAcceptsVersionOneOnly) {
  ImplementationInfo info;
  std::string err;
  ASSERT_TRUE(parse_handshake(R"({"ok": true, "protocol": 1, "implementation": {"name": "x", "version": "2",
      "language": "py", "capabilities": ["accelerator:cpu", "env"]}})", &info, &err)) << err;
  EXPECT_EQ(info.name, "x");
  EXPECT_EQ(info.capabilities, (std::set<std::string>{"accelerator:cpu", "env"}));
  EXPECT_FALSE(parse_handshake(R"({"ok": false, "error": "nope"})", &info, &err));
  EXPECT_NE(err.find("nope"), std::string::npos);
  EXPECT_FALSE(parse_handshake(R"({"ok": true, "protocol": 2, "implementation": {"name": "x"}})", &info, &err));
  EXPECT_NE(err.find("protocol 2"), std::string::npos);
  EXPECT_FALSE(parse_handshake(R"({"ok": true, "protocol": 1, "implementation": {}})", &info, &err));
  EXPECT_FALSE(parse_handshake("hello", &info, &err));
  ImplementationInfo back;
  info.name = "y";
  ASSERT_TRUE(parse_handshake(handshake_reply(info), &back, &err));
  EXPECT_EQ(back.name, "y");
  EXPECT_EQ(back.capabilities, info.capabilities);
}

std::vector<json> serve_lines(const std::string& input, const std::string& profile = "spec") {
  auto impl = make_reference_adapter();
  std::string err;
  EXPECT_TRUE(impl->start(&err));
  std::istringstream in(input);
  std::ostringstream out;
  EXPECT_EQ(serve(in, out, *impl, profile), 0);
  std::vector<json> lines;
  std::istringstream replies(out.str());
  for (std::string l; std::getline(replies, l);) lines.push_back(json::parse(l));
  return lines;
}

TEST(Serve, AnswersEveryRequestInOrderUntilStop) {
  auto lines = serve_lines(
      "{\"cmd\":\"start\",\"protocol\":1}\n"
      "{\"cmd\":\"resolve\",\"id\":\"a\",\"case\":{\"flags\":{\"strategy\":\"ddp_cpu\"}}}\n"
      "\n"
      "this is not json\n"
      "{\"cmd\":\"resolve\",\"id\":\"b\",\"case\":{\"flags\":{\"devices\":{\"nope\":1}}}}\n"
      "{\"cmd\":\"dance\",\"id\":\"c\"}\n"
      "{\"cmd\":\"stop\"}\n"
      "{\"cmd\":\"resolve\",\"id\":\"after-stop\",\"case\":{}}\n");
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0]["implementation"]["name"], "accord-reference");
  EXPECT_EQ(lines[1]["id"], "a");
  EXPECT_EQ(lines[1]["outcome"]["error"]["code"], "err_strategy_ddp_cpu");
  EXPECT_TRUE(lines[2]["errored"].is_string());
  EXPECT_EQ(lines[3]["id"], "b");
  EXPECT_NE(lines[3]["errored"].get<std::string>().find("/flags/devices"), std::string::npos);
  EXPECT_EQ(lines[4]["id"], "c");
  EXPECT_NE(lines[4]["errored"].get<std::string>().find("dance"), std::string::npos);
}

TEST(Serve, RequestProfileWinsOverTheDefault) {
  // accelerator='ddp_cpu' is an error in spec and a deprecated alias in lightning-1.6 (policies.def).
  const std::string req = "{\"cmd\":\"resolve\",\"id\":\"x\",\"profile\":\"lightning-1.6\",\"case\":{\"flags\":{\"accelerator\":\"ddp_cpu\"}}}\n";
  const std::string plain = "{\"cmd\":\"resolve\",\"id\":\"x\",\"case\":{\"flags\":{\"accelerator\":\"ddp_cpu\"}}}\n";
  auto named = serve_lines(req, "spec");
  auto by_default_spec = serve_lines(plain, "spec");
  auto by_default_l16 = serve_lines(plain, "lightning-1.6");
  EXPECT_EQ(named[0]["outcome"], by_default_l16[0]["outcome"]);
  EXPECT_NE(named[0]["outcome"], by_default_spec[0]["outcome"]);
}

TEST(Serve, ParallelBatchesAnswerInOrderAndStopOnTime) {
  std::string input = start_request() + "\n";
  for (int i = 0; i < 500; ++i) {
    json c = {{"flags", {{"accelerator", "cpu"}, {"devices", 1 + i % 4}}}};
    input += resolve_request("case/" + std::to_string(i), i % 2 ? "spec" : "lightning-1.6", c) + "\n";
    if (i == 400) input += stop_request() + "\n";
  }
  std::vector<std::unique_ptr<Adapter>> owned;
  std::vector<Adapter*> impls;
  for (int k = 0; k < 3; ++k) owned.push_back(make_reference_adapter()), impls.push_back(owned.back().get());
  std::istringstream in3(input), in1(input);
  std::ostringstream out3, out1;
  EXPECT_EQ(serve(in3, out3, impls, "spec"), 0);
  EXPECT_EQ(serve(in1, out1, *impls[0], "spec"), 0);
  EXPECT_EQ(out3.str(), out1.str());
  std::istringstream replies(out3.str());
  std::vector<std::string> lines;
  for (std::string l; std::getline(replies, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), 402u);  // handshake + cases 0..400, nothing after stop
  EXPECT_EQ(json::parse(lines[1])["id"], "case/0");
  EXPECT_EQ(json::parse(lines[401])["id"], "case/400");
}

TEST(Serve, PipelinedBatchesAnswerInOrderAndStopOnTime) {
  // More lines than one batch holds (4,096): while the workers answer one batch, the next is read and the last one's
  // replies are written. The replies are the same, in order, on 1, 2 and 3 adapters, and nothing after the stop (in
  // the third batch) is answered; an error reply in each batch keeps its place.
  constexpr int kCases = 10000, kStopAfter = 9000;
  std::string input = start_request() + "\n";
  for (int i = 0; i < kCases; ++i) {
    json c = {{"flags", {{"accelerator", "cpu"}, {"devices", 1 + i % 4}}}};
    input += i % 3000 == 7 ? std::string("not json\n") : resolve_request("case/" + std::to_string(i), i % 2 ? "spec" : "lightning-2.2", c) + "\n";
    if (i == kStopAfter) input += stop_request() + "\n";
  }
  std::vector<std::unique_ptr<Adapter>> owned;
  std::vector<Adapter*> impls;
  for (int k = 0; k < 3; ++k) owned.push_back(make_reference_adapter()), impls.push_back(owned.back().get());
  std::string first;
  for (std::size_t k = 1; k <= impls.size(); ++k) {
    std::istringstream in(input);
    std::ostringstream out;
    EXPECT_EQ(serve(in, out, std::vector<Adapter*>(impls.begin(), impls.begin() + static_cast<std::ptrdiff_t>(k)), "spec"), 0);
    if (k == 1) first = out.str();
    EXPECT_EQ(out.str(), first) << k << " adapters";
  }
  std::istringstream replies(first);
  std::vector<std::string> lines;
  for (std::string l; std::getline(replies, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), static_cast<std::size_t>(kStopAfter + 2));  // handshake + cases 0..kStopAfter
  EXPECT_EQ(json::parse(lines[1])["id"], "case/0");
  EXPECT_TRUE(json::parse(lines[8]).contains("errored"));
  EXPECT_TRUE(json::parse(lines[6008]).contains("errored"));
  EXPECT_EQ(json::parse(lines[6009])["id"], "case/6008");
  EXPECT_EQ(json::parse(lines.back())["id"], "case/" + std::to_string(kStopAfter));
}

TEST(Serve, TimingModeAddsElapsedNsToOutcomeRepliesOnly) {
  const std::string cases = "{\"cmd\":\"resolve\",\"id\":\"a\",\"case\":{}}\n{\"cmd\":\"resolve\",\"id\":\"b\",\"profile\":\"nope\"}\n";
  auto timed = serve_lines(start_request(true) + "\n" + cases);
  ASSERT_EQ(timed.size(), 3u);
  ASSERT_TRUE(timed[1].contains("elapsed_ns"));
  EXPECT_TRUE(timed[1]["elapsed_ns"].is_number_integer());
  EXPECT_GE(timed[1]["elapsed_ns"].get<std::int64_t>(), 0);
  EXPECT_TRUE(timed[2].contains("skipped"));
  EXPECT_FALSE(timed[2].contains("elapsed_ns"));
  auto plain = serve_lines(start_request() + "\n" + cases);
  ASSERT_EQ(plain.size(), 3u);
  EXPECT_FALSE(plain[1].contains("elapsed_ns"));
  timed[1].erase("elapsed_ns");
  EXPECT_EQ(timed[1], plain[1]);  // the outcome itself is the same
}

TEST(Serve, StartWithAnotherProtocolIsRefused) {
  auto lines = serve_lines("{\"cmd\":\"start\",\"protocol\":9}\n");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0]["ok"], false);
}

}  // namespace
}  // namespace accord::conformance
